//! The Auth.js v4 REST API under `/api/auth` (see shared/reference/nextauth.md), one file per
//! endpoint, with the helpers they share: body parsing, the `json=true` convention, callback
//! URLs kept on this site, the client address.
//!
//! Sign-in failures answer `{"url": "<public>/login?error=<Code>"}` (status 401) with Code one
//! of `UserNotFound`, `UserNotActivated`, `AccountDisabled`, `CredentialsSignin`, `Default`,
//! and `TooManyAttempts` (status 429) once the attempt limits of [`super::rate_limit`] trip;
//! Sign in with Microsoft adds `OAuthSignin`, `OAuthCallbackError` and
//! `OAuthAccountNotLinked` (see [`microsoft`]).
//! A disabled user's session ends at their next `GET /session` (answer `{}`); the app then
//! sends them to `/login?error=AccountDisabled`.

mod credentials;
mod csrf;
mod email;
mod log;
mod microsoft;
mod microsoft_connect;
mod providers;
mod session;
mod signout;

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};

use crate::config::Config;
use crate::state::AppState;

/// The `/api/microsoft` routes: 'Connect Microsoft account' for a task's content.
pub fn microsoft_connect_routes() -> Router<AppState> {
    microsoft_connect::routes()
}

/// The `/api/auth` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/session",
            get(session::get_session).post(session::update_session),
        )
        .route("/csrf", get(csrf::get_csrf))
        .route("/providers", get(providers::get_providers))
        .route(
            "/callback/credentials",
            post(credentials::sign_in_with_password),
        )
        .route("/signin", get(sign_in_page))
        .route("/signin/email", post(email::send_sign_in_link))
        .route("/signin/azure-ad", post(microsoft::start))
        .route("/signin/{provider}", any(unknown_provider))
        .route("/callback/azure-ad", get(microsoft::callback))
        .route("/callback/email", get(email::sign_in_with_link))
        .route("/verify-request", get(email::verify_request))
        .route("/signout", post(signout::sign_out))
        .route("/_log", post(log::client_log))
}

/// `GET /api/auth/signin`: Auth.js's sign-in page is /login; `error` and `callbackUrl`
/// come along (a refused CSRF check arrives here as `?csrf=true`: /login fetches a fresh
/// token, so the next try passes).
async fn sign_in_page(
    axum::extract::State(state): axum::extract::State<AppState>,
    axum::extract::Query(query): axum::extract::Query<HashMap<String, String>>,
) -> Response {
    let mut url = format!("{}/login", state.config.public_url);
    let kept: Vec<(&str, &str)> = ["error", "callbackUrl"]
        .into_iter()
        .filter_map(|k| query.get(k).map(|v| (k, v.as_str())))
        .collect();
    if !kept.is_empty() {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(kept)
            .finish();
        url = format!("{url}?{query}");
    }
    redirect_answer(false, StatusCode::FOUND, &url, &[])
}

/// `GET|POST /api/auth/signin/{provider}` for a provider this server does not offer: to the
/// sign-in page, as Auth.js does (`{"url": ...}` for a `json=true` POST, else a redirect).
async fn unknown_provider(
    axum::extract::State(state): axum::extract::State<AppState>,
    method: axum::http::Method,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let json = method == axum::http::Method::POST && AuthForm::parse(&headers, &body).wants_json();
    let url = format!("{}/login", state.config.public_url);
    redirect_answer(json, StatusCode::OK, &url, &[])
}

/// Whether cookies must be `Secure` (and take the `__Secure-`/`__Host-` names).
pub(crate) fn is_secure(config: &Config) -> bool {
    config.public_url.starts_with("https://")
}

/// `<public>/login?error=<code>`: where sign-in errors send the browser.
pub(crate) fn login_error_url(config: &Config, code: &str) -> String {
    format!("{}/login?error={code}", config.public_url)
}

/// The callback URL to follow: relative paths and absolute URLs of this site are kept,
/// anything else becomes the site's root.
pub(crate) fn safe_callback_url(config: &Config, requested: Option<&str>) -> String {
    let root = format!("{}/", config.public_url);
    let (Some(requested), Ok(base)) = (requested.filter(|r| !r.is_empty()), url::Url::parse(&root))
    else {
        return root;
    };
    match base.join(requested) {
        Ok(resolved)
            if resolved.origin() == base.origin()
                && matches!(resolved.scheme(), "http" | "https") =>
        {
            resolved.to_string()
        }
        _ => root,
    }
}

/// A POST body, from `application/x-www-form-urlencoded` (what the client sends) or JSON
/// (`update()`); every value as a string, and a JSON body's `data` kept as it is.
#[derive(Debug, Default)]
pub(crate) struct AuthForm {
    fields: HashMap<String, String>,
    pub data: Option<serde_json::Value>,
}

impl AuthForm {
    pub fn parse(headers: &HeaderMap, body: &[u8]) -> AuthForm {
        let is_json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if is_json {
            let Ok(serde_json::Value::Object(map)) =
                serde_json::from_slice::<serde_json::Value>(body)
            else {
                return AuthForm::default();
            };
            let mut form = AuthForm::default();
            for (key, value) in map {
                match value {
                    serde_json::Value::String(s) => {
                        form.fields.insert(key, s);
                    }
                    serde_json::Value::Bool(b) => {
                        form.fields.insert(key, b.to_string());
                    }
                    serde_json::Value::Number(n) => {
                        form.fields.insert(key, n.to_string());
                    }
                    other if key == "data" => form.data = Some(other),
                    _ => {}
                }
            }
            form
        } else {
            AuthForm {
                fields: url::form_urlencoded::parse(body).into_owned().collect(),
                data: None,
            }
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }

    /// `json=true`: answer `{"url"}` instead of redirecting.
    pub fn wants_json(&self) -> bool {
        self.get("json") == Some("true")
    }
}

/// Answers a redirect the Auth.js way: `{"url"}` with `status` for `json=true`, else a 302.
pub(crate) fn redirect_answer(
    wants_json: bool,
    status: StatusCode,
    url: &str,
    cookies: &[String],
) -> Response {
    let mut response = if wants_json {
        (status, Json(serde_json::json!({ "url": url }))).into_response()
    } else {
        let mut r = StatusCode::FOUND.into_response();
        if let Ok(location) = HeaderValue::from_str(url) {
            r.headers_mut().insert(header::LOCATION, location);
        }
        r
    };
    add_cookies(&mut response, cookies);
    response
}

/// A JSON answer with cookies; `no_store` adds Auth.js's no-cache headers.
pub(crate) fn json_answer(
    status: StatusCode,
    value: serde_json::Value,
    cookies: &[String],
    no_store: bool,
) -> Response {
    let mut response = (status, Json(value)).into_response();
    if no_store {
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-cache, no-store"),
        );
        headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
        headers.insert(header::EXPIRES, HeaderValue::from_static("0"));
    }
    add_cookies(&mut response, cookies);
    response
}

fn add_cookies(response: &mut Response, cookies: &[String]) {
    for cookie in cookies {
        if let Ok(value) = HeaderValue::from_str(cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
}

/// The client's address: the socket's peer, or the first `X-Forwarded-For` entry when
/// `VOICEMARK_TRUST_PROXY=1`. `None` when neither is known (e.g. in-process tests).
#[derive(Debug, Clone)]
pub(crate) struct ClientAddress(pub Option<String>);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientAddress(client_address(&state.config, parts)))
    }
}

/// The client's address for a request (see [`ClientAddress`]); the RPC transport hands it to
/// procedures through `Ctx` so their limits count per address too.
pub fn client_address(config: &Config, parts: &Parts) -> Option<String> {
    if config.auth.trust_proxy {
        let forwarded = parts
            .headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty());
        if let Some(address) = forwarded {
            return Some(address.to_owned());
        }
    }
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip().to_string())
}

/// The `User-Agent`, for the session row.
pub(crate) fn user_agent(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        let mut c = crate::config::from_lookup(|_| None, None).expect("config");
        c.public_url = "https://app.example".into();
        c
    }

    #[test]
    fn callback_urls_stay_on_this_site() {
        let c = config();
        assert_eq!(
            safe_callback_url(&c, Some("/dashboard")),
            "https://app.example/dashboard"
        );
        assert_eq!(
            safe_callback_url(&c, Some("https://app.example/x?y=1")),
            "https://app.example/x?y=1"
        );
        for off_site in [
            "https://evil.example/",
            "//evil.example/x",
            "/\\evil.example",
            "javascript:alert(1)",
            "http://app.example/",
        ] {
            assert_eq!(
                safe_callback_url(&c, Some(off_site)),
                "https://app.example/",
                "{off_site}"
            );
        }
        assert_eq!(safe_callback_url(&c, None), "https://app.example/");
    }
}
