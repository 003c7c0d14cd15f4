//! Exactly-once mutations (issue 27): every outbox mutation sent with an `idempotencyKey`
//! twice in a row, and eight times at once, answers its first answer every time and
//! changes things once; the same key for another request is refused; a refused call is not
//! kept; keys older than 7 days are swept. On SQLite and PostgreSQL.

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{
    assistant_queries, audit_log, idempotency_keys, jobs, notifications, question_responses,
    questions, stored_files, student_comments, task_items, task_submissions,
};
use voicemark::ids::new_id;
use voicemark::models::now;
use voicemark::rpc::idempotent::{BAD_KEY, IN_PROGRESS, KEY_REUSED};
use voicemark::with_conn;

use crate::dual_test;
use crate::providers::{app_with, b64, jpeg, teacher, vision_config, vision_stub, VisionReply, VISION_KEY};
use crate::submissions::{hand_in, world};
use crate::support::{send, TestApp};
use crate::task_content::{put, task};

const TIMES: usize = 8;

/// A key of the browser's form, different each time.
pub(crate) fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// `input` with `idempotencyKey` set.
pub(crate) fn keyed(input: &Value, key: &str) -> Value {
    let mut input = input.clone();
    input["idempotencyKey"] = json!(key);
    input
}

/// The batch element of one call to `path` with `input` (its top-level `dates` sent as
/// superjson Dates): `result` (with `json` and `meta`) or `error`.
pub(crate) async fn call(router: &axum::Router, cookie: &str, path: &str, input: &Value, dates: &[&str]) -> Value {
    let mut payload = json!({ "json": input });
    let values: serde_json::Map<String, Value> = dates
        .iter()
        .filter(|d| input[**d].is_string())
        .map(|d| ((*d).to_owned(), json!(["Date"])))
        .collect();
    if !values.is_empty() {
        payload["meta"] = json!({ "values": values, "v": 1 });
    }
    let request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(Body::from(json!({ "0": payload }).to_string()))
        .expect("request");
    send(router.clone(), request).await.json()[0].clone()
}

/// (code, message) of a refused call.
pub(crate) fn refusal(element: &Value) -> (String, String) {
    let error = &element["error"]["json"];
    assert!(!error.is_null(), "a refusal, got {element}");
    (
        error["data"]["code"].as_str().unwrap_or_default().to_owned(),
        error["message"].as_str().unwrap_or_default().to_owned(),
    )
}

/// The output's JSON of a successful call.
pub(crate) fn data(element: &Value) -> &Value {
    assert!(element.get("error").is_none(), "a success, got {element}");
    &element["result"]["data"]["json"]
}

/// Sends `input` with one new key twice in a row: both answers are the same success (its
/// superjson, dates included); returns it.
pub(crate) async fn twice(app: &TestApp, cookie: &str, path: &str, input: &Value, dates: &[&str]) -> Value {
    let input = keyed(input, &key());
    let first = call(&app.router, cookie, path, &input, dates).await;
    data(&first);
    let again = call(&app.router, cookie, path, &input, dates).await;
    assert_eq!(again, first, "{path}: the replay answers the first answer");
    first
}

/// Sends `input` with one new key [`TIMES`] times at once: every answer is the same
/// success; returns it.
pub(crate) async fn at_once(app: &TestApp, cookie: &str, path: &'static str, input: &Value, dates: &'static [&'static str]) -> Value {
    let input = Arc::new(keyed(input, &key()));
    let cookie: Arc<str> = cookie.into();
    let calls: Vec<_> = (0..TIMES)
        .map(|_| {
            let (router, input, cookie) = (app.router.clone(), input.clone(), cookie.clone());
            tokio::spawn(async move { call(&router, &cookie, path, &input, dates).await })
        })
        .collect();
    let mut answers = Vec::new();
    for answer in futures_util::future::join_all(calls).await {
        answers.push(answer.expect("the call finished"));
    }
    data(&answers[0]);
    assert!(
        answers.iter().all(|a| *a == answers[0]),
        "{path}: {TIMES} identical answers: {answers:#?}"
    );
    answers.swap_remove(0)
}

/// The same key sent again with other input is refused, in words.
pub(crate) async fn reused_key_is_refused(app: &TestApp, cookie: &str, path: &str, input: &Value, other: &Value) {
    let key = key();
    data(&call(&app.router, cookie, path, &keyed(input, &key), &[]).await);
    let refused = call(&app.router, cookie, path, &keyed(other, &key), &[]).await;
    assert_eq!(
        refusal(&refused),
        ("BAD_REQUEST".to_owned(), KEY_REUSED.to_owned()),
        "{path}"
    );
}

/// A refused first call keeps nothing: the corrected call with the same key goes through.
pub(crate) async fn refusals_are_not_kept(app: &TestApp, cookie: &str, path: &str, bad: &Value, good: &Value) -> Value {
    let key = key();
    let refused = call(&app.router, cookie, path, &keyed(bad, &key), &[]).await;
    assert_eq!(refusal(&refused).0, "BAD_REQUEST", "{path}");
    let again = call(&app.router, cookie, path, &keyed(bad, &key), &[]).await;
    assert_eq!(refusal(&again), refusal(&refused), "{path}: refused again, in the same words");
    let corrected = call(&app.router, cookie, path, &keyed(good, &key), &[]).await;
    data(&corrected).clone()
}

macro_rules! count {
    ($app:expr, $query:expr) => {{
        let mut pooled = $app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| $query.count().get_result::<i64>(c).await).expect("count")
    }};
}

async fn jobs_of_kind(app: &TestApp, kind: &str) -> i64 {
    count!(app, jobs::table.filter(jobs::kind.eq(kind)))
}

async fn keys_of(app: &TestApp, user_id: &str) -> i64 {
    count!(app, idempotency_keys::table.filter(idempotency_keys::user_id.eq(user_id)))
}

// ---------------------------------------------------------------------------------------
// The key itself

dual_test!(
    async fn keys_not_of_the_browsers_form_are_refused_and_no_key_behaves_as_before(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let comment = json!({"studentId": w.pupils[0], "comment": "Kind to others."});
        for bad in [json!("short"), json!("a".repeat(101)), json!("spaces are not allowed here"), json!(42)] {
            let mut input = comment.clone();
            input["idempotencyKey"] = bad.clone();
            let refused = call(&app.router, cookie, "student.addComment", &input, &[]).await;
            assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), BAD_KEY.to_owned()), "{bad}");
        }
        assert_eq!(count!(app, student_comments::table), 0);
        // Without a key, or with null, each call is a new comment, as before.
        data(&call(&app.router, cookie, "student.addComment", &comment, &[]).await);
        let mut null_key = comment.clone();
        null_key["idempotencyKey"] = Value::Null;
        data(&call(&app.router, cookie, "student.addComment", &null_key, &[]).await);
        assert_eq!(count!(app, student_comments::table), 2);
        assert_eq!(keys_of(&app, &w.teacher.id).await, 0);
        // A key is the caller's own: another user's same key is another request.
        let shared = key();
        data(&call(&app.router, cookie, "student.addComment", &keyed(&comment, &shared), &[]).await);
        data(&call(&app.router, &w.colleague.cookie, "student.addComment", &keyed(&comment, &shared), &[]).await);
        assert_eq!(count!(app, student_comments::table), 4);
        // One key for two procedures is refused.
        let refused = call(
            &app.router,
            cookie,
            "task.submit",
            &json!({"id": "nope", "idempotencyKey": shared}),
            &[],
        )
        .await;
        assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), KEY_REUSED.to_owned()));
    }
);

dual_test!(
    async fn keys_older_than_seven_days_are_swept(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let comment = json!({"studentId": w.pupils[0], "comment": "Kind to others."});
        let old = keyed(&comment, &key());
        let first = call(&app.router, cookie, "student.addComment", &old, &[]).await;
        data(&call(&app.router, cookie, "student.addComment", &keyed(&comment, &key()), &[]).await);
        assert_eq!(keys_of(&app, &w.teacher.id).await, 2);
        // Each stored answer queues the day's sweep, once.
        assert_eq!(jobs_of_kind(&app, "idempotency.sweep").await, 1);
        // The first key was stored 7 days and a minute ago.
        let mut pooled = app.db.conn().await.expect("connection");
        let long_ago = now() - chrono::Duration::days(7) - chrono::Duration::minutes(1);
        let old_key = old["idempotencyKey"].as_str().expect("key").to_owned();
        with_conn!(pooled.db(), |c| diesel::update(
            idempotency_keys::table.filter(idempotency_keys::key.eq(&old_key))
        )
        .set(idempotency_keys::created_at.eq(long_ago))
        .execute(c)
        .await)
        .expect("age");
        drop(pooled);
        // Before its keeping time ends a replay still gets the first answer…
        let swept = voicemark::jobs::idempotency_sweep::sweep(&app.state, long_ago + chrono::Duration::days(7) - chrono::Duration::seconds(1))
            .await
            .expect("sweep");
        assert_eq!(swept, 0);
        assert_eq!(call(&app.router, cookie, "student.addComment", &old, &[]).await, first);
        // …and after it the key is gone (the outbox never replays that late).
        let swept = voicemark::jobs::idempotency_sweep::sweep(&app.state, now()).await.expect("sweep");
        assert_eq!(swept, 1);
        assert_eq!(keys_of(&app, &w.teacher.id).await, 1);
        // The queued sweep runs as a job.
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::update(jobs::table.filter(jobs::kind.eq("idempotency.sweep")))
            .set(jobs::run_at.eq(now()))
            .execute(c)
            .await)
        .expect("due");
        drop(pooled);
        assert!(crate::sending::drain(&app.state).await >= 1);
        let done = count!(app, jobs::table
            .filter(jobs::kind.eq("idempotency.sweep"))
            .filter(jobs::status.eq("DONE")));
        assert_eq!(done, 1);
    }
);

// ---------------------------------------------------------------------------------------
// One test per procedure

dual_test!(
    async fn feedback_mark_is_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        hand_in(&app, &w.submissions[0], "Amelia's letter").await.data();
        hand_in(&app, &w.submissions[1], "Oliver's letter").await.data();
        let cookie = &w.teacher.cookie;
        let mark = |submission: &str, feedback: &str| {
            json!({"submissionId": submission, "feedback": feedback, "sentiment": "POSITIVE"})
        };
        // A refused first call (no feedback) keeps nothing: refused again in the same words,
        // and the corrected call with the same key marks.
        let first_key = key();
        let empty = keyed(&mark(&w.submissions[0].0, " "), &first_key);
        let refused = call(&app.router, cookie, "feedback.mark", &empty, &[]).await;
        assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), "Write your feedback.".to_owned()));
        assert_eq!(call(&app.router, cookie, "feedback.mark", &empty, &[]).await, refused);
        let input = keyed(&mark(&w.submissions[0].0, "A clear letter."), &first_key);
        let first = call(&app.router, cookie, "feedback.mark", &input, &[]).await;
        assert_eq!(data(&first)["feedback"], "A clear letter.");
        assert!(first["result"]["data"]["meta"]["values"]["markedAt"].is_array(), "{first}");
        // The replay answers the first answer (without a key it would be refused as marked).
        assert_eq!(call(&app.router, cookie, "feedback.mark", &input, &[]).await, first);
        at_once(&app, cookie, "feedback.mark", &mark(&w.submissions[1].0, "Well argued."), &[]).await;
        // One audit row and one e-mail job per marking.
        assert_eq!(count!(app, audit_log::table.filter(audit_log::entity.eq("submission"))), 2);
        assert_eq!(jobs_of_kind(&app, "feedback.email").await, 2);
        // Another key is another request: refused as before (released at marking, so it
        // can no longer change: docs/feedback-release.md).
        let again = call(&app.router, cookie, "feedback.mark", &keyed(&mark(&w.submissions[0].0, "A clear letter."), &key()), &[]).await;
        assert_eq!(refusal(&again), ("BAD_REQUEST".to_owned(), "This feedback has been released and can no longer be changed.".to_owned()));
        // The same key for other feedback is refused.
        let other = keyed(&mark(&w.submissions[0].0, "Another view."), &first_key);
        let refused = call(&app.router, cookie, "feedback.mark", &other, &[]).await;
        assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), KEY_REUSED.to_owned()));
        assert_eq!(keys_of(&app, &w.teacher.id).await, 2);
    }
);

dual_test!(
    async fn student_add_comment_is_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let comment = json!({"studentId": w.pupils[0], "comment": "Kind to others."});
        let first = twice(&app, cookie, "student.addComment", &comment, &[]).await;
        assert_eq!(data(&first)["comment"], "Kind to others.");
        at_once(&app, cookie, "student.addComment", &comment, &[]).await;
        assert_eq!(count!(app, student_comments::table), 2);
        assert_eq!(count!(app, audit_log::table.filter(audit_log::entity.eq("student_comment"))), 2);
        reused_key_is_refused(&app, cookie, "student.addComment", &comment, &json!({"studentId": w.pupils[0], "comment": "Other."})).await;
        let good = refusals_are_not_kept(&app, cookie, "student.addComment", &json!({"studentId": w.pupils[0], "comment": "  "}), &comment).await;
        assert_eq!(good["comment"], "Kind to others.");
        assert_eq!(count!(app, student_comments::table), 4);
    }
);

dual_test!(
    async fn notification_create_is_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let due = (chrono::Utc::now() + chrono::Duration::days(3))
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let message = json!({
            "type": "ASSIGNMENT", "title": "Persuasive letter", "customTitle": null,
            "body": "<p>Write a letter.</p>", "sendDate": null, "submissionDueDate": due,
            "sendToPupil": true, "sendToParent": false,
            "filters": {"classes": [w.class_id], "yearGroups": [], "formGroups": [], "students": []},
        });
        let before = count!(app, notifications::table);
        let sends = jobs_of_kind(&app, "notification.send").await;
        const DATES: &[&str] = &["sendDate", "submissionDueDate"];
        let first = twice(&app, cookie, "notification.create", &message, DATES).await;
        assert_eq!(data(&first)["title"], "Persuasive letter");
        at_once(&app, cookie, "notification.create", &message, DATES).await;
        assert_eq!(count!(app, notifications::table), before + 2);
        assert_eq!(jobs_of_kind(&app, "notification.send").await, sends + 2);
        let mut other = message.clone();
        other["title"] = json!("Another letter");
        let used = key();
        data(&call(&app.router, cookie, "notification.create", &keyed(&message, &used), DATES).await);
        let refused = call(&app.router, cookie, "notification.create", &keyed(&other, &used), DATES).await;
        assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), KEY_REUSED.to_owned()));
        let mut untitled = message.clone();
        untitled["title"] = json!(" ");
        let corrected = key();
        let refused = call(&app.router, cookie, "notification.create", &keyed(&untitled, &corrected), DATES).await;
        assert_eq!(refusal(&refused).1, "Enter a title.");
        data(&call(&app.router, cookie, "notification.create", &keyed(&message, &corrected), DATES).await);
        assert_eq!(count!(app, notifications::table), before + 4);
    }
);

/// The stored version of the answer to question `q`.
async fn version(app: &TestApp, q: &str) -> i32 {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| question_responses::table
        .filter(question_responses::question_id.eq(q))
        .select(question_responses::version)
        .first::<i32>(c)
        .await)
    .expect("version")
}

pub(crate) async fn items_in_task(app: &TestApp, task_id: &str) -> i64 {
    count!(app, task_items::table.filter(task_items::submission_id.eq(task_id)))
}

/// A question on the template of task `task_id`; returns its id.
async fn question(app: &TestApp, task_id: &str, required: bool) -> String {
    let mut pooled = app.db.conn().await.expect("connection");
    let template: String = with_conn!(pooled.db(), |c| task_submissions::table
        .find(task_id)
        .select(task_submissions::task_id)
        .first(c)
        .await)
    .expect("template");
    let id = new_id();
    let at = now();
    with_conn!(pooled.db(), |c| diesel::insert_into(questions::table)
        .values((
            questions::id.eq(&id),
            questions::created_at.eq(at),
            questions::updated_at.eq(at),
            questions::text.eq("What went well?"),
            questions::type_.eq("TEXTAREA"),
            questions::required.eq(required),
            questions::position.eq(0),
            questions::task_id.eq(&template),
        ))
        .execute(c)
        .await)
    .expect("question");
    id
}

dual_test!(
    async fn task_save_and_submit_are_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let task_id = task(&app, &w.school, &w.teacher.id).await;
        let q = question(&app, &task_id, true).await;
        let save = |text: &str, base: i32| {
            json!({"id": task_id, "answers": [{"questionId": q, "answer": text, "baseVersion": base}]})
        };
        // Saved once: the replay does not save over itself (which would be a conflict).
        let first = twice(&app, cookie, "task.save", &save("Clear starter.", 0), &[]).await;
        assert_eq!(data(&first)["conflicts"], json!([]));
        assert_eq!(data(&first)["answers"][0]["version"], 1);
        assert_eq!(version(&app, &q).await, 1);
        let eight = at_once(&app, cookie, "task.save", &save("Clear starter, good pace.", 1), &[]).await;
        assert_eq!(data(&eight)["conflicts"], json!([]));
        assert_eq!(version(&app, &q).await, 2);
        reused_key_is_refused(&app, cookie, "task.save", &save("Third.", 2), &save("Fourth.", 3)).await;
        let long = "a".repeat(core_wasm::limits::MAX_ANSWER_CHARS + 1);
        refusals_are_not_kept(&app, cookie, "task.save", &save(&long, 3), &save("Fourth.", 3)).await;
        assert_eq!(version(&app, &q).await, 4);

        let submit = json!({"id": task_id});
        let first = twice(&app, cookie, "task.submit", &submit, &[]).await;
        let eight = at_once(&app, cookie, "task.submit", &submit, &[]).await;
        assert_ne!(data(&first)["submittedAt"], Value::Null);
        let mut pooled = app.db.conn().await.expect("connection");
        let (draft, submitted): (bool, Option<chrono::NaiveDateTime>) = with_conn!(pooled.db(), |c| task_submissions::table
            .find(&task_id)
            .select((task_submissions::draft, task_submissions::submitted_at))
            .first(c)
            .await)
        .expect("task");
        assert!(!draft);
        let submitted = submitted.expect("submitted").and_utc().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        assert_eq!(data(&eight)["submittedAt"], json!(submitted), "the last submit is the one stored");
    }
);

dual_test!(
    async fn task_content_additions_are_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let task_id = task(&app, &w.school, &w.teacher.id).await;

        // Photo notes.
        let notes = json!({"taskId": task_id, "name": "Board notes", "notes": "Fractions: 1/2 = 2/4."});
        let first = twice(&app, cookie, "taskContent.addPhotoNotes", &notes, &[]).await;
        assert_eq!(data(&first)["kind"], "PHOTO_NOTES");
        at_once(&app, cookie, "taskContent.addPhotoNotes", &notes, &[]).await;
        assert_eq!(items_in_task(&app, &task_id).await, 2);
        let mut other = notes.clone();
        other["name"] = json!("Other notes");
        reused_key_is_refused(&app, cookie, "taskContent.addPhotoNotes", &notes, &other).await;
        let mut empty = notes.clone();
        empty["notes"] = json!(" ");
        refusals_are_not_kept(&app, cookie, "taskContent.addPhotoNotes", &empty, &notes).await;
        assert_eq!(items_in_task(&app, &task_id).await, 4);

        // Task files: one stored file and one item per key.
        let files_before = count!(app, stored_files::table);
        let file = |name: &str| json!({"filename": name, "contentType": "audio/wav", "taskId": task_id, "size": 44});
        let ticket = twice(&app, cookie, "leader.uploadTaskFile", &file("take-1.wav"), &[]).await;
        let eight = at_once(&app, cookie, "leader.uploadTaskFile", &file("take-2.wav"), &[]).await;
        assert_ne!(data(&ticket)["key"], data(&eight)["key"]);
        assert_eq!(count!(app, stored_files::table), files_before + 2);
        assert_eq!(items_in_task(&app, &task_id).await, 6);
        reused_key_is_refused(&app, cookie, "leader.uploadTaskFile", &file("take-3.wav"), &file("take-4.wav")).await;
        let mut too_large = file("take-5.wav");
        too_large["size"] = json!(core_wasm::limits::MAX_UPLOAD_BYTES + 1);
        refusals_are_not_kept(&app, cookie, "leader.uploadTaskFile", &too_large, &file("take-5.wav")).await;
        assert_eq!(items_in_task(&app, &task_id).await, 8);

        // A recording: the uploaded file marked as one, with its transcript.
        let ticket = data(&ticket).clone();
        put(&app, &ticket, vec![0u8; 44]).await;
        let recording = json!({"taskId": task_id, "key": ticket["key"], "transcript": "We read chapter two."});
        let first = twice(&app, cookie, "taskContent.addRecording", &recording, &[]).await;
        assert_eq!(data(&first)["text"], "We read chapter two.");
        at_once(&app, cookie, "taskContent.addRecording", &recording, &[]).await;
        assert_eq!(items_in_task(&app, &task_id).await, 8);
        let mut other = recording.clone();
        other["transcript"] = json!("We read chapter three.");
        reused_key_is_refused(&app, cookie, "taskContent.addRecording", &recording, &other).await;

        // Voice notes: uploaded, filed in the personal folder, then pulled into the task.
        let note = json!({"filename": "note.webm", "contentType": "audio/webm", "size": 400});
        let ticket = twice(&app, cookie, "leader.uploadVoiceNote", &note, &[]).await;
        let ticket = data(&ticket).clone();
        at_once(&app, cookie, "leader.uploadVoiceNote", &note, &[]).await;
        assert_eq!(count!(app, stored_files::table), files_before + 2 + 2 + 2);
        put(&app, &ticket, vec![7u8; 400]).await;
        let transfer = json!({"key": ticket["key"]});
        let filed = twice(&app, cookie, "leader.transferVoiceNoteToPersonalFolder", &transfer, &[]).await;
        let filed_again = at_once(&app, cookie, "leader.transferVoiceNoteToPersonalFolder", &transfer, &[]).await;
        assert_eq!(data(&filed)["id"], data(&filed_again)["id"]);
        let note_id = data(&filed)["id"].clone();
        let pull = json!({"taskId": task_id, "voiceNoteIds": [note_id]});
        let first = twice(&app, cookie, "taskContent.addVoiceNotes", &pull, &[]).await;
        assert_eq!(data(&first)["added"], 1);
        // Another key: the note is already in the task, nothing is added.
        let eight = at_once(&app, cookie, "taskContent.addVoiceNotes", &pull, &[]).await;
        assert_eq!(data(&eight)["added"], 0);
        assert_eq!(items_in_task(&app, &task_id).await, 9);
        let refused = refusals_are_not_kept(
            &app,
            cookie,
            "taskContent.addVoiceNotes",
            &json!({"taskId": task_id, "voiceNoteIds": []}),
            &pull,
        )
        .await;
        assert_eq!(refused["added"], 0);
    }
);

dual_test!(
    async fn user_upload_file_is_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let before = count!(app, stored_files::table);
        let file = |name: &str| json!({"filename": name, "contentType": "application/pdf", "size": 1000});
        twice(&app, cookie, "user.uploadFile", &file("plan.pdf"), &[]).await;
        at_once(&app, cookie, "user.uploadFile", &file("plan-2.pdf"), &[]).await;
        assert_eq!(count!(app, stored_files::table), before + 2);
        reused_key_is_refused(&app, cookie, "user.uploadFile", &file("a.pdf"), &file("b.pdf")).await;
        refusals_are_not_kept(&app, cookie, "user.uploadFile", &file("   "), &file("c.pdf")).await;
        assert_eq!(count!(app, stored_files::table), before + 4);

        // A replay after the upload URL expired gets the same file's upload signed anew.
        let input = keyed(&file("late.pdf"), &key());
        let first = call(&app.router, cookie, "user.uploadFile", &input, &[]).await;
        let mut pooled = app.db.conn().await.expect("connection");
        let user_id = w.teacher.id.clone();
        with_conn!(pooled.db(), |c| diesel::update(
            idempotency_keys::table.filter(idempotency_keys::user_id.eq(&user_id))
                .filter(idempotency_keys::key.eq(input["idempotencyKey"].as_str().expect("key")))
        )
        .set(idempotency_keys::response.eq(
            serde_json::to_string(&json!({"json": {
                "key": data(&first)["key"], "url": "http://expired.test/", "headers": data(&first)["headers"],
                "expiresAt": "2020-01-01T00:00:00.000Z"
            }, "meta": {"values": {"expiresAt": ["Date"]}, "v": 1}})).expect("json")
        ))
        .execute(c)
        .await)
        .expect("expire");
        drop(pooled);
        let late = call(&app.router, cookie, "user.uploadFile", &input, &[]).await;
        assert_eq!(data(&late)["key"], data(&first)["key"], "the same file");
        assert_ne!(data(&late)["url"], "http://expired.test/", "signed anew");
        assert_eq!(count!(app, stored_files::table), before + 5);
    }
);

// ---------------------------------------------------------------------------------------
// notification.analyseImage: the provider is called once per key

dual_test!(
    async fn analyse_image_calls_the_provider_once_per_key(app: TestApp) {
        let answer = "Strengths: clear working.";
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Held(gate.clone(), answer)).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let (user_id, cookie) = teacher(&app).await;
        let photo = json!({"images": [b64(&jpeg(1))], "prompt": "Mark this."});
        let input = keyed(&photo, &key());

        // The first call waits at the provider; a replay meanwhile is told to try later.
        let first = {
            let (routes, cookie, input) = (routes.clone(), cookie.clone(), input.clone());
            tokio::spawn(async move { call(&routes, &cookie, "notification.analyseImage", &input, &[]).await })
        };
        while seen.lock().expect("lock").is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let meanwhile = call(&routes, &cookie, "notification.analyseImage", &input, &[]).await;
        assert_eq!(refusal(&meanwhile), ("CONFLICT".to_owned(), IN_PROGRESS.to_owned()));
        gate.add_permits(1_000);
        let first = first.await.expect("the first call");
        assert_eq!(data(&first), &json!({"text": answer}));
        // After it, the replay gets the stored answer: still one provider call, one row.
        let replay = call(&routes, &cookie, "notification.analyseImage", &input, &[]).await;
        assert_eq!(replay, first);
        assert_eq!(seen.lock().expect("lock").len(), 1);
        assert_eq!(count!(app, assistant_queries::table.filter(assistant_queries::user_id.eq(&user_id))), 1);

        // Eight at once with a new key: one provider call; each answer is the text or "wait".
        let input = Arc::new(keyed(&photo, &key()));
        let calls: Vec<_> = (0..TIMES)
            .map(|_| {
                let (routes, cookie, input) = (routes.clone(), cookie.clone(), input.clone());
                tokio::spawn(async move { call(&routes, &cookie, "notification.analyseImage", &input, &[]).await })
            })
            .collect();
        for answer in futures_util::future::join_all(calls).await {
            let answer = answer.expect("the call");
            if answer.get("error").is_some() {
                assert_eq!(refusal(&answer), ("CONFLICT".to_owned(), IN_PROGRESS.to_owned()));
            } else {
                assert_eq!(answer, first);
            }
        }
        assert_eq!(call(&routes, &cookie, "notification.analyseImage", &input, &[]).await, first);
        assert_eq!(seen.lock().expect("lock").len(), 2);
        assert_eq!(count!(app, assistant_queries::table.filter(assistant_queries::user_id.eq(&user_id))), 2);

        // The same key for other photos is refused without calling the provider.
        let other = keyed(&json!({"images": [b64(&jpeg(2))], "prompt": "Mark this."}), input["idempotencyKey"].as_str().expect("key"));
        let refused = call(&routes, &cookie, "notification.analyseImage", &other, &[]).await;
        assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), KEY_REUSED.to_owned()));
        assert_eq!(seen.lock().expect("lock").len(), 2);

        // A refused call keeps nothing: the corrected call with the same key runs.
        let key = key();
        let refused = call(&routes, &cookie, "notification.analyseImage", &keyed(&json!({"images": [], "prompt": ""}), &key), &[]).await;
        assert_eq!(refusal(&refused), ("BAD_REQUEST".to_owned(), "Add at least one photo.".to_owned()));
        let corrected = call(&routes, &cookie, "notification.analyseImage", &keyed(&photo, &key), &[]).await;
        assert_eq!(data(&corrected), &json!({"text": answer}));
        assert_eq!(seen.lock().expect("lock").len(), 3);
    }
);

dual_test!(
    async fn analyse_image_failures_are_not_kept(app: TestApp) {
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::OpenAiError(500, "The server had an error.")).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let (user_id, cookie) = teacher(&app).await;
        let input = keyed(&json!({"images": [b64(&jpeg(1))], "prompt": "Mark this."}), &key());
        let failed = call(&routes, &cookie, "notification.analyseImage", &input, &[]).await;
        assert_eq!(refusal(&failed).0, "INTERNAL_SERVER_ERROR");
        // The retry with the same key asks the provider again (the key was freed).
        let retried = call(&routes, &cookie, "notification.analyseImage", &input, &[]).await;
        assert_eq!(refusal(&retried), refusal(&failed));
        assert!(seen.lock().expect("lock").len() >= 2);
        assert_eq!(keys_of(&app, &user_id).await, 0);
    }
);
