//! The session cache (`auth::session_cache`, docs/security.md): a session looked up once is
//! answered from memory for a few seconds, yet every change this process makes to a user or
//! a session takes effect at the very next request: a role change, a password change (the
//! other sessions end), disabling, signing out.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use core_wasm::UserRole;
use serde_json::{json, Value};

use crate::dual_test;
use crate::sending::make_teacher;
use crate::support::{leader_in, make_school, session_cookie, TestApp, TestResponse};

async fn query(app: &TestApp, path: &str, cookie: &str) -> TestResponse {
    let request = Request::get(format!("/api/trpc/{path}")).header(header::COOKIE, cookie);
    app.request(request.body(Body::empty()).expect("request")).await
}

async fn mutate(app: &TestApp, path: &str, input: Value, cookie: &str) -> TestResponse {
    let request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::COOKIE, cookie);
    let body = json!({"0": {"json": input}}).to_string();
    app.request(request.body(Body::from(body)).expect("request")).await
}

/// The error code of a single (unbatched) call, or "OK".
fn code(response: &TestResponse) -> String {
    let json = response.json();
    let error = if json.is_array() { &json[0]["error"] } else { &json["error"] };
    error["json"]["data"]["code"].as_str().unwrap_or("OK").to_owned()
}

/// Signs out the session of `cookie` the way the browser does (CSRF token and cookie).
async fn sign_out(app: &TestApp, cookie: &str) {
    let csrf = app
        .request(
        Request::get("/api/auth/csrf").header(header::COOKIE, cookie).body(Body::empty()).expect("request"),
    )
    .await;
    let token = csrf.json()["csrfToken"].as_str().expect("token").to_owned();
    let csrf_cookie = csrf.header("set-cookie").expect("csrf cookie").split(';').next().expect("pair").to_owned();
    let form = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([("csrfToken", token.as_str()), ("callbackUrl", "/login"), ("json", "true")])
        .finish();
    let response = app
        .request(
        Request::post("/api/auth/signout")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::COOKIE, format!("{cookie}; {csrf_cookie}"))
            .body(Body::from(form))
            .expect("request"),
    )
    .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
}

dual_test! {
    async fn changes_to_a_user_take_effect_at_once_despite_the_session_cache(app: TestApp) {
        let school = make_school(&app, "Cache School").await;
        let (_, admin) = leader_in(&app, &school, UserRole::Admin).await;
        let teacher = {
            let mut pooled = app.db.conn().await.expect("connection");
            let id = make_teacher(&mut pooled.db(), &school).await;
            let hash = voicemark::password::hash_password("Voicemark1").expect("hash");
            voicemark::models::users::set_password(&mut pooled.db(), &id, &hash, voicemark::models::now())
                .await
                .expect("password");
            id
        };
        let first = session_cookie(&app, &teacher).await;
        let second = session_cookie(&app, &teacher).await;
        // Past the settling second after the set-up's writes, the lookups are kept.
        tokio::time::sleep(voicemark::auth::session_cache::SETTLE).await;
        for cookie in [&first, &second, &first, &second] {
            assert_eq!(code(&query(&app, "user.settings", cookie).await), "OK");
        }
        assert_eq!(code(&query(&app, "admin.schoolSettings", &first).await), "FORBIDDEN");

        // A role change: the teacher's very next call is an admin's.
        let changed = mutate(&app, "user.setRole", json!({"id": teacher, "role": "ADMIN"}), &admin).await;
        assert_eq!(code(&changed), "OK", "{}", changed.text());
        assert_eq!(code(&query(&app, "admin.schoolSettings", &first).await), "OK");

        // A password change in one session ends the other at once.
        tokio::time::sleep(voicemark::auth::session_cache::SETTLE).await;
        assert_eq!(code(&query(&app, "user.settings", &second).await), "OK");
        let changed = mutate(
            &app,
            "user.changePassword",
            json!({"currentPassword": "Voicemark1", "newPassword": "Voicemark2!"}),
            &first,
        )
        .await;
        assert_eq!(code(&changed), "OK", "{}", changed.text());
        assert_eq!(code(&query(&app, "user.settings", &second).await), "UNAUTHORIZED");
        assert_eq!(code(&query(&app, "user.settings", &first).await), "OK");

        // Disabled by an admin: refused at the next request.
        tokio::time::sleep(voicemark::auth::session_cache::SETTLE).await;
        assert_eq!(code(&query(&app, "user.settings", &first).await), "OK");
        let disabled = mutate(&app, "user.setDisabled", json!({"id": teacher, "disabled": true}), &admin).await;
        assert_eq!(code(&disabled), "OK", "{}", disabled.text());
        // (Disabling ends the user's sessions; `auth.rs` covers the AccountDisabled answer.)
        assert_eq!(code(&query(&app, "user.settings", &first).await), "UNAUTHORIZED");

        // Signing out: the admin's own session, warm in the cache, ends at once.
        tokio::time::sleep(voicemark::auth::session_cache::SETTLE).await;
        assert_eq!(code(&query(&app, "user.settings", &admin).await), "OK");
        sign_out(&app, &admin).await;
        assert_eq!(code(&query(&app, "user.settings", &admin).await), "UNAUTHORIZED");
    }
}
