//! Server-side sessions: a random token lives in an HttpOnly cookie; the database keeps only
//! its SHA-256, so a leaked database cannot be replayed as cookies. Revoking a session is
//! deleting its row.

use axum::http::{header, HeaderMap};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use sha2::{Digest, Sha256};

use crate::db::schema::{sessions, users};
use crate::db::{Db, DbError};
use crate::models::now;
use crate::models::users::User;
use crate::with_conn;

/// The session cookie's name (Auth.js's own name, so its client code finds nothing odd).
pub const SESSION_COOKIE: &str = "next-auth.session-token";
/// The name used when the public URL is https (browsers then insist on `Secure`).
pub const SECURE_SESSION_COOKIE: &str = "__Secure-next-auth.session-token";

/// The signed-in user behind a request.
#[derive(Debug, Clone)]
pub struct SessionUser {
    pub user: User,
    /// Identifies the session row (to revoke it at sign-out).
    pub token_hash: String,
    pub expires_at: NaiveDateTime,
}

/// The SHA-256 of a session or link token, hex-encoded: what the database stores.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The value of cookie `name` in the request, if any.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// The user whose unexpired session cookie the request carries, disabled or not (the caller
/// decides what a disabled user may do). `None` without a valid session.
pub async fn current_user(db: &Db, headers: &HeaderMap) -> Result<Option<SessionUser>, DbError> {
    let Some(token) = cookie(headers, SESSION_COOKIE).or_else(|| cookie(headers, SECURE_SESSION_COOKIE)) else {
        return Ok(None);
    };
    let token_hash = hash_token(token);
    let at = now();
    let mut pooled = db.conn().await?;
    let found: Option<(User, NaiveDateTime)> = with_conn!(pooled.db(), |c| sessions::table
        .inner_join(users::table)
        .filter(sessions::token_hash.eq(&token_hash))
        .filter(sessions::expires_at.gt(at))
        .select((User::as_select(), sessions::expires_at))
        .first(c)
        .await
        .optional())?;
    Ok(found.map(|(user, expires_at)| SessionUser { user, token_hash, expires_at }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn finds_the_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_static("a=1; next-auth.session-token=abc; b=2"));
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&headers, "missing"), None);
    }

    #[test]
    fn token_hash_is_hex_sha256() {
        assert_eq!(hash_token("abc").len(), 64);
        assert_ne!(hash_token("abc"), hash_token("abd"));
    }
}
