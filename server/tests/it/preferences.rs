//! `/preferences/{token}`: the public `preferences.get` and `preferences.update` procedures.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use core_wasm::NotificationFrequency;
use serde_json::{json, Value};
use voicemark::models::email_preferences;

use crate::dual_test;
use crate::support::{TestApp, TestResponse};

fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn get(app: &TestApp, token: &str) -> TestResponse {
    let input = json!({ "0": { "json": { "token": token } } }).to_string();
    app.get(&format!(
        "/api/trpc/preferences.get?batch=1&input={}",
        encode(&input)
    ))
    .await
}

async fn update(app: &TestApp, input: Value) -> TestResponse {
    let body = json!({ "0": { "json": input } }).to_string();
    app.request(
        Request::post("/api/trpc/preferences.update?batch=1")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request"),
    )
    .await
}

dual_test!(
    async fn a_link_reads_and_changes_its_preferences_without_signing_in(app: TestApp) {
        let token = {
            let mut pooled = app.db.conn().await.expect("connection");
            let made = email_preferences::ensure_for(
                &mut pooled.db(),
                &["parent.kim@families.test".to_owned()],
                NotificationFrequency::Immediately,
            )
            .await
            .expect("preference");
            made["parent.kim@families.test"].token.clone()
        };

        let response = get(&app, &token).await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        let data = &response.json()[0]["result"]["data"]["json"];
        assert_eq!(
            data,
            &json!({
                "email": "parent.kim@families.test",
                "general": true,
                "assignment": true,
                "frequency": "IMMEDIATELY",
                "language": "en"
            })
        );

        let response = update(
            &app,
            json!({ "token": token, "general": true, "assignment": false, "frequency": "WEEKLY", "language": "cy" }),
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        let data = &response.json()[0]["result"]["data"]["json"];
        assert_eq!(data["assignment"], json!(false));
        assert_eq!(data["frequency"], json!("WEEKLY"));

        let mut pooled = app.db.conn().await.expect("connection");
        let stored = email_preferences::find(&mut pooled.db(), "parent.kim@families.test")
            .await
            .expect("query")
            .expect("row");
        assert!(!stored.assignment && stored.general);
        assert_eq!(stored.frequency, NotificationFrequency::Weekly);
        assert_eq!(stored.language, "cy");
        assert_eq!(stored.token, token, "the link keeps working");

        // A bad language is a field error.
        let response = update(
            &app,
            json!({ "token": token, "general": true, "assignment": true, "frequency": "DAILY", "language": "" }),
        )
        .await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            response.json()[0]["error"]["json"]["data"]["zodError"]["fieldErrors"]["language"][0],
            json!("Choose a language.")
        );
    }
);

dual_test!(
    async fn the_language_is_one_of_the_cores_list(app: TestApp) {
        let token = {
            let mut pooled = app.db.conn().await.expect("connection");
            let made = email_preferences::ensure_for(
                &mut pooled.db(),
                &["parent.lee@families.test".to_owned()],
                NotificationFrequency::Immediately,
            )
            .await
            .expect("preference");
            made["parent.lee@families.test"].token.clone()
        };
        let choose = |language: &str| json!({ "token": token, "general": true, "assignment": true, "frequency": "DAILY", "language": language });
        // Listed codes (beyond the seven the app offered before), and a regional tag of one
        // (the server took any tag before the list: such rows keep saving).
        for language in ["so", "pa", "pt-BR"] {
            let response = update(&app, choose(language)).await;
            assert_eq!(
                response.status,
                StatusCode::OK,
                "{language}: {}",
                response.text()
            );
            assert_eq!(
                response.json()[0]["result"]["data"]["json"]["language"],
                language
            );
        }
        // Not a language of the list.
        for language in ["xx", "klingon", "en_GB"] {
            let response = update(&app, choose(language)).await;
            assert_eq!(response.status, StatusCode::BAD_REQUEST, "{language}");
            assert_eq!(
                response.json()[0]["error"]["json"]["data"]["zodError"]["fieldErrors"]["language"]
                    [0],
                json!("Choose a language.")
            );
        }
        assert_eq!(core_wasm::languages::language_name("so"), Some("Somali"));
    }
);

dual_test!(
    async fn an_unknown_link_is_not_found(app: TestApp) {
        for token in [
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "short",
            "../../etc/passwd",
        ] {
            let response = get(&app, token).await;
            assert_eq!(response.status, StatusCode::NOT_FOUND, "{token}");
            let error = &response.json()[0]["error"]["json"];
            assert_eq!(error["message"], json!("This link is invalid."));
            assert_eq!(error["data"]["code"], json!("NOT_FOUND"));
        }
        let response = update(
            &app,
            json!({ "token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "general": false, "assignment": false, "frequency": "DAILY", "language": "en" }),
        )
        .await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
        assert_eq!(
            response.json()[0]["error"]["json"]["message"],
            json!("This link is invalid.")
        );
    }
);
