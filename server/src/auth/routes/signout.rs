//! `POST /api/auth/signout`: deletes the session row and clears the cookie.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::csrf::csrf_verified;
use super::{is_secure, redirect_answer, safe_callback_url, AuthForm};
use crate::auth::session::{delete_session, hash_token, session_clear_cookies, session_token};
use crate::state::AppState;

pub async fn sign_out(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let form = AuthForm::parse(&headers, &body);
    let json = form.wants_json();
    if !csrf_verified(&state, &headers, &form) {
        let url = format!("{}/api/auth/signout?csrf=true", state.config.public_url);
        return redirect_answer(json, StatusCode::OK, &url, &[]);
    }
    let callback = safe_callback_url(&state.config, form.get("callbackUrl"));
    let Some(token) = session_token(&headers, is_secure(&state.config)) else {
        // No session, but a signed-in hint may have outlived it.
        return redirect_answer(json, StatusCode::OK, &callback, &session_clear_cookies(is_secure(&state.config)));
    };
    let deleted = async {
        let mut pooled = state.db.conn().await?;
        delete_session(&mut pooled.db(), &hash_token(token)).await?;
        Ok::<_, crate::db::DbError>(())
    }
    .await;
    if let Err(err) = deleted {
        return crate::error::AppError::from(err).into_response();
    }
    let mut answer = redirect_answer(
        json,
        StatusCode::OK,
        &callback,
        &session_clear_cookies(is_secure(&state.config)),
    );
    // The browser may keep shared answers (the roster, `rpc::wire`); they go with the session.
    answer
        .headers_mut()
        .insert("clear-site-data", HeaderValue::from_static("\"cache\""));
    answer
}
