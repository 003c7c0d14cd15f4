//! `GET /api/auth/session` (the current session or `{}`) and `POST /api/auth/session`
//! (`update()`: CSRF-checked, answers the refreshed session). A disabled user's session is
//! deleted here: that answer is the last one, with `disabled: true`, so the app can send the
//! user to `/login?error=AccountDisabled` (spec section 4); the next one is `{}`.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::SecondsFormat;

use super::csrf::csrf_verified;
use super::{is_secure, json_answer, AuthForm};
use crate::auth::session::{
    cookie, current_user, delete_session, extend_session, session_clear_cookies,
    session_set_cookies, session_token, SIGNED_IN_COOKIE,
};
use crate::db::DbError;
use crate::error::AppError;
use crate::models::organisations;
use crate::state::AppState;

pub async fn get_session(State(state): State<AppState>, headers: HeaderMap) -> Response {
    session_answer(&state, &headers, true).await
}

pub async fn update_session(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = AuthForm::parse(&headers, &body);
    if !csrf_verified(&state, &headers, &form) {
        return json_answer(StatusCode::BAD_REQUEST, serde_json::json!({}), &[], false);
    }
    session_answer(&state, &headers, false).await
}

async fn session_answer(state: &AppState, headers: &HeaderMap, no_store: bool) -> Response {
    match build_session(state, headers).await {
        Ok((value, cookies)) => json_answer(StatusCode::OK, value, &cookies, no_store),
        Err(err) => AppError::from(err).into_response(),
    }
}

/// The session JSON and the cookies to set.
async fn build_session(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(serde_json::Value, Vec<String>), DbError> {
    let secure = is_secure(&state.config);
    let empty = serde_json::json!({});
    let Some(session) = current_user(&state.db, headers, secure).await? else {
        // A stale or unknown cookie is cleared so the browser stops sending it, and a
        // signed-in hint left without a session goes with it (the first frame reads it).
        let stale = session_token(headers, secure).is_some()
            || cookie(headers, SIGNED_IN_COOKIE).is_some();
        let cookies = if stale { session_clear_cookies(secure).to_vec() } else { Vec::new() };
        return Ok((empty, cookies));
    };
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let school: Option<(bool, Option<String>)> = match &session.user.school_id {
        Some(school_id) => organisations::session_flags(&mut conn, school_id).await?,
        None => None,
    };
    let (redirect_to_leaders, stripe_product_id) = school.unwrap_or((false, None));
    // The school the session acts in (the shell names it; docs/organisations.md).
    // Its type too: a BUSINESS reads "learners" for "pupils" (docs/organisations.md).
    let (school_name, org_type) = match &session.user.school_id {
        Some(school_id) => organisations::school_name_and_type(&mut conn, school_id)
            .await?
            .map_or((None, None), |(name, org_type)| (Some(name), Some(org_type.as_str()))),
        None => (None, None),
    };
    let mut cookies = Vec::new();
    let expires_at = if session.user.disabled {
        delete_session(&mut conn, &session.token_hash).await?;
        cookies.extend(session_clear_cookies(secure));
        crate::models::now()
    } else {
        match extend_session(&mut conn, &session).await? {
            Some(extended) => {
                if let Some(token) = session_token(headers, secure) {
                    cookies.extend(session_set_cookies(token, extended, secure));
                }
                extended
            }
            None => session.expires_at,
        }
    };
    let user = &session.user;
    // `pro` is the plan the limits use (`crate::plans`), so the app's prompts agree with them.
    let pro = crate::plans::user_plan(&mut conn, &state.config, user).await?
        == core_wasm::plan::Plan::Pro;
    let value = serde_json::json!({
        "user": {
            "id": user.id,
            "forename": user.forename,
            "surname": user.surname,
            "name": format!("{} {}", user.forename, user.surname).trim(),
            "email": user.email,
            "role": user.role.as_str(),
            "disabled": user.disabled,
            "redirectToLeaders": redirect_to_leaders,
            "leader": user.leader,
            "hasCompletedTutorial": user.has_completed_tutorial,
            "stripeProductId": stripe_product_id,
            "pro": pro,
            "schoolId": user.school_id,
            "schoolName": school_name,
            "orgType": org_type,
            "switchedSchool": session.active_school_id.is_some(),
        },
        "expires": expires_at.and_utc().to_rfc3339_opts(SecondsFormat::Millis, true),
        // How often the app refetches the session while a page stays open (0: only on a
        // page change and when the tab comes back): `VOICEMARK_SESSION_POLL_SECONDS`.
        "pollSeconds": state.config.auth.session_poll_seconds,
    });
    Ok((value, cookies))
}
