//! Auth.js's double-submit CSRF check: the cookie holds `token|sha256_hex(token + secret)`
//! and every POST must send the same `token` in its body as `csrfToken`.

use axum::http::HeaderMap;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::auth::session::cookie;

/// The CSRF cookie over http.
pub const CSRF_COOKIE: &str = "next-auth.csrf-token";
/// The CSRF cookie when the public URL is https.
pub const SECURE_CSRF_COOKIE: &str = "__Host-next-auth.csrf-token";

/// The cookie's name for this deployment.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        SECURE_CSRF_COOKIE
    } else {
        CSRF_COOKIE
    }
}

/// `sha256_hex(token + secret)`.
pub fn token_hash(token: &str, secret: &str) -> String {
    hex::encode(Sha256::digest(format!("{token}{secret}").as_bytes()))
}

/// A fresh token (32 random bytes, hex) and the cookie value that vouches for it.
pub fn new_token(secret: &str) -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let value = format!("{token}|{}", token_hash(&token, secret));
    (token, value)
}

/// The token of the request's CSRF cookie, when its hash checks out.
pub fn verified_cookie_token(headers: &HeaderMap, secret: &str, secure: bool) -> Option<String> {
    let raw = cookie(headers, cookie_name(secure))?;
    let value = raw.replace("%7C", "|").replace("%7c", "|");
    let (token, hash) = value.split_once('|')?;
    (!token.is_empty() && constant_time_eq(&token_hash(token, secret), hash))
        .then(|| token.to_owned())
}

/// Whether a POST passes: a verified cookie whose token equals the body's `csrfToken`.
pub fn is_verified(
    headers: &HeaderMap,
    body_token: Option<&str>,
    secret: &str,
    secure: bool,
) -> bool {
    match (verified_cookie_token(headers, secret, secure), body_token) {
        (Some(expected), Some(given)) => constant_time_eq(&expected, given),
        _ => false,
    }
}

/// The `Set-Cookie` value for a CSRF cookie (a session cookie: no expiry).
pub fn set_cookie(value: &str, secure: bool) -> String {
    let secure_attr = if secure { "; Secure" } else { "" };
    format!(
        "{}={}; Path=/; HttpOnly; SameSite=Lax{secure_attr}",
        cookie_name(secure),
        value.replace('|', "%7C")
    )
}

fn constant_time_eq(a: &str, b: &str) -> bool {
    crate::crypto::constant_time_eq(a.as_bytes(), b.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{header, HeaderValue};

    #[test]
    fn matches_the_captured_auth_js_pair() {
        // nextauth.md: sha256("c6cf…2e46" + "test-secret-123") = "5e9a…2ac7".
        let hash = token_hash(
            "c6cf19fa01d7f85b636f64ce242d942223eac96e00f957d1845364032f122e46",
            "test-secret-123",
        );
        assert!(hash.starts_with("5e9a") && hash.ends_with("2ac7"), "{hash}");
    }

    #[test]
    fn verifies_cookie_and_body_together() {
        let (token, value) = new_token("s");
        let mut headers = HeaderMap::new();
        let cookie = set_cookie(&value, false);
        let pair = cookie.split(';').next().expect("pair");
        headers.insert(header::COOKIE, HeaderValue::from_str(pair).expect("header"));
        assert!(is_verified(&headers, Some(&token), "s", false));
        assert!(!is_verified(&headers, Some("other"), "s", false));
        assert!(!is_verified(&headers, None, "s", false));
        assert!(!is_verified(
            &headers,
            Some(&token),
            "another secret",
            false
        ));
    }
}
