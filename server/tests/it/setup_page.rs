//! The superadmin's setup page (`system.setup`) and the plan's admins (`school.admins`):
//! setup lists every capability with its settings and whether each is set, never a secret's
//! value, and only to a superadmin; `school.admins` names the caller's own school's active
//! admins and organisation admins, never another school's.

use axum::body::Body;
use axum::http::Request;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::Value;
use voicemark::app::router;
use voicemark::config::{ChatConfig, StripeConfig, StructuredOutput, VisionConfig};
use voicemark::db::schema::users;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::query;
use crate::support::{leader_in, make_school, send, TestApp};

const SECRETS: [&str; 3] = ["sk-vision-very-secret", "sk_live_stripe_secret", "whsec_hook_secret"];

fn configured_state(app: &TestApp) -> AppState {
    let mut config = (*app.state.config).clone();
    config.vision = Some(VisionConfig {
        base_url: "http://127.0.0.1:9/v1".into(),
        model: "stub-vision".into(),
        api_key: Some(SECRETS[0].into()),
    });
    // As configuration loading does without VOICEMARK_CHAT_BASE_URL: chat on the vision server.
    config.chat = Some(ChatConfig {
        base_url: "http://127.0.0.1:9/v1".into(),
        model: "stub-vision".into(),
        api_key: Some(SECRETS[0].into()),
        structured_output: StructuredOutput::JsonSchema,
    });
    config.stripe = Some(StripeConfig {
        secret_key: SECRETS[1].into(),
        publishable_key: Some("pk_test_stub".into()),
        pricing_table_id: None,
        webhook_secrets: vec![SECRETS[2].into()],
        api_url: "http://127.0.0.1:9".into(),
        pricing_table_script_url: "http://127.0.0.1:9/pricing-table.js".into(),
    });
    config.mail.smtp_url = Some("smtp://mailer:smtp-password@127.0.0.1:2525".into());
    AppState::new(app.db.clone(), config).expect("state")
}

async fn setup_as(state: AppState, cookie: &str) -> (u16, Value) {
    let request = Request::get("/api/trpc/system.setup").header("cookie", cookie).body(Body::empty()).expect("request");
    let response = send(router(state), request).await;
    (response.status.as_u16(), response.json())
}

fn capability<'a>(answer: &'a Value, key: &str) -> &'a Value {
    answer["result"]["data"]["json"]["capabilities"]
        .as_array()
        .expect("capabilities")
        .iter()
        .find(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {answer}"))
}

fn setting_set(capability: &Value, name: &str) -> bool {
    capability["settings"]
        .as_array()
        .expect("settings")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {capability}"))["set"]
        .as_bool()
        .expect("set")
}

dual_test!(
    async fn setup_lists_each_capability_and_its_settings_for_a_superadmin_only(app: TestApp) {
        let school = make_school(&app, "Setup School").await;
        let (_, superadmin) = leader_in(&app, &school, UserRole::Superadmin).await;
        let state = configured_state(&app);

        let (status, answer) = setup_as(state.clone(), &superadmin).await;
        assert_eq!(status, 200, "{answer}");
        let keys: Vec<&str> = answer["result"]["data"]["json"]["capabilities"]
            .as_array()
            .expect("list")
            .iter()
            .map(|c| c["key"].as_str().expect("key"))
            .collect();
        assert_eq!(
            keys,
            ["chat", "vision", "speech", "transcription", "billing", "microsoft", "mis", "mail", "storage", "metrics"]
        );

        let vision = capability(&answer, "vision");
        assert_eq!(vision["on"], true);
        assert!(setting_set(vision, "VOICEMARK_VISION_API_KEY"));
        // The chat model falls back to the vision server.
        let chat = capability(&answer, "chat");
        assert_eq!(chat["on"], true);
        assert!(chat["status"].as_str().expect("status").contains("through the photo-reading server"), "{chat}");
        assert!(!setting_set(chat, "VOICEMARK_CHAT_BASE_URL"));
        assert_eq!(capability(&answer, "speech")["on"], false);
        assert!(!setting_set(capability(&answer, "speech"), "VOICEMARK_DEEPGRAM_API_KEY"));
        // Recorded audio needs Deepgram or a transcription server: neither here.
        assert_eq!(capability(&answer, "transcription")["on"], false);
        assert_eq!(capability(&answer, "metrics")["on"], false);
        // Billing needs the pricing table too: off, and the page shows which setting is missing.
        let billing = capability(&answer, "billing");
        assert_eq!(billing["on"], false);
        assert!(setting_set(billing, "VOICEMARK_STRIPE_SECRET_KEY"));
        assert!(!setting_set(billing, "VOICEMARK_STRIPE_PRICING_TABLE_ID"));
        assert_eq!(billing["docs"], "docs/billing.md");
        assert_eq!(capability(&answer, "mail")["on"], true);

        let text = answer.to_string();
        for secret in SECRETS.iter().chain(&["smtp-password", "mailer"]) {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }

        for role in [UserRole::Admin, UserRole::OrgAdmin, UserRole::Teacher, UserRole::MatUser] {
            let (_, cookie) = leader_in(&app, &school, role).await;
            let (status, answer) = setup_as(state.clone(), &cookie).await;
            assert_eq!(status, 403, "{role:?}: {answer}");
        }
        let (status, _) = setup_as(state, "next-auth.session-token=nobody").await;
        assert_eq!(status, 401);
    }
);

dual_test!(
    async fn school_admins_names_the_callers_own_schools_active_admins(app: TestApp) {
        let school = make_school(&app, "Admins School").await;
        let other = make_school(&app, "Other School").await;
        let (admin, _) = leader_in(&app, &school, UserRole::Admin).await;
        let (org_admin, _) = leader_in(&app, &school, UserRole::OrgAdmin).await;
        let (disabled_admin, _) = leader_in(&app, &school, UserRole::Admin).await;
        let (_, teacher) = leader_in(&app, &school, UserRole::Teacher).await;
        let (stranger, _) = leader_in(&app, &other, UserRole::Admin).await;
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::update(users::table.find(&disabled_admin))
            .set(users::disabled.eq(true))
            .execute(c)
            .await)
        .expect("disable");
        with_conn!(pooled.db(), |c| diesel::update(users::table.find(&org_admin))
            .set((users::forename.eq("Olive"), users::surname.eq("Org")))
            .execute(c)
            .await)
        .expect("rename");
        drop(pooled);

        let answer = query(&app, "school.admins", Value::Null, Some(&teacher)).await;
        let admins = answer.data().as_array().expect("a list").clone();
        let emails: Vec<&str> = admins.iter().map(|a| a["email"].as_str().expect("email")).collect();
        assert_eq!(emails, [format!("{admin}@school.test"), format!("{org_admin}@school.test")]);
        assert_eq!(admins[0]["name"], "Lee Leader");
        assert_eq!(admins[1]["name"], "Olive Org");
        assert!(!answer.body.to_string().contains(&stranger), "another school's admin");

        let signed_out = query(&app, "school.admins", Value::Null, None).await;
        assert_eq!(signed_out.code(), "UNAUTHORIZED");
    }
);
