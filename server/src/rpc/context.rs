//! `Ctx`: what a procedure knows about its call — the app, the request headers and the
//! caller — and the guards every procedure goes through (sign-in, role, school, same origin).

use axum::http::{header, HeaderMap};
use core_wasm::roles::has_role;
use core_wasm::UserRole;

use crate::auth::session::SessionUser;
use crate::db::PooledConn;
use crate::models::users::User;
use crate::rpc::error::{ErrorCode, RpcError, RpcResult};
use crate::state::AppState;

/// One request's context, shared by every call of a batch.
pub struct Ctx {
    pub state: AppState,
    pub headers: HeaderMap,
    caller: Option<SessionUser>,
    client_address: Option<String>,
}

impl Ctx {
    pub fn new(state: AppState, headers: HeaderMap, caller: Option<SessionUser>) -> Ctx {
        Ctx {
            state,
            headers,
            caller,
            client_address: None,
        }
    }

    /// The same context with the client's address (socket peer or trusted
    /// `X-Forwarded-For`), which per-address attempt limits count by.
    pub fn with_client_address(mut self, address: Option<String>) -> Ctx {
        self.client_address = address;
        self
    }

    /// The client's address, when known.
    pub fn client_address(&self) -> Option<&str> {
        self.client_address.as_deref()
    }

    /// The hash of the caller's session token (their session row), when signed in.
    pub fn session_token_hash(&self) -> Option<&str> {
        self.caller.as_ref().map(|s| s.token_hash.as_str())
    }

    /// The caller's own school (`users.school_id`), whichever school the session acts in.
    pub fn home_school_id(&self) -> Option<&str> {
        self.caller
            .as_ref()
            .and_then(|s| s.home_school_id.as_deref())
    }

    /// The signed-in user. A disabled account counts as signed out.
    pub fn require_user(&self) -> RpcResult<&User> {
        match &self.caller {
            None => Err(RpcError::unauthorized()),
            Some(session) if session.user.disabled => {
                Err(RpcError::new(ErrorCode::Unauthorized, "AccountDisabled"))
            }
            Some(session) => Ok(&session.user),
        }
    }

    /// The signed-in user, if their role is one of `allowed` (superadmins always pass).
    pub fn require_role(&self, allowed: &[UserRole]) -> RpcResult<&User> {
        let user = self.require_user()?;
        if has_role(user.role, allowed) {
            Ok(user)
        } else {
            Err(RpcError::bare(ErrorCode::Forbidden))
        }
    }

    /// The caller's school: the only way procedures pick whose data to read or change. For
    /// a MAT user or superadmin it is the school the session switched to, if any
    /// (`auth::session::current_user`). A superadmin who chose none is told how to.
    pub fn school_id(&self) -> RpcResult<&str> {
        let user = self.require_user()?;
        user.school_id
            .as_deref()
            .ok_or_else(|| RpcError::forbidden(no_school_message(user.role)))
    }

    /// A database connection.
    pub async fn conn(&self) -> RpcResult<PooledConn> {
        Ok(self.state.db.conn().await?)
    }
}

/// What a caller without a school is told: a superadmin acts in an organisation chosen in
/// the header's picker (docs/organisations.md), anyone else has no school.
pub fn no_school_message(role: UserRole) -> &'static str {
    if role == UserRole::Superadmin {
        NO_ORGANISATION_CHOSEN
    } else {
        "No school"
    }
}

/// The superadmin's answer before choosing an organisation.
pub const NO_ORGANISATION_CHOSEN: &str =
    "No organisation chosen. Choose one with the Organisation picker in the header.";

/// Refuses a state-changing request another site made the browser send: a `Sec-Fetch-Site`
/// of `cross-site`, or an `Origin` that is neither the public URL's nor the `Host`'s.
pub fn check_same_origin(headers: &HeaderMap, public_url: &str) -> RpcResult<()> {
    let refused = || RpcError::forbidden("Cross-site request refused");
    if headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) == Some("cross-site") {
        return Err(refused());
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin
        .to_str()
        .map_err(|_| refused())?
        .trim_end_matches('/');
    let origin_url = url::Url::parse(origin).map_err(|_| refused())?;
    let own = url::Url::parse(public_url).ok();
    if own
        .as_ref()
        .is_some_and(|own| own.origin() == origin_url.origin())
    {
        return Ok(());
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = origin_url.host_str().map(|h| match origin_url.port() {
        Some(port) => format!("{h}:{port}"),
        None => h.to_owned(),
    });
    match (host, origin_host) {
        (Some(host), Some(origin_host)) if host.eq_ignore_ascii_case(&origin_host) => Ok(()),
        _ => Err(refused()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn same_origin_passes_and_other_sites_do_not() {
        let public = "https://voicemark.example";
        assert!(check_same_origin(&headers(&[]), public).is_ok());
        assert!(
            check_same_origin(&headers(&[("origin", "https://voicemark.example")]), public).is_ok()
        );
        assert!(check_same_origin(
            &headers(&[
                ("origin", "http://127.0.0.1:4000"),
                ("host", "127.0.0.1:4000")
            ]),
            public
        )
        .is_ok());
        assert!(
            check_same_origin(&headers(&[("origin", "https://evil.example")]), public).is_err()
        );
        assert!(check_same_origin(&headers(&[("origin", "null")]), public).is_err());
        assert!(check_same_origin(
            &headers(&[
                ("origin", "https://evil.example"),
                ("host", "voicemark.example.evil")
            ]),
            public
        )
        .is_err());
        assert!(check_same_origin(&headers(&[("sec-fetch-site", "cross-site")]), public).is_err());
        assert!(check_same_origin(&headers(&[("sec-fetch-site", "same-origin")]), public).is_ok());
    }
}
