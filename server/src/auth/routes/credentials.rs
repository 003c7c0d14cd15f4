//! `POST /api/auth/callback/credentials`: e-mail and password sign-in (`signIn('credentials')`).
//! Success sets the session cookie and answers the callback URL; failure answers
//! `<public>/login?error=<Code>`.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use chrono::NaiveDateTime;

use super::csrf::csrf_verified;
use super::{
    is_secure, login_error_url, redirect_answer, safe_callback_url, user_agent, AuthForm,
    ClientAddress,
};
use crate::addresses::normalise_email;
use crate::auth::accounts::{verify_password, AccountError};
use crate::auth::rate_limit::{ACCOUNT_LIMIT, ADDRESS_LIMIT};
use crate::auth::session::{create_session, session_set_cookies};
use crate::db::DbError;
use crate::models::now;
use crate::models::users::find_by_email;
use crate::state::AppState;

/// Why a sign-in failed; each is an error code the sign-in page maps to a message.
#[derive(Debug)]
pub(crate) enum SignInFailure {
    UserNotFound,
    UserNotActivated,
    AccountDisabled,
    CredentialsSignin,
    TooManyAttempts,
    /// Something unexpected; the detail is logged.
    Default(String),
}

impl SignInFailure {
    pub fn code(&self) -> &'static str {
        match self {
            SignInFailure::UserNotFound => "UserNotFound",
            SignInFailure::UserNotActivated => "UserNotActivated",
            SignInFailure::AccountDisabled => "AccountDisabled",
            SignInFailure::CredentialsSignin => "CredentialsSignin",
            SignInFailure::TooManyAttempts => "TooManyAttempts",
            SignInFailure::Default(_) => "Default",
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            SignInFailure::TooManyAttempts => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::UNAUTHORIZED,
        }
    }
}

impl From<DbError> for SignInFailure {
    fn from(err: DbError) -> Self {
        SignInFailure::Default(err.to_string())
    }
}

impl From<diesel::result::Error> for SignInFailure {
    fn from(err: diesel::result::Error) -> Self {
        SignInFailure::Default(err.to_string())
    }
}

pub async fn sign_in_with_password(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = AuthForm::parse(&headers, &body);
    let json = form.wants_json();
    if !csrf_verified(&state, &headers, &form) {
        let url = format!("{}/api/auth/signin?csrf=true", state.config.public_url);
        return redirect_answer(json, StatusCode::OK, &url, &[]);
    }
    let callback = safe_callback_url(&state.config, form.get("callbackUrl"));
    let outcome = authorize(
        &state,
        form.get("email").unwrap_or(""),
        form.get("password").unwrap_or(""),
        address.as_deref(),
        user_agent(&headers),
    )
    .await;
    match outcome {
        Ok((token, expires_at)) => {
            let cookies = session_set_cookies(&token, expires_at, is_secure(&state.config));
            redirect_answer(json, StatusCode::OK, &callback, &cookies)
        }
        Err(failure) => {
            if let SignInFailure::Default(detail) = &failure {
                tracing::error!(%detail, "sign-in failed unexpectedly");
            }
            redirect_answer(
                json,
                failure.status(),
                &login_error_url(&state.config, failure.code()),
                &[],
            )
        }
    }
}

/// Reserves an attempt for the account and the client address, then checks the password and
/// the account's state and opens a session. The reservation comes first, under one lock, so
/// parallel guesses cannot all pass the limit: a wrong password keeps its slot (it is the
/// recorded failure); a right one clears the account's failures and gives the address's slot
/// back; a request that never reached a verdict (database down, hashing pool busy) gives
/// both back.
async fn authorize(
    state: &AppState,
    email: &str,
    password: &str,
    address: Option<&str>,
    user_agent: Option<&str>,
) -> Result<(String, NaiveDateTime), SignInFailure> {
    let email = normalise_email(email);
    // A NUL or an over-long address is no account's (and PostgreSQL cannot even compare it);
    // it reads like any wrong address.
    if core_wasm::limits::text_error(&email, core_wasm::limits::MAX_EMAIL_CHARS).is_some() {
        return Err(SignInFailure::CredentialsSignin);
    }
    let limiter = &state.auth.limiter;
    let account_key = format!("account:{email}");
    let address_key = address.map(|a| format!("ip:{a}"));
    let mut keys = vec![(account_key.as_str(), ACCOUNT_LIMIT)];
    if let Some(key) = &address_key {
        keys.push((key.as_str(), ADDRESS_LIMIT));
    }
    if !limiter.try_acquire_all(&keys).await {
        return Err(SignInFailure::TooManyAttempts);
    }
    let outcome = check_credentials(state, &email, password, address, user_agent).await;
    let release_address = async || {
        if let Some(key) = &address_key {
            limiter.release(key).await;
        }
    };
    match &outcome {
        Err(SignInFailure::CredentialsSignin) => {}
        Ok(_)
        | Err(
            SignInFailure::UserNotFound
            | SignInFailure::UserNotActivated
            | SignInFailure::AccountDisabled,
        ) => {
            limiter.clear(&account_key).await;
            release_address().await;
        }
        Err(SignInFailure::TooManyAttempts | SignInFailure::Default(_)) => {
            limiter.release(&account_key).await;
            release_address().await;
        }
    }
    outcome
}

/// The password and the account's state; a session when both are good.
async fn check_credentials(
    state: &AppState,
    email: &str,
    password: &str,
    address: Option<&str>,
    user_agent: Option<&str>,
) -> Result<(String, NaiveDateTime), SignInFailure> {
    // No connection is held while the password waits for its turn in the hashing pool.
    let user = find_by_email(&mut state.db.conn().await?.db(), email).await?;
    // An address with no account, or an account with no password (Microsoft or e-mail link
    // only), gets the same answer after the same work as a wrong password: a verify against
    // a dummy hash. Only a sign-in whose identity is proven (Microsoft) learns UserNotFound.
    let Some((user, hash)) = user.and_then(|u| u.password.clone().map(|hash| (u, hash))) else {
        return match crate::password::verify_dummy(password.to_owned()).await {
            Ok(()) => Err(SignInFailure::CredentialsSignin),
            Err(crate::password::PoolError::Busy) => Err(SignInFailure::TooManyAttempts),
            Err(err) => Err(SignInFailure::Default(err.to_string())),
        };
    };
    // The password is checked first, so only its holder learns the account's state.
    let matches = match verify_password(password.to_owned(), hash).await {
        Ok(matches) => matches,
        Err(AccountError::RateLimited) => return Err(SignInFailure::TooManyAttempts),
        Err(err) => return Err(SignInFailure::Default(err.to_string())),
    };
    if !matches {
        return Err(SignInFailure::CredentialsSignin);
    }
    if !user.activated {
        return Err(SignInFailure::UserNotActivated);
    }
    if user.disabled {
        return Err(SignInFailure::AccountDisabled);
    }
    let mut pooled = state.db.conn().await?;
    Ok(open_session(&mut pooled.db(), &user.id, address, user_agent).await?)
}

/// Creates the session row and records the sign-in as the user's latest activity.
pub(super) async fn open_session(
    conn: &mut crate::db::DbConn<'_>,
    user_id: &str,
    address: Option<&str>,
    user_agent: Option<&str>,
) -> Result<(String, NaiveDateTime), DbError> {
    let opened = create_session(conn, user_id, address, user_agent).await?;
    crate::models::users::touch_last_active(conn, user_id, now()).await?;
    Ok(opened)
}
