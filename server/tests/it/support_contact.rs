//! The Support pages' contact form (`support.contact`): field checks, the message to the
//! support address with the sender's name, school, plan and page (Pro marked as priority),
//! the copy to the sender, the per-user limit, and signed-out callers refused.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::json;
use voicemark::db::schema::{jobs, users};
use voicemark::with_conn;

use crate::dual_test;
use crate::sending::smtp::SmtpSink;
use crate::sending::{drain, make_teacher, smtp_state};
use crate::submissions::mutate;
use crate::support::{make_school, session_cookie, TestApp};

async fn teacher(app: &TestApp, school: &str, pro: bool) -> (String, String, String) {
    let mut pooled = app.db.conn().await.expect("connection");
    let id = make_teacher(&mut pooled.db(), school).await;
    with_conn!(pooled.db(), |c| diesel::update(users::table.find(&id))
        .set(users::pro.eq(pro))
        .execute(c)
        .await)
    .expect("pro flag");
    let email: String = with_conn!(pooled.db(), |c| users::table
        .find(&id)
        .select(users::email)
        .first(c)
        .await)
    .expect("email");
    let cookie = session_cookie(app, &id).await;
    (id, email, cookie)
}

async fn support_jobs(app: &TestApp) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| jobs::table
        .filter(jobs::kind.eq("email.support"))
        .count()
        .get_result(c)
        .await)
    .expect("count")
}

dual_test!(
    async fn a_message_reaches_support_with_context_and_the_sender_gets_a_copy(app: TestApp) {
        let school = make_school(&app, "Hillside Academy").await;
        let (_, basic_email, basic) = teacher(&app, &school, false).await;
        let (_, pro_email, pro) = teacher(&app, &school, true).await;
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let support = app.state.config.support_email.clone();

        let sent = mutate(
            &app,
            "support.contact",
            json!({"subject": "  Dictation stops  ", "message": "It stops after a minute.\nWhy?", "page": "/leaders/support"}),
            Some(&basic),
        )
        .await;
        assert_eq!(sent.data()["supportEmail"], support.as_str());
        assert_eq!(sent.data()["copyTo"], basic_email.as_str());
        assert_eq!(sent.data()["priority"], false);
        mutate(
            &app,
            "support.contact",
            json!({"subject": "Invoice", "message": "Please resend it.", "page": "https://evil.test/x"}),
            Some(&pro),
        )
        .await
        .data();
        assert_eq!(drain(&state).await, 4, "two messages and two copies");

        let to_support = sink.to(&support);
        assert_eq!(to_support.len(), 2);
        let basic_msg = to_support
            .iter()
            .find(|m| m.text().contains(&basic_email))
            .expect("the Basic user's message");
        let subject = basic_msg.header("subject").expect("subject");
        assert_eq!(subject, "Support: Dictation stops");
        let text = basic_msg.text();
        for expected in [
            "Tess Teacher",
            "School: Hillside Academy",
            "Plan: Basic",
            "Page: /leaders/support",
            "It stops after a minute.",
        ] {
            assert!(text.contains(expected), "{expected:?} missing in {text}");
        }
        let pro_msg = to_support
            .iter()
            .find(|m| m.text().contains(&pro_email))
            .expect("the Pro user's message");
        assert_eq!(
            pro_msg.header("subject").expect("subject"),
            "[Priority] Support: Invoice"
        );
        assert!(pro_msg.text().contains("Plan: Pro"));
        assert!(
            pro_msg.text().contains("Page: (not given)"),
            "an address that is not an app path is not passed on"
        );

        let copy = sink.to(&basic_email);
        assert_eq!(copy.len(), 1);
        assert_eq!(
            copy[0].header("subject").expect("subject"),
            "Your message to Voicemark support: Dictation stops"
        );
        assert!(copy[0].text().contains("It stops after a minute."));
        assert_eq!(sink.to(&pro_email).len(), 1);
    }
);

dual_test!(
    async fn bad_messages_are_refused_per_field_and_nothing_is_queued(app: TestApp) {
        let school = make_school(&app, "Hillside Academy").await;
        let (_, _, cookie) = teacher(&app, &school, false).await;

        let empty = mutate(
            &app,
            "support.contact",
            json!({"subject": " ", "message": ""}),
            Some(&cookie),
        )
        .await;
        assert_eq!(empty.code(), "BAD_REQUEST");
        assert_eq!(empty.field_error("subject"), "Enter a subject.");
        assert_eq!(empty.field_error("message"), "Write your message.");

        let long = mutate(
            &app,
            "support.contact",
            json!({"subject": "x".repeat(201), "message": "y".repeat(5001)}),
            Some(&cookie),
        )
        .await;
        assert_eq!(
            long.field_error("subject"),
            "Use at most 200 characters."
        );
        assert_eq!(
            long.field_error("message"),
            "Use at most 5000 characters."
        );

        let signed_out = mutate(
            &app,
            "support.contact",
            json!({"subject": "Hi", "message": "Hello"}),
            None,
        )
        .await;
        assert_eq!(signed_out.code(), "UNAUTHORIZED");
        assert_eq!(support_jobs(&app).await, 0);
    }
);

dual_test!(
    async fn the_sixth_message_in_fifteen_minutes_is_refused_for_that_user_only(app: TestApp) {
        let school = make_school(&app, "Hillside Academy").await;
        let (_, _, busy) = teacher(&app, &school, false).await;
        let (_, _, other) = teacher(&app, &school, false).await;
        let message = json!({"subject": "Hello", "message": "A question."});
        for _ in 0..5 {
            mutate(&app, "support.contact", message.clone(), Some(&busy))
                .await
                .data();
        }
        let sixth = mutate(&app, "support.contact", message.clone(), Some(&busy)).await;
        assert_eq!(sixth.code(), "TOO_MANY_REQUESTS");
        assert!(sixth.message().contains("wait 15 minutes"), "{}", sixth.message());
        assert_eq!(support_jobs(&app).await, 10);
        mutate(&app, "support.contact", message, Some(&other))
            .await
            .data();
    }
);
