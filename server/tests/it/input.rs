//! The one input layer (`rpc::input`), the per-field limits and the batch cap, end to end on
//! both databases: NUL bytes, over-long strings and huge id lists are BAD_REQUEST with the
//! field named, for signed-in and unauthenticated procedures, the sign-in routes and the
//! plain HTTP routes; none reaches the database.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use core_wasm::limits::{MAX_BATCH_CALLS, MAX_LIST_ITEMS, MAX_TEXT_CHARS, NUL_MESSAGE};
use core_wasm::UserRole;
use serde_json::{json, Value};

use crate::admin::{mutate, signed_in};
use crate::dual_test;
use crate::submissions;
use crate::support::{make_school, TestApp};

fn pupil(forename: &str, surname: &str, upn: Option<&str>) -> Value {
    json!({
        "id": null, "forename": forename, "surname": surname, "email": null,
        "parentEmail": null, "upn": upn, "yearGroupId": null, "formGroupId": null,
        "classIds": [],
    })
}

/// (code, message, fieldErrors[field][0]) of a refused call.
fn refused(outcome: crate::admin::Outcome, field: &str) -> (String, String, String) {
    let (code, message, fields) = outcome.expect_err("refused");
    let first = fields[field][0].as_str().unwrap_or_default().to_owned();
    (code, message, first)
}

dual_test!(
    async fn nul_long_text_and_huge_lists_are_bad_requests_with_the_field(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;

        let nul = mutate(
            &app,
            &admin,
            "admin.savePupil",
            pupil("A\u{0}da", "Lovelace", None),
            &[],
        )
        .await;
        assert_eq!(
            refused(nul, "forename"),
            ("BAD_REQUEST".into(), NUL_MESSAGE.into(), NUL_MESSAGE.into())
        );

        let megabyte = "x".repeat(1_000_000);
        let long = mutate(
            &app,
            &admin,
            "admin.savePupil",
            pupil("Ada", &megabyte, None),
            &[],
        )
        .await;
        let (code, _, message) = refused(long, "surname");
        assert_eq!(code, "BAD_REQUEST");
        assert_eq!(message, format!("Use at most {MAX_TEXT_CHARS} characters."));

        // The per-field limits of the core: names 100, UPN 20, group names 100.
        let name = mutate(
            &app,
            &admin,
            "admin.savePupil",
            pupil("Ada", &"y".repeat(101), None),
            &[],
        )
        .await;
        assert_eq!(refused(name, "surname").2, "Use at most 100 characters.");
        let upn = mutate(
            &app,
            &admin,
            "admin.savePupil",
            pupil("Ada", "L", Some(&"1".repeat(21))),
            &[],
        )
        .await;
        assert_eq!(refused(upn, "upn").2, "Use at most 20 characters.");
        let class = mutate(
            &app,
            &admin,
            "admin.saveClass",
            json!({"id": null, "name": "c".repeat(101)}),
            &[],
        )
        .await;
        assert_eq!(refused(class, "name").2, "Use at most 100 characters.");
        let staff = mutate(
            &app,
            &admin,
            "admin.saveStaff",
            json!({"id": null, "forename": "f".repeat(101), "surname": "S", "email": "s@school.test",
                   "role": "TEACHER", "classIds": [], "activated": true, "disabled": false}),
            &[],
        )
        .await;
        assert_eq!(refused(staff, "forename").2, "Use at most 100 characters.");

        // 40,000 ids in a filter (more than SQLite's 32,766 bound values).
        let ids: Vec<String> = (0..40_000).map(|i| format!("id{i}")).collect();
        let filters = json!({"classes": [], "yearGroups": [], "formGroups": [], "students": ids});
        let create = json!({
            "type": "GENERAL", "title": "Trip", "customTitle": null, "body": "<p>Hello</p>",
            "sendDate": null, "submissionDueDate": null, "sendToPupil": true,
            "sendToParent": false, "filters": filters,
        });
        let huge = mutate(&app, &admin, "notification.create", create, &[]).await;
        let (code, _, message) = refused(huge, "filters.students");
        assert_eq!(code, "BAD_REQUEST");
        assert_eq!(message, format!("Use at most {MAX_LIST_ITEMS} items."));

        // Nothing was stored by any of them, and an ordinary pupil still saves.
        let saved = mutate(
            &app,
            &admin,
            "admin.savePupil",
            pupil("Ada", "Lovelace", Some("A123456789012")),
            &[],
        )
        .await;
        assert_eq!(saved.expect("saved")["forename"], "Ada");
    }
);

dual_test!(
    async fn unauthenticated_procedures_refuse_nul_before_the_database(app: TestApp) {
        let public = submissions::query(
            &app,
            "submission.public",
            json!({"id": "a\u{0}b", "token": "t\u{0}"}),
            None,
        )
        .await;
        assert_eq!(public.status, StatusCode::BAD_REQUEST);
        assert_eq!(public.field_error("id"), NUL_MESSAGE);

        let register = submissions::mutate(
            &app,
            "account.register",
            json!({"forename": "Ada\u{0}", "surname": "L", "email": "ada@school.test",
                   "password": "Voicemark1"}),
            None,
        )
        .await;
        assert_eq!(register.status, StatusCode::BAD_REQUEST);
        assert_eq!(register.field_error("forename"), NUL_MESSAGE);

        let long_name = submissions::mutate(
            &app,
            "account.register",
            json!({"forename": "A".repeat(101), "surname": "L", "email": "ada@school.test",
                   "password": "Voicemark1"}),
            None,
        )
        .await;
        assert_eq!(long_name.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            long_name.field_error("forename"),
            "Use at most 100 characters."
        );

        let reset = submissions::mutate(
            &app,
            "account.requestPasswordReset",
            json!({"email": "a\u{0}@school.test"}),
            None,
        )
        .await;
        assert_eq!(reset.status, StatusCode::BAD_REQUEST);
    }
);

/// The CSRF cookie and token, as a browser gets them before signing in.
async fn csrf(app: &TestApp) -> (String, String) {
    let response = app.get("/api/auth/csrf").await;
    let cookie = response
        .headers
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|v| {
            v.to_str()
                .expect("ascii")
                .split(';')
                .next()
                .expect("pair")
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join("; ");
    let token = response.json()["csrfToken"]
        .as_str()
        .expect("token")
        .to_owned();
    (cookie, token)
}

dual_test!(
    async fn sign_in_routes_and_http_addresses_refuse_nul_without_a_500(app: TestApp) {
        let (cookie, token) = csrf(&app).await;
        for email in [
            "ada\u{0}@school.test",
            &format!("{}@school.test", "a".repeat(300)),
        ] {
            let body = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs([
                    ("email", email),
                    ("password", "Voicemark1"),
                    ("csrfToken", &token),
                    ("callbackUrl", "/dashboard"),
                    ("json", "true"),
                ])
                .finish();
            let response = app
                .request(
                    Request::post("/api/auth/callback/credentials")
                        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                        .header(header::COOKIE, &cookie)
                        .body(Body::from(body))
                        .expect("request"),
                )
                .await;
            assert_eq!(
                response.status,
                StatusCode::UNAUTHORIZED,
                "{}",
                response.text()
            );
            assert!(response.json()["url"]
                .as_str()
                .unwrap_or_default()
                .contains("error="));
        }
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs([
                ("email", "ada\u{0}@school.test"),
                ("csrfToken", &token),
                ("json", "true"),
            ])
            .finish();
        let link = app
            .request(
                Request::post("/api/auth/signin/email")
                    .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                    .header(header::COOKIE, &cookie)
                    .body(Body::from(body))
                    .expect("request"),
            )
            .await;
        // Auth.js answers a refused address with 200 and the error in the URL.
        assert_eq!(link.status, StatusCode::OK, "{}", link.text());
        assert!(link.json()["url"]
            .as_str()
            .unwrap_or_default()
            .contains("error=EmailSignin"));

        for address in [
            "/api/auth/callback/email?token=a%00b&email=ada%40school.test",
            "/api/submissions/a%00b/token/files/x",
            "/api/uploads/key%00?expires=1&signature=x",
        ] {
            let response = app.get(address).await;
            assert_eq!(
                response.status,
                StatusCode::BAD_REQUEST,
                "{address}: {}",
                response.text()
            );
            assert!(response.text().contains(NUL_MESSAGE), "{}", response.text());
        }
    }
);

dual_test!(
    async fn a_batch_over_the_cap_is_one_bad_request_before_any_call(app: TestApp) {
        let batch = |n: usize| {
            let paths = vec!["system.support"; n].join(",");
            format!("/api/trpc/{paths}?batch=1")
        };
        let ok = app.get(&batch(MAX_BATCH_CALLS)).await;
        assert_eq!(ok.status, StatusCode::OK, "{}", ok.text());
        assert_eq!(ok.json().as_array().map(Vec::len), Some(MAX_BATCH_CALLS));

        let started = std::time::Instant::now();
        let refused = app.get(&batch(3_000)).await;
        eprintln!("a batch of 3,000 calls answered in {:?}", started.elapsed());
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        let body = refused.json();
        assert!(
            body.is_object(),
            "one request-level error, not an array: {body}"
        );
        assert_eq!(body["error"]["json"]["data"]["code"], "BAD_REQUEST");
        assert_eq!(
            body["error"]["json"]["message"],
            format!("A batch may hold at most {MAX_BATCH_CALLS} calls; this one holds 3000.")
        );
    }
);

#[test]
fn generated_limits_are_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(voicemark::rpc::typescript::LIMITS_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == voicemark::rpc::typescript::generate_limits(),
        "app/src/generated/limits.ts is stale: run `cargo test -p voicemark-server --test it -- --ignored write_limits`"
    );
}

/// Rewrites app/src/generated/limits.ts from core-wasm/src/limits.rs.
#[test]
#[ignore = "writes app/src/generated/limits.ts"]
fn write_limits() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(voicemark::rpc::typescript::LIMITS_PATH);
    std::fs::write(&path, voicemark::rpc::typescript::generate_limits()).expect("write the file");
}
