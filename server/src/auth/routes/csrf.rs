//! `GET /api/auth/csrf`: the CSRF token, with the cookie that vouches for it when the
//! request has no valid one yet.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::{is_secure, json_answer, AuthForm};
use crate::auth::csrf as double_submit;
use crate::state::AppState;

pub async fn get_csrf(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let secure = is_secure(&state.config);
    let secret = state.auth.secret();
    if let Some(token) = double_submit::verified_cookie_token(&headers, secret, secure) {
        return json_answer(
            StatusCode::OK,
            serde_json::json!({ "csrfToken": token }),
            &[],
            true,
        );
    }
    let (token, value) = double_submit::new_token(secret);
    let cookie = double_submit::set_cookie(&value, secure);
    json_answer(
        StatusCode::OK,
        serde_json::json!({ "csrfToken": token }),
        &[cookie],
        true,
    )
}

/// Whether a POST's body token matches its verified CSRF cookie.
pub(super) fn csrf_verified(state: &AppState, headers: &HeaderMap, form: &AuthForm) -> bool {
    double_submit::is_verified(
        headers,
        form.get("csrfToken"),
        state.auth.secret(),
        is_secure(&state.config),
    )
}
