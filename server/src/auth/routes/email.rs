//! The e-mail magic link: `POST /api/auth/signin/email` e-mails a single-use link valid for
//! 24 hours to an active account through the job queue (the answer is the same, and as fast,
//! for any address; limited per e-mail and per client address);
//! `GET /api/auth/callback/email?token=…&email=…` signs in with it once.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use chrono::Duration;
use serde::Deserialize;

use super::credentials::{open_session, SignInFailure};
use super::csrf::csrf_verified;
use super::{
    is_secure, login_error_url, redirect_answer, safe_callback_url, user_agent, AuthForm,
    ClientAddress,
};
use crate::addresses::normalise_email;
use crate::auth::rate_limit::{ADDRESS_LIMIT, RESET_LIMIT};
use crate::auth::session::session_set_cookies;
use crate::auth::tokens::{self, Purpose};
use crate::jobs::email_account::{AccountEmail, AccountMessage};
use crate::models::now;
use crate::models::users::{self, find_by_email, User};
use crate::state::AppState;
use crate::transaction;

/// How long a sign-in link works.
pub const SIGN_IN_LINK_VALIDITY: Duration = Duration::hours(24);

pub async fn send_sign_in_link(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = AuthForm::parse(&headers, &body);
    let json = form.wants_json();
    let public = &state.config.public_url;
    if !csrf_verified(&state, &headers, &form) {
        return redirect_answer(
            json,
            StatusCode::OK,
            &format!("{public}/api/auth/signin?csrf=true"),
            &[],
        );
    }
    let email = normalise_email(form.get("email").unwrap_or(""));
    if !core_wasm::email::is_valid_email(&email) {
        return redirect_answer(
            json,
            StatusCode::OK,
            &login_error_url(&state.config, "EmailSignin"),
            &[],
        );
    }
    let email_key = format!("link:{email}");
    let address_key = address.map(|a| format!("link-ip:{a}"));
    let mut keys = vec![(email_key.as_str(), RESET_LIMIT)];
    if let Some(key) = &address_key {
        keys.push((key.as_str(), ADDRESS_LIMIT));
    }
    if !state.auth.limiter.try_acquire_all(&keys).await {
        let failure = SignInFailure::TooManyAttempts;
        return redirect_answer(
            json,
            failure.status(),
            &login_error_url(&state.config, failure.code()),
            &[],
        );
    }
    let callback = safe_callback_url(&state.config, form.get("callbackUrl"));
    if let Err(detail) = email_link(&state, &email, &callback).await {
        tracing::error!(%detail, "could not send a sign-in link");
        return redirect_answer(
            json,
            StatusCode::OK,
            &login_error_url(&state.config, "EmailSignin"),
            &[],
        );
    }
    redirect_answer(
        json,
        StatusCode::OK,
        &format!("{public}/api/auth/verify-request?provider=email&type=email"),
        &[],
    )
}

/// Queues the link e-mail when the address belongs to an active account; does nothing
/// otherwise. The token and its e-mail job are stored in one transaction; the request never
/// waits for the mail server.
async fn email_link(state: &AppState, email: &str, callback: &str) -> Result<(), String> {
    let mut pooled = state.db.conn().await.map_err(|e| e.to_string())?;
    let mut conn = pooled.db();
    let public_url = &state.config.public_url;
    let queued: Result<(), LinkError> = transaction!(&mut conn, |c| {
        let Some(user) = find_by_email(c, email).await? else {
            return Ok(());
        };
        if !user.activated || user.disabled {
            return Ok(());
        }
        let token = tokens::issue(
            c,
            Purpose::SignIn,
            email,
            Some(&user.id),
            SIGN_IN_LINK_VALIDITY,
        )
        .await?;
        let mut link = url::Url::parse(&format!("{public_url}/api/auth/callback/email"))
            .map_err(|e| LinkError(e.to_string()))?;
        link.query_pairs_mut()
            .append_pair("callbackUrl", callback)
            .append_pair("token", &token)
            .append_pair("email", email);
        AccountEmail {
            to: user.email.clone(),
            message: AccountMessage::SignInLink,
            forename: user.forename.clone(),
            link: link.to_string(),
        }
        .queue(c)
        .await?;
        Ok(())
    });
    queued.map_err(|e| e.0)
}

/// Why a link could not be queued, for the log.
struct LinkError(String);

impl From<diesel::result::Error> for LinkError {
    fn from(err: diesel::result::Error) -> Self {
        LinkError(err.to_string())
    }
}

#[derive(Debug, Deserialize)]
pub struct LinkQuery {
    token: Option<String>,
    email: Option<String>,
    #[serde(rename = "callbackUrl")]
    callback_url: Option<String>,
}

pub async fn sign_in_with_link(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Query(query): Query<LinkQuery>,
) -> Response {
    let callback = safe_callback_url(&state.config, query.callback_url.as_deref());
    let (Some(token), Some(email)) = (query.token.as_deref(), query.email.as_deref()) else {
        return redirect_answer(
            false,
            StatusCode::FOUND,
            &login_error_url(&state.config, "Verification"),
            &[],
        );
    };
    match use_link(
        &state,
        token,
        &normalise_email(email),
        address.as_deref(),
        user_agent(&headers),
    )
    .await
    {
        Ok(Some((session_token, expires_at))) => {
            let cookies = session_set_cookies(&session_token, expires_at, is_secure(&state.config));
            redirect_answer(false, StatusCode::FOUND, &callback, &cookies)
        }
        Ok(None) => redirect_answer(
            false,
            StatusCode::FOUND,
            &login_error_url(&state.config, "Verification"),
            &[],
        ),
        Err(failure) => {
            if let SignInFailure::Default(detail) = &failure {
                tracing::error!(%detail, "sign-in by link failed unexpectedly");
            }
            redirect_answer(
                false,
                StatusCode::FOUND,
                &login_error_url(&state.config, failure.code()),
                &[],
            )
        }
    }
}

/// Uses the link; `Ok(None)` when it is unknown, used, expired or for another address.
async fn use_link(
    state: &AppState,
    token: &str,
    email: &str,
    address: Option<&str>,
    user_agent: Option<&str>,
) -> Result<Option<(String, chrono::NaiveDateTime)>, SignInFailure> {
    // A NUL or an over-long value is no link's (and PostgreSQL cannot even compare it).
    use core_wasm::limits::{text_error, MAX_EMAIL_CHARS};
    if text_error(email, MAX_EMAIL_CHARS).is_some() || text_error(token, 200).is_some() {
        return Ok(None);
    }
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let Some(used) = tokens::consume(&mut conn, Purpose::SignIn, token, Some(email)).await? else {
        return Ok(None);
    };
    let Some(user_id) = used.user_id else {
        return Ok(None);
    };
    let user: Option<User> = users::find(&mut conn, &user_id).await?;
    let Some(user) = user else { return Ok(None) };
    if !user.activated {
        return Err(SignInFailure::UserNotActivated);
    }
    if user.disabled {
        return Err(SignInFailure::AccountDisabled);
    }
    // Following the link proves the address is the user's.
    users::mark_email_verified(&mut conn, &user.id, now()).await?;
    Ok(Some(
        open_session(&mut conn, &user.id, address, user_agent).await?,
    ))
}

/// `GET /api/auth/verify-request`: where Auth.js sends the browser after asking for a link;
/// the sign-in page shows "check your e-mail" for `?verifyRequest=email`.
pub async fn verify_request(State(state): State<AppState>) -> Response {
    redirect_answer(
        false,
        StatusCode::FOUND,
        &format!("{}/login?verifyRequest=email", state.config.public_url),
        &[],
    )
}
