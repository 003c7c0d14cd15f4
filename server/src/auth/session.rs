//! Server-side sessions: a random token lives in an HttpOnly cookie; the database keeps only
//! its SHA-256, so a leaked database cannot be replayed as cookies. Revoking a session is
//! deleting its row.

use axum::http::{header, HeaderMap};
use chrono::NaiveDateTime;
use diesel::result::QueryResult;
use sha2::{Digest, Sha256};

use crate::db::{Db, DbConn, DbError};
use crate::models::now;
use crate::models::sessions::{self, NewSession};
use crate::models::users::User;

use super::session_cache;

pub use crate::models::sessions::{delete_session, delete_user_sessions};

/// The session cookie's name (Auth.js's own name, so its client code finds nothing odd).
pub const SESSION_COOKIE: &str = "next-auth.session-token";
/// The name used when the public URL is https (browsers then insist on `Secure`).
pub const SECURE_SESSION_COOKIE: &str = "__Secure-next-auth.session-token";

/// How long a session lasts without use: 30 days (Auth.js's `maxAge`).
pub const SESSION_MAX_AGE: chrono::Duration = chrono::Duration::days(30);
/// A session's expiry moves forward at most this often (Auth.js's `updateAge`).
pub const SESSION_UPDATE_AGE: chrono::Duration = chrono::Duration::hours(24);

/// The session cookie's name for this deployment (`secure`: the public URL is https).
pub fn session_cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    }
}

/// The raw session token the request carries, if any, read ONLY from this deployment's
/// cookie name (`secure`: the public URL is https). Under https a plain
/// `next-auth.session-token` is ignored: any page on a sibling http origin, or a network
/// attacker injecting into a plain-http response, can set that name, while browsers accept
/// a `__Secure-` cookie only from a secure origin with `Secure` set.
pub fn session_token(headers: &HeaderMap, secure: bool) -> Option<&str> {
    cookie(headers, session_cookie_name(secure))
}

/// Opens a session for `user_id`: stores the token's hash and returns the raw token (for the
/// cookie) and its expiry.
pub async fn create_session(
    conn: &mut DbConn<'_>,
    user_id: &str,
    ip_address: Option<&str>,
    user_agent: Option<&str>,
) -> QueryResult<(String, NaiveDateTime)> {
    let token = crate::ids::new_token();
    let at = now();
    let expires_at = at + SESSION_MAX_AGE;
    let user_agent = user_agent.map(|ua| ua.chars().take(500).collect::<String>());
    let token_hash = hash_token(&token);
    let session = NewSession {
        token_hash: &token_hash,
        user_id,
        created_at: at,
        expires_at,
        last_seen_at: at,
        ip_address,
        user_agent: user_agent.as_deref(),
    };
    sessions::insert_session(conn, &session).await?;
    Ok((token, expires_at))
}

/// Pushes a session's expiry to 30 days from now when it was last pushed more than a day
/// ago; returns the new expiry when it moved (the cookie must then be re-set).
pub async fn extend_session(
    conn: &mut DbConn<'_>,
    session: &SessionUser,
) -> QueryResult<Option<NaiveDateTime>> {
    let at = now();
    if session.expires_at - at > SESSION_MAX_AGE - SESSION_UPDATE_AGE {
        return Ok(None);
    }
    let expires_at = at + SESSION_MAX_AGE;
    sessions::set_session_expiry(conn, &session.token_hash, expires_at, at).await?;
    Ok(Some(expires_at))
}

/// Beside the session cookie, a cookie scripts may read that says only that this browser
/// holds a session (no secret: the token stays `HttpOnly`). The first frame
/// (`app/src/lib/first-frame.ts`, docs/performance.md) reads it to draw a signed-in page's
/// heading before the app has loaded, and the sign-in page's when it is absent.
pub const SIGNED_IN_COOKIE: &str = "voicemark-signed-in";

/// The `Set-Cookie` values that store a session token until `expires_at`: the session
/// cookie, then the signed-in hint with the same lifetime.
pub fn session_set_cookies(token: &str, expires_at: NaiveDateTime, secure: bool) -> [String; 2] {
    let expires = expires_at.and_utc().format("%a, %d %b %Y %H:%M:%S GMT");
    let secure_attr = if secure { "; Secure" } else { "" };
    [
        format!(
            "{}={token}; Path=/; Expires={expires}; HttpOnly; SameSite=Lax{secure_attr}",
            session_cookie_name(secure)
        ),
        format!("{SIGNED_IN_COOKIE}=1; Path=/; Expires={expires}; SameSite=Lax{secure_attr}"),
    ]
}

/// The `Set-Cookie` values that remove the session cookie and the signed-in hint.
pub fn session_clear_cookies(secure: bool) -> [String; 2] {
    let secure_attr = if secure { "; Secure" } else { "" };
    [
        format!(
            "{}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax{secure_attr}",
            session_cookie_name(secure)
        ),
        format!("{SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax{secure_attr}"),
    ]
}

/// The signed-in user behind a request. `user.school_id` is the school the session acts
/// in: the active school the session chose when the user may act there
/// (`organisations::may_act_in`), otherwise the user's own school.
#[derive(Debug, Clone)]
pub struct SessionUser {
    pub user: User,
    /// The user's own school (`users.school_id`), whatever the session acts in.
    pub home_school_id: Option<String>,
    /// The school the session switched to, when it is in force (differs from the home).
    pub active_school_id: Option<String>,
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
/// decides what a disabled user may do). `None` without a valid session. Found sessions are
/// kept for a few seconds in the process (`session_cache`: at once in this process after a
/// change, within its `TTL` in another).
/// `secure`: the public URL is https (see [`session_token`] for the cookie name read).
pub async fn current_user(
    db: &Db,
    headers: &HeaderMap,
    secure: bool,
) -> Result<Option<SessionUser>, DbError> {
    let Some(token) = session_token(headers, secure) else {
        return Ok(None);
    };
    let token_hash = hash_token(token);
    let at = now();
    if let Some(cached) = session_cache::get(&token_hash, at) {
        return Ok(Some(cached));
    }
    let generation = session_cache::generation();
    let mut pooled = db.conn().await?;
    let mut conn = pooled.db();
    let Some((mut user, expires_at, chosen)) =
        sessions::find_session_user(&mut conn, &token_hash, at).await?
    else {
        return Ok(None);
    };
    let home_school_id = user.school_id.clone();
    let mut active_school_id = None;
    if let Some(target) = chosen.filter(|t| Some(t) != home_school_id.as_ref()) {
        let allowed = crate::models::organisations::may_act_in(
            &mut conn,
            &user.id,
            user.role,
            home_school_id.as_deref(),
            &target,
        )
        .await?;
        if allowed {
            user.school_id = Some(target.clone());
            active_school_id = Some(target);
        }
    }
    let session = SessionUser {
        user,
        home_school_id,
        active_school_id,
        token_hash,
        expires_at,
    };
    session_cache::put(&session, generation);
    Ok(Some(session))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn finds_the_cookie_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; next-auth.session-token=abc; b=2"),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&headers, "missing"), None);
    }

    #[test]
    fn only_the_deployments_cookie_name_is_read() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static(
                "next-auth.session-token=plain; __Secure-next-auth.session-token=secure",
            ),
        );
        assert_eq!(session_token(&headers, true), Some("secure"));
        assert_eq!(session_token(&headers, false), Some("plain"));
        let mut plain_only = HeaderMap::new();
        plain_only.insert(
            header::COOKIE,
            HeaderValue::from_static("next-auth.session-token=plain"),
        );
        assert_eq!(session_token(&plain_only, true), None);
    }

    #[test]
    fn cookies_are_secure_under_https() {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 12, 21)
            .and_then(|d| d.and_hms_opt(22, 24, 52))
            .expect("date");
        assert_eq!(
            session_set_cookies("t", at, false),
            [
                "next-auth.session-token=t; Path=/; Expires=Mon, 21 Dec 2026 22:24:52 GMT; HttpOnly; SameSite=Lax",
                "voicemark-signed-in=1; Path=/; Expires=Mon, 21 Dec 2026 22:24:52 GMT; SameSite=Lax",
            ]
        );
        let secure = session_set_cookies("t", at, true);
        assert!(
            secure[0].starts_with("__Secure-next-auth.session-token=t;")
                && secure.iter().all(|c| c.ends_with("; Secure"))
        );
        assert_eq!(
            session_clear_cookies(true),
            [
                "__Secure-next-auth.session-token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
                "voicemark-signed-in=; Max-Age=0; Path=/; SameSite=Lax; Secure",
            ]
        );
    }

    #[test]
    fn token_hash_is_hex_sha256() {
        assert_eq!(hash_token("abc").len(), 64);
        assert_ne!(hash_token("abc"), hash_token("abd"));
    }
}
