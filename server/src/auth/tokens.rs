//! Single-use link tokens (password reset, e-mail confirmation, sign-in links) in
//! `verification_tokens`. Only the SHA-256 of a token is stored; using one marks it used
//! in the same statement that checks it, so two clicks cannot both succeed.

use chrono::Duration;
use diesel::result::QueryResult;

use crate::auth::session::hash_token;
use crate::db::DbConn;
use crate::ids::new_token;
use crate::models::now;
use crate::models::sessions::{self, NewVerificationToken};

pub use crate::models::sessions::UsedToken;

/// What a token is for; stored in `purpose`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    ResetPassword,
    SignIn,
    /// An invitation to set a password, which activates the invited account.
    Invite,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "VERIFY_EMAIL",
            Purpose::ResetPassword => "RESET_PASSWORD",
            Purpose::SignIn => "SIGN_IN",
            Purpose::Invite => "INVITE",
        }
    }
}

/// Stores a new token for `identifier` (a normalised e-mail) and returns the raw token,
/// which only the e-mailed link carries.
pub async fn issue(
    conn: &mut DbConn<'_>,
    purpose: Purpose,
    identifier: &str,
    user_id: Option<&str>,
    valid_for: Duration,
) -> QueryResult<String> {
    let token = new_token();
    let at = now();
    let token_hash = hash_token(&token);
    let row = NewVerificationToken {
        token_hash: &token_hash,
        identifier,
        purpose: purpose.as_str(),
        user_id,
        expires_at: at + valid_for,
        created_at: at,
    };
    sessions::insert_token(conn, &row).await?;
    Ok(token)
}

/// Uses `token` if it exists for `purpose`, is unused and unexpired (and, when given,
/// belongs to `identifier`): marks it used and returns it. `None` otherwise.
pub async fn consume(
    conn: &mut DbConn<'_>,
    purpose: Purpose,
    token: &str,
    identifier: Option<&str>,
) -> QueryResult<Option<UsedToken>> {
    let hash = hash_token(token);
    sessions::consume_token(conn, purpose.as_str(), &hash, identifier, now()).await
}

/// Whether `token` is usable for `purpose` (exists, unused, unexpired), without using it.
pub async fn is_usable(conn: &mut DbConn<'_>, purpose: Purpose, token: &str) -> QueryResult<bool> {
    let hash = hash_token(token);
    Ok(
        sessions::find_usable_token(conn, purpose.as_str(), &hash, now())
            .await?
            .is_some(),
    )
}

/// Marks every unused token of `user_id` for `purpose` used (a password reset ends the
/// other reset links).
pub async fn spend_all(conn: &mut DbConn<'_>, purpose: Purpose, user_id: &str) -> QueryResult<()> {
    sessions::spend_user_tokens(conn, purpose.as_str(), user_id, now()).await
}
