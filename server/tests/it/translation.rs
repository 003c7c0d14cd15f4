//! Messages in each parent's own language (docs/translation.md): a notification is
//! translated once per language its recipients chose, by a stub OpenAI-compatible chat
//! server on loopback that speaks the real Chat Completions shape; e-mails carry the
//! translation, the automatic-translation line and the English original; a failing model
//! never holds a message back.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use core_wasm::{NotificationFrequency, NotificationType};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::config::{ChatConfig, StructuredOutput};
use voicemark::db::schema::{jobs as jobs_table, notification_translations};
use voicemark::db::DbConn;
use voicemark::ids::new_token;
use voicemark::models::email_preferences::{self, NewEmailPreference};
use voicemark::models::now;
use voicemark::models::recipients::Filters;
use voicemark::state::AppState;
use voicemark::translation::ORIGINAL_NOTICE;
use voicemark::with_conn;

use crate::dual_test;
use crate::sending::smtp::SmtpSink;
use crate::sending::{
    bulk_pupils, drain, make_class, make_notification, make_pupil, make_school, make_teacher,
    queue_send, simple, smtp_state, NotificationSpec,
};
use crate::support::TestApp;

/// What the stub chat server was asked, and whether it fails every call.
#[derive(Clone, Default)]
struct ChatStub {
    seen: Arc<Mutex<Vec<Value>>>,
    fails: bool,
}

impl ChatStub {
    /// The languages it was asked to translate into, from the system prompts.
    fn languages(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .seen
            .lock()
            .expect("lock")
            .iter()
            .filter_map(|b| b["messages"][0]["content"].as_str())
            .filter_map(|s| s.split("from English into ").nth(1))
            .filter_map(|s| s.split('.').next())
            .map(str::to_owned)
            .collect();
        out.sort();
        out
    }
}

/// `POST /v1/chat/completions`: a `chat.completion` whose content is the JSON the prompt
/// asks for; the "translation" prefixes the language's name, so tests can tell it apart,
/// and keeps the body's tags and links.
async fn completions(State(stub): State<ChatStub>, Json(body): Json<Value>) -> Response {
    stub.seen.lock().expect("lock").push(body.clone());
    if stub.fails {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({"error": {"message": "The model crashed.", "type": "api_error", "param": null, "code": null}})),
        )
            .into_response();
    }
    let system = body["messages"][0]["content"].as_str().unwrap_or_default();
    let language = system
        .split("from English into ")
        .nth(1)
        .and_then(|s| s.split('.').next())
        .unwrap_or("?");
    let source: Value =
        serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("{}")).unwrap_or_default();
    if system.starts_with("You translate a teacher's feedback") {
        let text = body["messages"][1]["content"].as_str().unwrap_or_default();
        let content = json!({ "text": format!("{language}: {text}"), "notice": format!("Translated automatically into {language}.") });
        return completion(content.to_string());
    }
    let content = json!({
        "title": format!("{language}: {}", source["title"].as_str().unwrap_or_default()),
        "body": format!("<p>In {language}:</p>{}", source["body"].as_str().unwrap_or_default()),
        "notice": format!("Translated automatically into {language}."),
    })
    .to_string();
    completion(content)
}

/// A `chat.completion` answer carrying `content`.
fn completion(content: String) -> Response {
    Json(json!({
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 1717000000, "model": "stub-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": null}, "logprobs": null, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 60, "total_tokens": 180}
    }))
    .into_response()
}

async fn chat_stub(fails: bool) -> (String, ChatStub) {
    let stub = ChatStub {
        fails,
        ..ChatStub::default()
    };
    let routes = Router::new()
        .route("/v1/chat/completions", post(completions))
        .with_state(stub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    (format!("http://{addr}/v1"), stub)
}

/// The app's state with mail to `sink` and the chat model at `chat_url`.
fn state_with_chat(app: &TestApp, sink: &SmtpSink, chat_url: &str) -> AppState {
    let base = smtp_state(app, sink);
    let mut config = (*base.config).clone();
    config.chat = Some(ChatConfig {
        base_url: chat_url.into(),
        model: "stub-model".into(),
        api_key: None,
        structured_output: StructuredOutput::JsonSchema,
    });
    AppState::new(app.db.clone(), config).expect("state")
}

async fn choose_language(conn: &mut DbConn<'_>, email: &str, language: &str) {
    choose(conn, email, language, NotificationFrequency::Immediately).await;
}

async fn choose(conn: &mut DbConn<'_>, email: &str, language: &str, frequency: NotificationFrequency) {
    let at = now();
    email_preferences::insert(
        conn,
        &NewEmailPreference {
            email: email.into(),
            language: language.into(),
            general: true,
            assignment: true,
            frequency,
            token: new_token(),
            created_at: at,
            updated_at: at,
        },
    )
    .await
    .expect("preference");
}

/// A class of Ada, Ben and Cal (pupils and parents with e-mail) and an assignment to it.
async fn class_and_assignment(conn: &mut DbConn<'_>) -> String {
    let school = make_school(conn, "Translate School").await;
    let teacher = make_teacher(conn, &school).await;
    let class = make_class(conn, &school, "Science").await;
    for name in ["Ada", "Ben", "Cal"] {
        let id = make_pupil(conn, &school, simple(name, "Pupil")).await;
        voicemark::models::students::add_to_class(conn, &id, &class)
            .await
            .expect("join");
    }
    make_notification(
        conn,
        &school,
        &teacher,
        NotificationSpec {
            kind: NotificationType::Assignment,
            filters: Filters {
                classes: vec![class],
                ..Filters::default()
            },
            to_pupil: true,
            to_parent: true,
            send_date: Some(now() - chrono::Duration::minutes(1)),
        },
    )
    .await
}

async fn translation_rows(conn: &mut DbConn<'_>, notification: &str) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = with_conn!(conn, |c| notification_translations::table
        .filter(notification_translations::notification_id.eq(notification))
        .select((notification_translations::language, notification_translations::title))
        .load(c)
        .await)
    .expect("translations");
    rows.sort();
    rows
}

dual_test!(
    async fn each_language_is_translated_once_and_the_original_goes_below(app: TestApp) {
        let sink = SmtpSink::start().await;
        let (chat_url, stub) = chat_stub(false).await;
        let state = state_with_chat(&app, &sink, &chat_url);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        // Two parents chose Polish, one pupil German, and Cal's parent a daily digest in
        // German; everyone else has English.
        choose_language(&mut conn, "parent.ada@families.test", "pl").await;
        choose_language(&mut conn, "parent.ben@families.test", "pl").await;
        choose_language(&mut conn, "cal@pupils.test", "de").await;
        choose(&mut conn, "parent.cal@families.test", "de", NotificationFrequency::Daily).await;
        let notification = class_and_assignment(&mut conn).await;
        queue_send(&mut conn, &notification, "v1").await;
        drain(&state).await;

        // One model call per language, not per recipient.
        assert_eq!(stub.languages(), vec!["German", "Polish"]);
        assert_eq!(
            translation_rows(&mut conn, &notification).await,
            vec![
                ("de".to_owned(), "German: Volcano project".to_owned()),
                ("pl".to_owned(), "Polish: Volcano project".to_owned())
            ]
        );
        // Five messages now: three pupils, two parents (Cal's parent waits for the digest).
        assert_eq!(sink.messages().len(), 5);

        let ada_parent = &sink.to("parent.ada@families.test")[0];
        assert_eq!(ada_parent.header("Subject").as_deref(), Some("Polish: Volcano project"));
        let text = ada_parent.text();
        let translated = text.find("In Polish:").expect("the translation");
        let notice = text.find("Translated automatically into Polish.").expect("the line, translated");
        let english_notice = text.find(ORIGINAL_NOTICE).expect("the line in English");
        let original = text.rfind("Build a model volcano & explain it.").expect("the original");
        assert!(translated < notice && notice < english_notice && english_notice < original, "{text}");
        // The pupil's own hand-in link is untouched in the German e-mail.
        let cal = sink.to("cal@pupils.test")[0].text();
        assert!(cal.contains("In German:") && cal.contains("https://voicemark.test/submissions/"), "{cal}");

        // English recipients get the original only.
        let ada = sink.to("ada@pupils.test")[0].text();
        assert!(!ada.contains(ORIGINAL_NOTICE) && !ada.contains("In Polish"), "{ada}");
        assert_eq!(sink.to("ada@pupils.test")[0].header("Subject").as_deref(), Some("Assignment: Volcano project"));

        // The digest, when its time comes, lists the assignment in its kept German
        // translation with the original below, without asking the model again.
        with_conn!(&mut conn, |c| diesel::update(jobs_table::table.filter(jobs_table::kind.eq("email.digest")))
            .set(jobs_table::run_at.eq(now()))
            .execute(c)
            .await)
        .expect("time passes");
        drain(&state).await;
        let digest = sink.to("parent.cal@families.test")[0].text();
        let translated = digest.find("German: Volcano project").expect("translated heading");
        let original = digest.find(ORIGINAL_NOTICE).expect("the line");
        assert!(translated < original && digest.contains("Build a model volcano & explain it."), "{digest}");
        assert_eq!(stub.languages().len(), 2);

        // Sent again (an edit's new send job): the kept translations are reused.
        queue_send(&mut conn, &notification, "v2").await;
        drain(&state).await;
        assert_eq!(stub.languages().len(), 2);
    }
);

dual_test!(
    async fn a_failing_model_still_sends_the_original_on_time(app: TestApp) {
        let sink = SmtpSink::start().await;
        let (chat_url, stub) = chat_stub(true).await;
        let state = state_with_chat(&app, &sink, &chat_url);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        choose_language(&mut conn, "parent.ada@families.test", "pl").await;
        let notification = class_and_assignment(&mut conn).await;
        queue_send(&mut conn, &notification, "v1").await;
        let started = Instant::now();
        // No job fails: drain panics on a failed job.
        drain(&state).await;
        let took = started.elapsed();

        assert!(!stub.languages().is_empty(), "the model was asked");
        assert!(translation_rows(&mut conn, &notification).await.is_empty());
        let parent = &sink.to("parent.ada@families.test")[..];
        assert_eq!(parent.len(), 1, "the message went out");
        assert_eq!(parent[0].header("Subject").as_deref(), Some("Volcano project"));
        assert!(!parent[0].text().contains(ORIGINAL_NOTICE));
        assert_eq!(sink.messages().len(), 6);
        assert!(took < voicemark::translation::TRANSLATION_TIMEOUT, "took {took:?}");
    }
);

dual_test!(
    async fn feedback_reaches_a_parent_in_their_language_with_the_original(app: TestApp) {
        use voicemark::jobs::audience::Audience;
        use voicemark::jobs::email_feedback::FeedbackEmail;
        use voicemark::db::schema::{students, submissions};
        let sink = SmtpSink::start().await;
        let (chat_url, stub) = chat_stub(false).await;
        let state = state_with_chat(&app, &sink, &chat_url);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        choose_language(&mut conn, "parent.ada@families.test", "pl").await;
        let notification = class_and_assignment(&mut conn).await;
        queue_send(&mut conn, &notification, "v1").await;
        drain(&state).await;
        let submission: String = with_conn!(&mut conn, |c| submissions::table
            .inner_join(students::table)
            .filter(submissions::notification_id.eq(&notification))
            .filter(students::forename.eq("Ada"))
            .select(submissions::id)
            .first(c)
            .await)
        .expect("Ada's submission");
        with_conn!(&mut conn, |c| diesel::update(submissions::table.find(&submission))
            .set((
                submissions::feedback.eq(Some("Lovely diagram, label the crater.")),
                submissions::marked_at.eq(Some(now())),
                submissions::feedback_released_at.eq(Some(now())),
            ))
            .execute(c)
            .await)
        .expect("mark");
        let email = FeedbackEmail {
            submission_id: submission.clone(),
            audience: Audience::Parent,
            to: "parent.ada@families.test".into(),
        };
        voicemark::jobs::enqueue(&mut conn, &email, now(), Some(email.key(now()))).await.expect("queue");
        drain(&state).await;

        let messages = sink.to("parent.ada@families.test");
        assert_eq!(messages.len(), 2, "the assignment, then the feedback");
        let text = messages[1].text();
        let translated = text.find("Polish: Lovely diagram, label the crater.").expect("translated");
        let notice = text.find(ORIGINAL_NOTICE).expect("the line");
        let original = text.rfind("Lovely diagram, label the crater.").expect("original");
        assert!(translated < notice && notice < original, "{text}");
        // The heading is the assignment's kept translation; the feedback asked the model once.
        assert!(text.contains("Polish: Volcano project"), "{text}");
        assert_eq!(stub.languages(), vec!["Polish", "Polish"]);
    }
);

// ---------------------------------------------------------------------------------------
// Figure (ignored: run by name, prints it)

async fn figure(backend: crate::support::TestBackend) {
    const LANGUAGES: [&str; 10] = ["pl", "de", "fr", "es", "ro", "ur", "pa", "ar", "so", "lt"];
    let app = TestApp::new(backend).await;
    let sink = SmtpSink::start().await;
    let (chat_url, stub) = chat_stub(false).await;
    let state = state_with_chat(&app, &sink, &chat_url);
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let school = make_school(&mut conn, "Figure School").await;
    let teacher = make_teacher(&mut conn, &school).await;
    let year = voicemark::models::groups::year_group_id(&mut conn, &school, "Year 7")
        .await
        .expect("year");
    bulk_pupils(&mut conn, &school, Some(&year), 2000).await;
    for i in 0..2000 {
        let language = LANGUAGES[i % LANGUAGES.len()];
        choose_language(&mut conn, &format!("parent.p{i:04}@families.test"), language).await;
    }
    let notification = make_notification(
        &mut conn,
        &school,
        &teacher,
        NotificationSpec {
            kind: NotificationType::General,
            filters: Filters {
                year_groups: vec![year],
                ..Filters::default()
            },
            to_pupil: false,
            to_parent: true,
            send_date: Some(now() - chrono::Duration::minutes(1)),
        },
    )
    .await;
    queue_send(&mut conn, &notification, "figure").await;
    let started = Instant::now();
    let outcome = voicemark::jobs::worker::run_once(
        &state,
        &voicemark::jobs::Registry::standard(),
        "figure",
        &voicemark::jobs::WorkerSettings::default(),
    )
    .await
    .expect("run");
    let took = started.elapsed();
    assert!(matches!(outcome, voicemark::jobs::worker::Outcome::Done(_)));
    let queued: i64 = with_conn!(&mut conn, |c| jobs_table::table
        .filter(jobs_table::kind.eq("email.notification"))
        .count()
        .get_result(c)
        .await)
    .expect("count");
    assert_eq!(queued, 2000);
    assert_eq!(stub.languages().len(), 10);
    println!(
        "FIGURES {backend:?}: one notification to 2,000 parents in 10 languages: {} model calls, {queued} e-mails queued in {:.2} s",
        stub.seen.lock().expect("lock").len(),
        took.as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: run by name"]
async fn translation_figures_sqlite() {
    figure(crate::support::TestBackend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: run by name"]
async fn translation_figures_postgres() {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    figure(crate::support::TestBackend::Postgres).await;
}
