//! Single-use link tokens (password reset, e-mail confirmation, sign-in links) in
//! `verification_tokens`. Only the SHA-256 of a token is stored; using one marks it used
//! in the same statement that checks it, so two clicks cannot both succeed.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::auth::session::hash_token;
use crate::db::schema::verification_tokens;
use crate::db::DbConn;
use crate::ids::new_token;
use crate::models::now;
use crate::with_conn;

/// What a token is for; stored in `purpose`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    ResetPassword,
    SignIn,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "VERIFY_EMAIL",
            Purpose::ResetPassword => "RESET_PASSWORD",
            Purpose::SignIn => "SIGN_IN",
        }
    }
}

/// A token that was valid and is now used.
#[derive(Debug, Clone, Queryable)]
pub struct UsedToken {
    pub identifier: String,
    pub user_id: Option<String>,
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
    let row = (
        verification_tokens::token_hash.eq(hash_token(&token)),
        verification_tokens::identifier.eq(identifier),
        verification_tokens::purpose.eq(purpose.as_str()),
        verification_tokens::user_id.eq(user_id),
        verification_tokens::expires_at.eq(at + valid_for),
        verification_tokens::created_at.eq(at),
    );
    with_conn!(conn, |c| diesel::insert_into(verification_tokens::table)
        .values(row.clone())
        .execute(c)
        .await)?;
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
    let at: NaiveDateTime = now();
    let hash = hash_token(token);
    let found: Option<UsedToken> = with_conn!(conn, |c| {
        let mut query = diesel::update(verification_tokens::table)
            .filter(verification_tokens::token_hash.eq(&hash))
            .filter(verification_tokens::purpose.eq(purpose.as_str()))
            .filter(verification_tokens::used_at.is_null())
            .filter(verification_tokens::expires_at.gt(at))
            .into_boxed();
        if let Some(identifier) = identifier {
            query = query.filter(verification_tokens::identifier.eq(identifier.to_owned()));
        }
        query
            .set(verification_tokens::used_at.eq(at))
            .returning((
                verification_tokens::identifier,
                verification_tokens::user_id,
            ))
            .get_result(c)
            .await
            .optional()
    })?;
    Ok(found)
}

/// Marks every unused token of `user_id` for `purpose` used (a password reset ends the
/// other reset links).
pub async fn spend_all(conn: &mut DbConn<'_>, purpose: Purpose, user_id: &str) -> QueryResult<()> {
    let at = now();
    with_conn!(conn, |c| diesel::update(verification_tokens::table)
        .filter(verification_tokens::user_id.eq(user_id))
        .filter(verification_tokens::purpose.eq(purpose.as_str()))
        .filter(verification_tokens::used_at.is_null())
        .set(verification_tokens::used_at.eq(at))
        .execute(c)
        .await)?;
    Ok(())
}
