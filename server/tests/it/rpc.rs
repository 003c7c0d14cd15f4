//! `/api/trpc`: the tRPC wire format (batches, superjson, errors, statuses), the guards
//! (sign-in, roles, school scoping, same origin) and each procedure.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::auth::session::SessionUser;
use voicemark::db::schema::users;
use voicemark::ids::new_id;
use voicemark::models::{now, students};
use voicemark::rpc::{Ctx, ErrorCode};
use voicemark::with_conn;

use crate::dual_test;
use crate::support::{make_school, TestApp, TestResponse};

/// superjson's `undefined`, as the client sends it for a call without input.
const UNDEFINED: &str = r#"{"json":null,"meta":{"values":["undefined"],"v":1}}"#;

async fn make_pupil(app: &TestApp, school_id: &str, forename: &str) {
    let at = now();
    let pupil = students::NewStudent {
        id: new_id(),
        created_at: at,
        updated_at: at,
        forename: forename.into(),
        surname: "Pupil".into(),
        email: None,
        parent_email: None,
        upn: None,
        school_id: school_id.into(),
        year_group_id: None,
        form_group_id: None,
    };
    let mut pooled = app.db.conn().await.expect("connection");
    students::insert(&mut pooled.db(), &pupil)
        .await
        .expect("pupil");
}

/// A user of `school_id` with `role`; returns the user's id.
async fn make_user(
    app: &TestApp,
    school_id: Option<&str>,
    role: UserRole,
    disabled: bool,
) -> String {
    let id = crate::support::make_user(app, school_id, role, "Tess", "Teacher").await;
    crate::support::set_flags(app, &id, false, disabled).await;
    id
}

/// Signs `user_id` in by writing a session row; returns the cookie header's value.
async fn sign_in(app: &TestApp, user_id: &str) -> String {
    let cookie = crate::support::session_cookie(app, user_id).await;
    cookie
}

/// A teacher of a new school, signed in: (school id, user id, cookie).
async fn signed_in_teacher(app: &TestApp) -> (String, String, String) {
    let school = make_school(app, "Signed In School").await;
    let user = make_user(app, Some(&school), UserRole::Teacher, false).await;
    let cookie = sign_in(app, &user).await;
    (school, user, cookie)
}

fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// `GET /api/trpc/{paths}?batch=1&input=...` as httpBatchLink sends it.
async fn query_batch(
    app: &TestApp,
    paths: &[&str],
    inputs: &[&str],
    cookie: Option<&str>,
) -> TestResponse {
    let by_index: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| format!("\"{i}\":{input}"))
        .collect();
    let uri = format!(
        "/api/trpc/{}?batch=1&input={}",
        paths.join(","),
        encode(&format!("{{{}}}", by_index.join(",")))
    );
    let mut request = Request::get(uri);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    app.request(request.body(Body::empty()).expect("request"))
        .await
}

/// `POST /api/trpc/{path}?batch=1` with one superjson input, plus `headers`.
async fn mutate(
    app: &TestApp,
    path: &str,
    input: &str,
    cookie: Option<&str>,
    headers: &[(&str, &str)],
) -> TestResponse {
    let mut request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json");
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    app.request(
        request
            .body(Body::from(format!("{{\"0\":{input}}}")))
            .expect("request"),
    )
    .await
}

fn error_of(element: &Value) -> &Value {
    &element["error"]["json"]
}

dual_test!(
    async fn a_batch_of_three_queries_is_answered_in_order(app: TestApp) {
        let (school, _, cookie) = signed_in_teacher(&app).await;
        make_pupil(&app, &school, "Ada").await;
        let response = query_batch(
        &app,
        &["system.time", "user.feedbackHubCount", "school.listStudents"],
        &[r#"{"json":{"clientTime":"2024-09-01T08:30:00.000Z"},"meta":{"values":{"clientTime":["Date"]},"v":1}}"#, UNDEFINED, UNDEFINED],
        Some(&cookie),
    )
    .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert_eq!(response.header("content-type"), Some("application/json"));
        // The roster is a shared answer, sent gzip-compressed to clients that accept it.
        assert_eq!(response.header("vary"), Some("trpc-accept, accept-encoding"));
        let body = response.json();
        let time = &body[0]["result"]["data"];
        assert_eq!(time["json"]["clientTime"], "2024-09-01T08:30:00.000Z");
        assert_eq!(
            time["meta"],
            json!({"values": {"clientTime": ["Date"], "serverTime": ["Date"]}, "v": 1})
        );
        assert_eq!(body[1], json!({"result": {"data": {"json": 0}}}));
        assert_eq!(
            body[2],
            json!({"result": {"data": {"json": [{"id": body[2]["result"]["data"]["json"][0]["id"], "forename": "Ada", "surname": "Pupil", "yearGroup": null, "formGroup": null}]}}})
        );
    }
);

dual_test!(
    async fn dates_round_trip_on_a_plain_http_link_call(app: TestApp) {
        let input = r#"{"json":{"clientTime":"1970-01-01T00:00:01.234Z"},"meta":{"values":{"clientTime":["Date"]},"v":1}}"#;
        let response = app
            .get(&format!("/api/trpc/system.time?input={}", encode(input)))
            .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        let text = response.text();
        assert!(text.starts_with(r#"{"result":{"data":{"json":{"clientTime":"1970-01-01T00:00:01.234Z","serverTime":""#), "{text}");
        assert!(
            text.ends_with(
                r#""},"meta":{"values":{"clientTime":["Date"],"serverTime":["Date"]},"v":1}}}}"#
            ),
            "{text}"
        );
        let server_time = response.json()["result"]["data"]["json"]["serverTime"]
            .as_str()
            .expect("a string")
            .to_owned();
        let parsed = chrono::DateTime::parse_from_rfc3339(&server_time).expect("ISO time");
        assert!(
            (chrono::Utc::now() - parsed.with_timezone(&chrono::Utc))
                .num_seconds()
                .abs()
                < 60
        );
        assert_eq!(
            server_time.len(),
            "1970-01-01T00:00:01.234Z".len(),
            "milliseconds and Z, as toISOString"
        );
    }
);

dual_test!(
    async fn a_mutation_is_a_post_with_a_json_body(app: TestApp) {
        let (_, user, cookie) = signed_in_teacher(&app).await;
        let response = mutate(
            &app,
            "user.updateProfile",
            r#"{"json":{"forename":"  Grace ","surname":"Hopper"}}"#,
            Some(&cookie),
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert_eq!(
            response.text(),
            r#"[{"result":{"data":{"json":{"forename":"Grace","surname":"Hopper"}}}}]"#
        );
        let mut pooled = app.db.conn().await.expect("connection");
        let stored: (String, String) = with_conn!(pooled.db(), |c| users::table
            .find(&user)
            .select((users::forename, users::surname))
            .first(c)
            .await)
        .expect("user");
        assert_eq!(stored, ("Grace".to_owned(), "Hopper".to_owned()));

        // httpLink: no batch, the input itself as the body.
        let request = Request::post("/api/trpc/user.markTutorialComplete")
            .header("content-type", "application/json")
            .header("cookie", &cookie)
            .body(Body::from(r#"{"json":{"complete":true}}"#))
            .expect("request");
        let response = app.request(request).await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert_eq!(
            response.text(),
            r#"{"result":{"data":{"json":{"ok":true}}}}"#
        );
        let done: bool = with_conn!(pooled.db(), |c| users::table
            .find(&user)
            .select(users::has_completed_tutorial)
            .first(c)
            .await)
        .expect("user");
        assert!(done);
    }
);

dual_test!(
    async fn signed_out_callers_are_unauthorized(app: TestApp) {
        let response = app
            .get(&format!(
                "/api/trpc/user.feedbackHubCount?input={}",
                encode(UNDEFINED)
            ))
            .await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            response.text(),
            r#"{"error":{"json":{"message":"UNAUTHORIZED","code":-32001,"data":{"code":"UNAUTHORIZED","httpStatus":401,"path":"user.feedbackHubCount","zodError":null}}}}"#
        );
        let batched = query_batch(
            &app,
            &["user.feedbackHubCount"],
            &[UNDEFINED],
            Some("next-auth.session-token=forged"),
        )
        .await;
        assert_eq!(batched.status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_of(&batched.json()[0])["data"]["code"], "UNAUTHORIZED");
    }
);

dual_test!(
    async fn a_disabled_account_counts_as_signed_out(app: TestApp) {
        let school = make_school(&app, "Disabled School").await;
        let user = make_user(&app, Some(&school), UserRole::Teacher, true).await;
        let cookie = sign_in(&app, &user).await;
        let response = query_batch(&app, &["user.settings"], &[UNDEFINED], Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_of(&response.json()[0])["message"], "AccountDisabled");
    }
);

dual_test!(
    async fn role_checks_refuse_other_roles_and_pass_superadmins(app: TestApp) {
        let school = make_school(&app, "Roles School").await;
        let mut callers = Vec::new();
        for role in [UserRole::Teacher, UserRole::Admin, UserRole::Superadmin] {
            let id = make_user(&app, Some(&school), role, false).await;
            let cookie = sign_in(&app, &id).await;
            let mut headers = axum::http::HeaderMap::new();
            headers.insert("cookie", cookie.parse().expect("header"));
            let caller = voicemark::auth::session::current_user(&app.db, &headers, false)
                .await
                .expect("lookup");
            callers.push((role, caller));
        }
        let outcome = |caller: &Option<SessionUser>| {
            let ctx = Ctx::new(app.state.clone(), Default::default(), caller.clone());
            ctx.require_role(&[UserRole::Admin, UserRole::OrgAdmin])
                .map(|u| u.role)
                .map_err(|e| (e.code, e.message))
        };
        assert_eq!(
            outcome(&callers[0].1),
            Err((ErrorCode::Forbidden, "FORBIDDEN".to_owned()))
        );
        assert_eq!(outcome(&callers[1].1), Ok(UserRole::Admin));
        assert_eq!(outcome(&callers[2].1), Ok(UserRole::Superadmin));
        assert_eq!(
            outcome(&None),
            Err((ErrorCode::Unauthorized, "UNAUTHORIZED".to_owned()))
        );
    }
);

dual_test!(
    async fn school_data_is_scoped_to_the_callers_school(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        make_pupil(&app, &north, "Nia").await;
        make_pupil(&app, &south, "Sam").await;
        make_pupil(&app, &south, "Sol").await;
        let north_teacher = make_user(&app, Some(&north), UserRole::Admin, false).await;
        let cookie = sign_in(&app, &north_teacher).await;
        let response =
            query_batch(&app, &["school.listStudents"], &[UNDEFINED], Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::OK);
        let names: Vec<Value> = response.json()[0]["result"]["data"]["json"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|s| s["forename"].clone())
            .collect();
        assert_eq!(names, [json!("Nia")]);

        // Someone without a school sees nobody's pupils.
        let nowhere = make_user(&app, None, UserRole::Superadmin, false).await;
        let cookie = sign_in(&app, &nowhere).await;
        let response =
            query_batch(&app, &["school.listStudents"], &[UNDEFINED], Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        assert_eq!(
            error_of(&response.json()[0])["message"],
            "No organisation chosen. Choose one with the Organisation picker in the header."
        );
    }
);

dual_test!(
    async fn cross_site_mutations_are_refused(app: TestApp) {
        let (_, _, cookie) = signed_in_teacher(&app).await;
        let input = r#"{"json":{"forename":"Eve","surname":"Il"}}"#;
        let response = mutate(
            &app,
            "user.updateProfile",
            input,
            Some(&cookie),
            &[("origin", "https://evil.example")],
        )
        .await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        assert_eq!(
            response.text(),
            r#"[{"error":{"json":{"message":"Cross-site request refused","code":-32003,"data":{"code":"FORBIDDEN","httpStatus":403,"path":"user.updateProfile","zodError":null}}}}]"#
        );
        let response = mutate(
            &app,
            "user.updateProfile",
            input,
            Some(&cookie),
            &[("sec-fetch-site", "cross-site")],
        )
        .await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        // The app's own origin (the configured public URL) and a matching Host pass.
        let response = mutate(
            &app,
            "user.updateProfile",
            input,
            Some(&cookie),
            &[("origin", "http://127.0.0.1:3000")],
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        let response = mutate(
            &app,
            "user.updateProfile",
            input,
            Some(&cookie),
            &[
                ("origin", "http://localhost:5173"),
                ("host", "localhost:5173"),
                ("sec-fetch-site", "same-origin"),
            ],
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    }
);

dual_test!(
    async fn unknown_procedures_are_not_found(app: TestApp) {
        let response = query_batch(&app, &["nope.x"], &[UNDEFINED], None).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
        assert_eq!(
            response.text(),
            r#"[{"error":{"json":{"message":"No procedure found on path \"nope.x\"","code":-32004,"data":{"code":"NOT_FOUND","httpStatus":404,"path":"nope.x","zodError":null}}}}]"#
        );
    }
);

dual_test!(
    async fn invalid_fields_are_a_bad_request_with_field_errors(app: TestApp) {
        let (_, _, cookie) = signed_in_teacher(&app).await;
        let response = mutate(
            &app,
            "user.updateProfile",
            r#"{"json":{"forename":"  ","surname":""}}"#,
            Some(&cookie),
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            response.text(),
            r#"[{"error":{"json":{"message":"Enter your forename.","code":-32600,"data":{"code":"BAD_REQUEST","httpStatus":400,"path":"user.updateProfile","zodError":{"formErrors":[],"fieldErrors":{"forename":["Enter your forename."],"surname":["Enter your surname."]}}}}}}]"#
        );
        // A field of the wrong type names the field too.
        let response = mutate(
            &app,
            "user.updateProfile",
            r#"{"json":{"forename":"A","surname":7}}"#,
            Some(&cookie),
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        let body = response.json();
        let zod = &error_of(&body[0])["data"]["zodError"];
        assert!(
            zod["fieldErrors"]["surname"][0]
                .as_str()
                .expect("a message")
                .contains("invalid type"),
            "{zod}"
        );
        // A missing input is no input at all.
        let response = mutate(&app, "user.updateProfile", UNDEFINED, Some(&cookie), &[]).await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
    }
);

dual_test!(
    async fn the_wrong_method_is_method_not_supported(app: TestApp) {
        let response = query_batch(&app, &["user.updateProfile"], &[UNDEFINED], None).await;
        assert_eq!(response.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.header("allow"), Some("POST"));
        assert_eq!(
            response.text(),
            r#"[{"error":{"json":{"message":"Unsupported GET-request to mutation procedure at path \"user.updateProfile\"","code":-32005,"data":{"code":"METHOD_NOT_SUPPORTED","httpStatus":405,"path":"user.updateProfile","zodError":null}}}}]"#
        );
        let response = mutate(&app, "user.settings", UNDEFINED, None, &[]).await;
        assert_eq!(response.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(response.header("allow"), Some("GET"));
        assert_eq!(
            error_of(&response.json()[0])["message"],
            "Unsupported POST-request to query procedure at path \"user.settings\""
        );
    }
);

dual_test!(
    async fn garbage_input_is_a_parse_error(app: TestApp) {
        let response = app
            .get("/api/trpc/system.time,system.time?batch=1&input=%7Bnot%20json")
            .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        let body = response.json();
        for element in body.as_array().expect("an array") {
            assert_eq!(error_of(element)["code"], -32700);
            assert_eq!(error_of(element)["data"]["code"], "PARSE_ERROR");
            assert_eq!(error_of(element)["data"]["httpStatus"], 400);
        }
        let response = app.get("/api/trpc/system.time?batch=1&input=%5B1%5D").await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_of(&response.json()[0])["message"],
            "\"input\" needs to be an object when doing a batch call"
        );
        let bad_date = r#"{"json":{"clientTime":"yesterday"},"meta":{"values":{"clientTime":["Date"]},"v":1}}"#;
        let response = app
            .get(&format!("/api/trpc/system.time?input={}", encode(bad_date)))
            .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_of(&response.json())["message"],
            "Invalid Date at \"clientTime\""
        );
    }
);

dual_test!(
    async fn a_batch_with_different_statuses_is_207(app: TestApp) {
        let time = r#"{"json":{"clientTime":"1970-01-01T00:00:00.000Z"},"meta":{"values":{"clientTime":["Date"]},"v":1}}"#;
        let response = query_batch(
            &app,
            &["system.time", "user.feedbackHubCount"],
            &[time, UNDEFINED],
            None,
        )
        .await;
        assert_eq!(response.status.as_u16(), 207);
        let body = response.json();
        assert!(body[0]["result"]["data"]["json"]["serverTime"].is_string());
        assert_eq!(error_of(&body[1])["data"]["httpStatus"], 401);
        // Two errors of different statuses are 207 too; two of the same are that status.
        let response = query_batch(
            &app,
            &["nope.a", "user.settings"],
            &[UNDEFINED, UNDEFINED],
            None,
        )
        .await;
        assert_eq!(response.status.as_u16(), 207);
        let response =
            query_batch(&app, &["nope.a", "nope.b"], &[UNDEFINED, UNDEFINED], None).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
    }
);

dual_test!(
    async fn whole_request_failures_are_one_object(app: TestApp) {
        let response = app
            .request(
                Request::post("/api/trpc/user.updateProfile,user.settings?batch=1")
                    .header("content-type", "application/json")
                    .body(Body::from("{}"))
                    .expect("request"),
            )
            .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            response.text(),
            r#"{"error":{"json":{"message":"Cannot mix procedure types in call: mutation, query","code":-32600,"data":{"code":"BAD_REQUEST","httpStatus":400,"zodError":null}}}}"#
        );
        let response = app
            .request(
                Request::post("/api/trpc/user.updateProfile?batch=1")
                    .body(Body::from("{}"))
                    .expect("request"),
            )
            .await;
        assert_eq!(response.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(
            error_of(&response.json())["message"],
            "Missing content-type header"
        );
        let response = app
            .request(
                Request::post("/api/trpc/user.updateProfile?batch=1")
                    .header("content-type", "text/plain")
                    .body(Body::from("{}"))
                    .expect("request"),
            )
            .await;
        assert_eq!(response.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(
            error_of(&response.json())["message"],
            "Unsupported content-type \"text/plain\""
        );
        let response = app
            .request(
                Request::head("/api/trpc/anything")
                    .body(Body::empty())
                    .expect("request"),
            )
            .await;
        assert_eq!(response.status, StatusCode::NO_CONTENT);
        assert!(response.body.is_empty());
    }
);

dual_test!(
    async fn settings_start_from_defaults_and_save_preferences(app: TestApp) {
        let (_, user, cookie) = signed_in_teacher(&app).await;
        let response = query_batch(&app, &["user.settings"], &[UNDEFINED], Some(&cookie)).await;
        assert_eq!(
            response.json()[0]["result"]["data"]["json"],
            json!({
                "forename": "Tess", "surname": "Teacher", "email": format!("{user}@school.test"),
                "emailPreferences": {"general": true, "assignment": true, "frequency": "IMMEDIATELY", "language": "en"}
            })
        );
        let saved =
            r#"{"json":{"general":false,"assignment":true,"frequency":"WEEKLY","language":"cy"}}"#;
        let response = mutate(
            &app,
            "user.updateEmailPreferences",
            saved,
            Some(&cookie),
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert_eq!(
            response.text(),
            format!("[{{\"result\":{{\"data\":{saved}}}}}]")
        );
        // Saving again updates the same row.
        let again =
            r#"{"json":{"general":true,"assignment":false,"frequency":"DAILY","language":"en"}}"#;
        assert_eq!(
            mutate(
                &app,
                "user.updateEmailPreferences",
                again,
                Some(&cookie),
                &[]
            )
            .await
            .status,
            StatusCode::OK
        );
        let response = query_batch(&app, &["user.settings"], &[UNDEFINED], Some(&cookie)).await;
        assert_eq!(
            response.json()[0]["result"]["data"]["json"]["emailPreferences"],
            json!({"general": true, "assignment": false, "frequency": "DAILY", "language": "en"})
        );
        let wrong =
            r#"{"json":{"general":true,"assignment":false,"frequency":"HOURLY","language":"en"}}"#;
        let response = mutate(
            &app,
            "user.updateEmailPreferences",
            wrong,
            Some(&cookie),
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert!(
            error_of(&response.json()[0])["data"]["zodError"]["fieldErrors"]["frequency"]
                .is_array()
        );
    }
);

dual_test!(
    async fn account_errors_become_trpc_errors(app: TestApp) {
        let response = mutate(
            &app,
            "account.confirmEmail",
            r#"{"json":{"token":"not-a-real-token"}}"#,
            None,
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_of(&response.json()[0])["message"],
            "This link is invalid or has expired."
        );
        let response = mutate(
            &app,
            "account.register",
            r#"{"json":{"forename":"","surname":"S","email":"a@b.test","password":"x"}}"#,
            None,
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        let error = error_of(&response.json()[0]).clone();
        assert_eq!(error["message"], "Enter your forename.");
        assert_eq!(
            error["data"]["zodError"]["fieldErrors"],
            json!({"forename": ["Enter your forename."]})
        );
        let response = mutate(
            &app,
            "user.changePassword",
            r#"{"json":{"currentPassword":"a","newPassword":"b"}}"#,
            None,
            &[],
        )
        .await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    }
);

dual_test!(
    async fn change_password_answers_a_date(app: TestApp) {
        let (_, user, cookie) = signed_in_teacher(&app).await;
        let hash = voicemark::password::hash_password("Voicemark1").expect("hash");
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::update(users::table.find(&user))
            .set(users::password.eq(&hash))
            .execute(c)
            .await)
        .expect("password");
        let wrong = r#"{"json":{"currentPassword":"Wrong1234","newPassword":"Voicemark2"}}"#;
        let response = mutate(&app, "user.changePassword", wrong, Some(&cookie), &[]).await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            error_of(&response.json()[0])["data"]["zodError"]["fieldErrors"],
            json!({"currentPassword": ["Your current password is incorrect."]})
        );
        let right = r#"{"json":{"currentPassword":"Voicemark1","newPassword":"Voicemark2"}}"#;
        let response = mutate(&app, "user.changePassword", right, Some(&cookie), &[]).await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        let data = &response.json()[0]["result"]["data"];
        assert_eq!(
            data["meta"],
            json!({"values": {"changedAt": ["Date"]}, "v": 1})
        );
        assert!(data["json"]["changedAt"]
            .as_str()
            .expect("ISO")
            .ends_with('Z'));
    }
);

dual_test!(
    async fn an_internal_failure_shows_no_internals(app: TestApp) {
        let (_, _, cookie) = signed_in_teacher(&app).await;
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::sql_query(
            "DROP TABLE email_preferences"
        )
        .execute(c)
        .await)
        .expect("drop");
        let response = query_batch(&app, &["user.settings"], &[UNDEFINED], Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            response.text(),
            r#"[{"error":{"json":{"message":"Internal server error","code":-32603,"data":{"code":"INTERNAL_SERVER_ERROR","httpStatus":500,"path":"user.settings","zodError":null}}}}]"#
        );
    }
);

#[test]
fn generated_typescript_is_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(voicemark::rpc::typescript::GENERATED_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == voicemark::rpc::typescript::generate(),
        "app/src/generated/rpc-types.ts is stale: run `cargo test -p voicemark-server --test it -- --ignored write_rpc_types`"
    );
}

/// Rewrites app/src/generated/rpc-types.ts from the Rust types.
#[test]
#[ignore = "writes app/src/generated/rpc-types.ts"]
fn write_rpc_types() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(voicemark::rpc::typescript::GENERATED_PATH);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
    std::fs::write(&path, voicemark::rpc::typescript::generate()).expect("write the file");
}
