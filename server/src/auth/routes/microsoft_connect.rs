//! 'Connect Microsoft account' for a task's content (issue 13 point 5): the signed-in staff
//! member grants Voicemark delegated Graph access (`providers::microsoft::GRAPH_SCOPE`).
//!
//! - `POST /api/microsoft/connect` (form: `csrfToken`, `returnTo`), CSRF-checked like the
//!   sign-in routes: a fresh `state`, `nonce` and PKCE verifier in this flow's own cookies,
//!   then the tenant's authorize page.
//! - `GET /api/microsoft/callback`: the same browser and the same signed-in user; the state
//!   checked, the code redeemed, the `id_token` verified; the Microsoft account linked to
//!   the user (replacing another of theirs; refused when it belongs to someone else) and
//!   its tokens stored sealed (`microsoft_graph::seal`). Back to `returnTo` with
//!   `microsoft=connected`, or `microsoft=<reason>`.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;

use super::csrf::csrf_verified;
use super::{is_secure, redirect_answer, safe_callback_url, AuthForm};
use crate::auth::session::{cookie, current_user};
use crate::crypto::constant_time_eq;
use crate::microsoft_graph::{self, PROVIDER};
use crate::models::accounts::{self, NewAccount};
use crate::models::now;
use crate::providers::microsoft::{Challenge, GRAPH_SCOPE};
use crate::state::AppState;
use crate::transaction;

/// How long a started connection may take.
const FLOW_MAX_AGE_SECONDS: u32 = 900;
const STATE: &str = "voicemark.microsoft.state";
const PKCE: &str = "voicemark.microsoft.pkce";
const NONCE: &str = "voicemark.microsoft.nonce";
const RETURN_TO: &str = "voicemark.microsoft.return";

/// The `/api/microsoft` routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/connect", post(connect))
        .route("/callback", get(callback))
}

/// Where Microsoft sends the browser back (registered beside sign-in's redirect URI).
pub fn redirect_uri(public_url: &str) -> String {
    format!("{public_url}/api/microsoft/callback")
}

fn cookie_name(name: &str, secure: bool) -> String {
    if secure {
        format!("__Secure-{name}")
    } else {
        name.to_owned()
    }
}

fn set_cookie(name: &str, value: &str, max_age: u32, secure: bool) -> String {
    let secure_attr = if secure { "; Secure" } else { "" };
    format!(
        "{}={value}; Max-Age={max_age}; Path=/api/microsoft; HttpOnly; SameSite=Lax{secure_attr}",
        cookie_name(name, secure)
    )
}

/// `returnTo` with `microsoft=<outcome>` added to its query.
fn back_to(return_to: &str, outcome: &str) -> String {
    match url::Url::parse(return_to) {
        Ok(mut url) => {
            url.query_pairs_mut().append_pair("microsoft", outcome);
            url.to_string()
        }
        Err(_) => return_to.to_owned(),
    }
}

/// `POST /api/microsoft/connect`.
pub async fn connect(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let form = AuthForm::parse(&headers, &body);
    let secure = is_secure(&state.config);
    let return_to = safe_callback_url(&state.config, form.get("returnTo"));
    let signed_in = current_user(&state.db, &headers, secure)
        .await
        .ok()
        .flatten()
        .filter(|u| !u.user.disabled);
    if signed_in.is_none() {
        let login = format!("{}/login", state.config.public_url);
        return redirect_answer(false, StatusCode::FOUND, &login, &[]);
    }
    if !csrf_verified(&state, &headers, &form) {
        return redirect_answer(false, StatusCode::FOUND, &back_to(&return_to, "refused"), &[]);
    }
    let Some(client) = state.providers.microsoft.as_ref() else {
        return redirect_answer(false, StatusCode::FOUND, &back_to(&return_to, "not-set-up"), &[]);
    };
    let challenge = Challenge::new();
    let authorize = match client.metadata().await {
        Ok(metadata) => client.authorize_url(
            &metadata,
            &redirect_uri(&state.config.public_url),
            &challenge,
            GRAPH_SCOPE,
        ),
        Err(err) => Err(err),
    };
    match authorize {
        Ok(url) => {
            let encoded: String =
                url::form_urlencoded::byte_serialize(return_to.as_bytes()).collect();
            let age = FLOW_MAX_AGE_SECONDS;
            let cookies = [
                set_cookie(STATE, &challenge.state, age, secure),
                set_cookie(PKCE, &challenge.code_verifier, age, secure),
                set_cookie(NONCE, &challenge.nonce, age, secure),
                set_cookie(RETURN_TO, &encoded, age, secure),
            ];
            redirect_answer(false, StatusCode::FOUND, &url, &cookies)
        }
        Err(err) => {
            tracing::warn!(error = %err, "could not start a Microsoft connection");
            redirect_answer(false, StatusCode::FOUND, &back_to(&return_to, "unavailable"), &[])
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// `GET /api/microsoft/callback`.
pub async fn callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<CallbackQuery>, QueryRejection>,
) -> Response {
    // An unreadable query is a refused connection like any other.
    let query = query.map(|Query(q)| q).unwrap_or_else(|_| CallbackQuery {
        error: Some("invalid_request".into()),
        ..CallbackQuery::default()
    });
    let secure = is_secure(&state.config);
    let cookies: Vec<String> = [STATE, PKCE, NONCE, RETURN_TO]
        .iter()
        .map(|name| set_cookie(name, "", 0, secure))
        .collect();
    let requested = cookie(&headers, &cookie_name(RETURN_TO, secure)).and_then(|raw| {
        url::form_urlencoded::parse(format!("u={raw}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
    });
    let return_to = safe_callback_url(&state.config, requested.as_deref());
    let outcome = match complete(&state, &headers, &query).await {
        Ok(()) => "connected",
        Err(outcome) => outcome,
    };
    redirect_answer(false, StatusCode::FOUND, &back_to(&return_to, outcome), &cookies)
}

/// Links the account and stores its tokens; `Err` is the outcome the page explains.
async fn complete(
    state: &AppState,
    headers: &HeaderMap,
    query: &CallbackQuery,
) -> Result<(), &'static str> {
    let secure = is_secure(&state.config);
    let user = current_user(&state.db, headers, secure)
        .await
        .ok()
        .flatten()
        .filter(|u| !u.user.disabled)
        .map(|u| u.user)
        .ok_or("signed-out")?;
    if let Some(error) = &query.error {
        tracing::info!(%error, "Microsoft refused a connection");
        return Err(if error == "access_denied" { "declined" } else { "refused" });
    }
    let flow = |name: &str| cookie(headers, &cookie_name(name, secure)).filter(|v| !v.is_empty());
    let (Some(expected), Some(verifier), Some(nonce)) = (flow(STATE), flow(PKCE), flow(NONCE))
    else {
        return Err("refused");
    };
    let matches = query
        .state
        .as_deref()
        .is_some_and(|s| constant_time_eq(s.as_bytes(), expected.as_bytes()));
    let code = query.code.as_deref().filter(|c| !c.is_empty() && c.len() <= 8192);
    let (true, Some(code)) = (matches, code) else {
        return Err("refused");
    };
    let client = state.providers.microsoft.as_ref().ok_or("not-set-up")?;
    let failed = |err: crate::providers::microsoft::MicrosoftError| {
        tracing::warn!(error = %err, "a Microsoft connection failed");
        "refused"
    };
    let metadata = client.metadata().await.map_err(failed)?;
    let redirect = redirect_uri(&state.config.public_url);
    let answer = client
        .exchange_code(&metadata, code, &redirect, verifier, GRAPH_SCOPE)
        .await
        .map_err(failed)?;
    let id_token = answer.id_token.as_deref().ok_or("refused")?;
    let claims = client
        .verify_id_token(&metadata, id_token, nonce)
        .await
        .map_err(failed)?;
    let account_id = claims.account_id().to_owned();
    if account_id.is_empty() || account_id.len() > 200 || answer.access_token.is_none() {
        return Err("refused");
    }
    let sealed = microsoft_graph::seal(state, &account_id, &answer, None);
    let at = now();
    let mut pooled = state.db.conn().await.map_err(|_| "unavailable")?;
    let mut conn = pooled.db();
    // Ok(false): the Microsoft account belongs to another user.
    let linked: Result<bool, diesel::result::Error> =
        transaction!(&mut conn, |c| {
            if let Some(existing) = accounts::find_account(c, PROVIDER, &account_id).await? {
                if existing.user_id != user.id {
                    return Ok(false);
                }
            } else {
                accounts::delete_other_links(c, &user.id, PROVIDER, &account_id).await?;
                accounts::insert_account(
                    c,
                    &NewAccount {
                        user_id: &user.id,
                        type_: "oauth",
                        provider: PROVIDER,
                        provider_account_id: &account_id,
                        ext_expires_in: answer.ext_expires_in.and_then(|s| i32::try_from(s).ok()),
                        token_type: answer.token_type.as_deref().filter(|t| t.len() <= 50),
                        scope: answer.scope.as_deref().filter(|s| s.len() <= 2000),
                        session_state: None,
                        created_at: at,
                        updated_at: at,
                    },
                )
                .await?;
            }
            accounts::store_tokens(c, PROVIDER, &account_id, &sealed, at).await?;
            Ok(true)
        });
    match linked {
        Ok(true) => Ok(()),
        Ok(false) => Err("not-linked"),
        Err(err) => {
            tracing::error!(error = %err, "a Microsoft connection could not be stored");
            Err("unavailable")
        }
    }
}
