//! Sign in with Microsoft, Auth.js's `azure-ad` provider (docs/microsoft-signin.md):
//! `POST /api/auth/signin/azure-ad` (CSRF-checked) keeps a fresh `state`, `nonce` and PKCE
//! verifier in Auth.js's cookies and sends the browser to the tenant's authorize endpoint;
//! `GET /api/auth/callback/azure-ad` checks the state, redeems the code, verifies the
//! `id_token` and signs in the existing, activated, enabled user with its e-mail address,
//! linking the Microsoft account in `accounts`. It never creates a user. Failures land on
//! `/login?error=<Code>`: `OAuthSignin` (could not start), `OAuthCallbackError` (Microsoft
//! refused or its answer did not check out), `OAuthAccountNotLinked` (the user is linked
//! to another Microsoft account, or this one to another user), `UserNotFound`,
//! `UserNotActivated`, `AccountDisabled`, `Default`.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use chrono::NaiveDateTime;
use serde::Deserialize;

use super::credentials::{open_session, SignInFailure};
use super::csrf::csrf_verified;
use super::{
    is_secure, login_error_url, redirect_answer, safe_callback_url, user_agent, AuthForm,
    ClientAddress,
};
use crate::addresses::normalise_email;
use crate::auth::session::{cookie, session_set_cookies};
use crate::crypto::constant_time_eq;
use crate::models::accounts::{self, NewAccount};
use crate::models::now;
use crate::models::users::find_by_email;
use crate::providers::microsoft::{Challenge, IdClaims, TokenAnswer, SIGN_IN_SCOPE};
use crate::state::AppState;
use crate::transaction;

/// Auth.js's id for the Microsoft Entra ID (Azure AD) provider.
pub const PROVIDER: &str = "azure-ad";
/// What `GET /api/auth/providers` calls it.
pub const PROVIDER_NAME: &str = "Microsoft Entra ID";
/// How long a started sign-in may take (Auth.js's state, PKCE and nonce cookies: 15 min).
const FLOW_MAX_AGE_SECONDS: u32 = 900;

/// The cookies one sign-in keeps, by Auth.js's names (`__Secure-` under https).
const STATE: &str = "next-auth.state";
const PKCE: &str = "next-auth.pkce.code_verifier";
const NONCE: &str = "next-auth.nonce";
const CALLBACK_URL: &str = "next-auth.callback-url";

fn cookie_name(name: &str, secure: bool) -> String {
    if secure {
        format!("__Secure-{name}")
    } else {
        name.to_owned()
    }
}

fn set_cookie(name: &str, value: &str, max_age: Option<u32>, secure: bool) -> String {
    let max_age = max_age.map(|s| format!("; Max-Age={s}")).unwrap_or_default();
    let secure_attr = if secure { "; Secure" } else { "" };
    format!(
        "{}={value}{max_age}; Path=/; HttpOnly; SameSite=Lax{secure_attr}",
        cookie_name(name, secure)
    )
}

fn clear_cookie(name: &str, secure: bool) -> String {
    set_cookie(name, "", Some(0), secure)
}

/// Where Microsoft sends the browser back (registered as the app's redirect URI).
pub fn redirect_uri(public_url: &str) -> String {
    format!("{public_url}/api/auth/callback/{PROVIDER}")
}

/// `POST /api/auth/signin/azure-ad`.
pub async fn start(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let form = AuthForm::parse(&headers, &body);
    let json = form.wants_json();
    let public = &state.config.public_url;
    let Some(client) = state.providers.microsoft.as_ref() else {
        // Auth.js sends an unknown provider to the sign-in page.
        return redirect_answer(json, StatusCode::OK, &format!("{public}/login"), &[]);
    };
    if !csrf_verified(&state, &headers, &form) {
        let url = format!("{public}/api/auth/signin?csrf=true");
        return redirect_answer(json, StatusCode::OK, &url, &[]);
    }
    let callback = safe_callback_url(&state.config, form.get("callbackUrl"));
    let challenge = Challenge::new();
    let authorize = match client.metadata().await {
        Ok(metadata) => client.authorize_url(&metadata, &redirect_uri(public), &challenge, SIGN_IN_SCOPE),
        Err(err) => Err(err),
    };
    match authorize {
        Ok(url) => {
            let secure = is_secure(&state.config);
            let age = Some(FLOW_MAX_AGE_SECONDS);
            let encoded: String = url::form_urlencoded::byte_serialize(callback.as_bytes()).collect();
            let cookies = [
                set_cookie(STATE, &challenge.state, age, secure),
                set_cookie(PKCE, &challenge.code_verifier, age, secure),
                set_cookie(NONCE, &challenge.nonce, age, secure),
                set_cookie(CALLBACK_URL, &encoded, None, secure),
            ];
            redirect_answer(json, StatusCode::OK, &url, &cookies)
        }
        Err(err) => {
            tracing::warn!(error = %err, "could not start a Microsoft sign-in");
            redirect_answer(
                json,
                StatusCode::OK,
                &login_error_url(&state.config, "OAuthSignin"),
                &[],
            )
        }
    }
}

/// The redirect back from Microsoft: `code` and `state`, or `error` and its description.
#[derive(Debug, Default, Deserialize)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
    session_state: Option<String>,
}

/// Why a Microsoft sign-in failed; each is an error code /login shows a text for.
#[derive(Debug)]
enum Failure {
    /// Microsoft refused, or the flow or its answer did not check out (detail logged).
    Callback(String),
    /// The user is linked to another Microsoft account, or this one to another user.
    NotLinked,
    /// The account's own state (unknown, not activated, disabled) or a server fault.
    User(SignInFailure),
}

impl Failure {
    fn code(&self) -> &'static str {
        match self {
            Failure::Callback(_) => "OAuthCallbackError",
            Failure::NotLinked => "OAuthAccountNotLinked",
            Failure::User(failure) => failure.code(),
        }
    }
}

impl From<diesel::result::Error> for Failure {
    fn from(err: diesel::result::Error) -> Self {
        Failure::User(SignInFailure::Default(err.to_string()))
    }
}

impl From<crate::db::DbError> for Failure {
    fn from(err: crate::db::DbError) -> Self {
        Failure::User(SignInFailure::Default(err.to_string()))
    }
}

/// `GET /api/auth/callback/azure-ad`.
pub async fn callback(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    query: Result<Query<CallbackQuery>, QueryRejection>,
) -> Response {
    // An unreadable query (a repeated field, say) is a failed callback like any other.
    let query = query.map(|Query(q)| q).unwrap_or_else(|rejection| CallbackQuery {
        error: Some("invalid_request".into()),
        error_description: Some(rejection.body_text()),
        ..CallbackQuery::default()
    });
    let secure = is_secure(&state.config);
    // The flow's cookies are spent whatever happens.
    let mut cookies = vec![
        clear_cookie(STATE, secure),
        clear_cookie(PKCE, secure),
        clear_cookie(NONCE, secure),
    ];
    let requested = cookie(&headers, &cookie_name(CALLBACK_URL, secure)).and_then(|raw| {
        url::form_urlencoded::parse(format!("u={raw}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
    });
    let callback = safe_callback_url(&state.config, requested.as_deref());
    match complete(&state, &headers, &query, address.as_deref()).await {
        Ok((token, expires_at)) => {
            cookies.extend(session_set_cookies(&token, expires_at, secure));
            redirect_answer(false, StatusCode::FOUND, &callback, &cookies)
        }
        Err(failure) => {
            match &failure {
                Failure::Callback(detail) => {
                    tracing::warn!(%detail, "a Microsoft sign-in was refused")
                }
                Failure::User(SignInFailure::Default(detail)) => {
                    tracing::error!(%detail, "a Microsoft sign-in failed unexpectedly")
                }
                _ => {}
            }
            let url = login_error_url(&state.config, failure.code());
            redirect_answer(false, StatusCode::FOUND, &url, &cookies)
        }
    }
}

/// The value of this sign-in's cookie `name`, if the browser kept it.
fn flow_cookie<'a>(headers: &'a HeaderMap, name: &str, secure: bool) -> Option<&'a str> {
    cookie(headers, &cookie_name(name, secure)).filter(|v| !v.is_empty())
}

async fn complete(
    state: &AppState,
    headers: &HeaderMap,
    query: &CallbackQuery,
    address: Option<&str>,
) -> Result<(String, NaiveDateTime), Failure> {
    if let Some(error) = &query.error {
        return Err(Failure::Callback(format!(
            "Microsoft answered {error}: {}",
            query.error_description.as_deref().unwrap_or("")
        )));
    }
    let secure = is_secure(&state.config);
    let (Some(expected_state), Some(verifier), Some(nonce)) = (
        flow_cookie(headers, STATE, secure),
        flow_cookie(headers, PKCE, secure),
        flow_cookie(headers, NONCE, secure),
    ) else {
        return Err(Failure::Callback("no sign-in in progress in this browser".into()));
    };
    let state_matches = query
        .state
        .as_deref()
        .is_some_and(|s| constant_time_eq(s.as_bytes(), expected_state.as_bytes()));
    if !state_matches {
        return Err(Failure::Callback("the state is not this browser's".into()));
    }
    let Some(code) = query.code.as_deref().filter(|c| !c.is_empty() && c.len() <= 8192) else {
        return Err(Failure::Callback("no authorization code".into()));
    };
    let Some(client) = state.providers.microsoft.as_ref() else {
        return Err(Failure::Callback("Sign in with Microsoft is not configured".into()));
    };
    let callback_failure = |e: crate::providers::microsoft::MicrosoftError| {
        Failure::Callback(e.to_string())
    };
    let metadata = client.metadata().await.map_err(callback_failure)?;
    let redirect = redirect_uri(&state.config.public_url);
    let tokens = client
        .exchange_code(&metadata, code, &redirect, verifier, SIGN_IN_SCOPE)
        .await
        .map_err(callback_failure)?;
    let Some(id_token) = tokens.id_token.as_deref() else {
        return Err(Failure::Callback("the token answer has no id_token".into()));
    };
    let claims = client
        .verify_id_token(&metadata, id_token, nonce)
        .await
        .map_err(callback_failure)?;
    let session_state = query.session_state.as_deref().filter(|s| s.len() <= 200);
    sign_in(state, &claims, &tokens, session_state, address, user_agent(headers)).await
}

/// Signs in the user whose address the token vouches for, linking the Microsoft account,
/// all in one transaction.
async fn sign_in(
    state: &AppState,
    claims: &IdClaims,
    tokens: &TokenAnswer,
    session_state: Option<&str>,
    address: Option<&str>,
    user_agent: Option<&str>,
) -> Result<(String, NaiveDateTime), Failure> {
    let Some(email) = claims.verified_email().map(normalise_email) else {
        return Err(Failure::Callback("the id_token names no e-mail address".into()));
    };
    use core_wasm::limits::{text_error, MAX_EMAIL_CHARS};
    let account_id = claims.account_id();
    if text_error(&email, MAX_EMAIL_CHARS).is_some() || text_error(account_id, 200).is_some() {
        return Err(Failure::Callback("the id_token's e-mail or id is unusable".into()));
    }
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    let link = NewAccount {
        user_id: "",
        type_: "oauth",
        provider: PROVIDER,
        provider_account_id: account_id,
        ext_expires_in: tokens.ext_expires_in.and_then(|s| i32::try_from(s).ok()),
        token_type: tokens.token_type.as_deref().filter(|t| t.len() <= 50),
        scope: tokens.scope.as_deref().filter(|s| s.len() <= 2000),
        session_state,
        created_at: at,
        updated_at: at,
    };
    transaction!(&mut conn, |c| {
        let Some(user) = find_by_email(c, &email).await? else {
            return Err(Failure::User(SignInFailure::UserNotFound));
        };
        if !user.activated {
            return Err(Failure::User(SignInFailure::UserNotActivated));
        }
        if user.disabled {
            return Err(Failure::User(SignInFailure::AccountDisabled));
        }
        let linked = accounts::find_account(c, PROVIDER, account_id).await?;
        if linked.as_ref().is_some_and(|a| a.user_id != user.id) {
            return Err(Failure::NotLinked);
        }
        let others = accounts::user_accounts(c, &user.id, PROVIDER).await?;
        if others.iter().any(|a| a.provider_account_id != account_id) {
            return Err(Failure::NotLinked);
        }
        let link = NewAccount {
            user_id: &user.id,
            ..link.clone()
        };
        if linked.is_some() {
            accounts::update_account_details(c, &link).await?;
        } else {
            accounts::insert_account(c, &link).await?;
        }
        Ok(open_session(c, &user.id, address, user_agent).await?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_cookies_take_auth_js_names_and_attributes() {
        assert_eq!(
            set_cookie(STATE, "abc", Some(900), false),
            "next-auth.state=abc; Max-Age=900; Path=/; HttpOnly; SameSite=Lax"
        );
        assert_eq!(
            set_cookie(PKCE, "v", Some(900), true),
            "__Secure-next-auth.pkce.code_verifier=v; Max-Age=900; Path=/; HttpOnly; SameSite=Lax; Secure"
        );
        assert_eq!(
            clear_cookie(NONCE, false),
            "next-auth.nonce=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"
        );
        assert_eq!(
            redirect_uri("https://app.example"),
            "https://app.example/api/auth/callback/azure-ad"
        );
    }
}
