//! A task's content (`leader.uploadTaskFile`, `leader.listTaskFiles`, `taskContent.*`) and
//! the `task.process_item` job: audio transcribed by a stub Deepgram pre-recorded API that
//! checks what the real one would (key, query, type, the file's exact bytes), PDF and Word
//! files read on the server, failures with their reason and Retry, voice notes pulled in,
//! photo notes and recordings, and NOT_FOUND for everyone the task is not shared with.

use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::config::SpeechConfig;
use voicemark::db::schema::{task_collaborators, task_submissions, tasks};
use voicemark::ids::new_id;
use voicemark::jobs::task_process::NOT_SET_UP;
use voicemark::models::now;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{mutate, query, world, World};
use crate::support::TestApp;

const KEY: &str = "dg-prerecorded-key-0123456789";

// ---------------------------------------------------------------------------------------
// The stub Deepgram

#[derive(Default)]
struct Stub {
    /// `Some((status, body))`: answer this error instead of a transcript.
    failure: Option<(u16, String)>,
    /// (content type, body) of every accepted call.
    calls: Vec<(String, Vec<u8>)>,
}

type Shared = Arc<Mutex<Stub>>;

/// Deepgram's real pre-recorded answer, with `transcript`.
fn listen_response(transcript: &str, duration: f64) -> Value {
    json!({
        "metadata": {
            "transaction_key": "deprecated",
            "request_id": "2479c8c8-8185-40ac-9ac6-f0874419f793",
            "sha256": "154e291ecfa8be6ab8343560bcc109008fa7853eb5372533e8efdefc9b504c33",
            "created": "2026-11-24T02:00:00.000Z",
            "duration": duration,
            "channels": 1,
            "models": ["30089e05-99d1-4376-b32e-c263170674af"],
            "model_info": {"30089e05-99d1-4376-b32e-c263170674af": {"name": "2-general-nova", "version": "2024-01-09.29447", "arch": "nova-2"}}
        },
        "results": {"channels": [{"alternatives": [{
            "transcript": transcript,
            "confidence": 0.99,
            "words": [{"word": "hello", "start": 0.08, "end": 0.32, "confidence": 0.99, "punctuated_word": "Hello"}]
        }]}]}
    })
}

async fn listen(
    State(stub): State<Shared>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    if header("authorization") != format!("Token {KEY}") {
        return (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({"err_code": "INVALID_AUTH", "err_msg": "Invalid credentials.", "request_id": "r1"})),
        )
            .into_response();
    }
    let query = query.unwrap_or_default();
    let pairs: Vec<&str> = query.split('&').collect();
    if !pairs.contains(&"model=nova-2") || !pairs.contains(&"smart_format=true") {
        return (StatusCode::BAD_REQUEST, format!("unexpected query {query}")).into_response();
    }
    let content_type = header("content-type");
    if !(content_type.starts_with("audio/") || content_type.starts_with("video/")) {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"category": "INVALID_BODY", "message": "Bad Request: failed to process audio: corrupt or unsupported data", "request_id": "r2"})),
        )
            .into_response();
    }
    let mut stub = stub.lock().expect("stub");
    if let Some((status, body)) = stub.failure.clone() {
        return (
            StatusCode::from_u16(status).expect("status"),
            [("content-type", "application/json")],
            body,
        )
            .into_response();
    }
    let transcript = format!("Transcript of {} bytes of {content_type}.", body.len());
    stub.calls.push((content_type, body.to_vec()));
    axum::Json(listen_response(&transcript, 300.0)).into_response()
}

/// Starts the stub on 127.0.0.1 and points `app` at it.
async fn with_deepgram(app: &mut TestApp) -> Shared {
    let stub: Shared = Arc::default();
    let routes = Router::new()
        .route("/v1/listen", post(listen))
        .layer(axum::extract::DefaultBodyLimit::max(200 * 1024 * 1024))
        .with_state(stub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the stub");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    let mut config = (*app.state.config).clone();
    config.speech = Some(SpeechConfig {
        api_key: KEY.into(),
        url: format!("http://{addr}"),
    });
    let state = AppState::new(app.db.clone(), config).expect("state");
    app.router = voicemark::app::router(state.clone());
    app.state = state;
    stub
}

// ---------------------------------------------------------------------------------------
// Fixtures

/// A task (a template and the teacher's copy of it) owned by `owner` at `school`.
pub(crate) async fn task(app: &TestApp, school: &str, owner: &str) -> String {
    let template = new_id();
    let id = new_id();
    let at = now();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| {
        diesel::insert_into(tasks::table)
            .values((
                tasks::id.eq(&template),
                tasks::created_at.eq(at),
                tasks::updated_at.eq(at),
                tasks::title.eq("Lesson observation"),
                tasks::visibility.eq("PERSONAL"),
                tasks::tags.eq("[]"),
                tasks::user_id.eq(owner),
                tasks::school_id.eq(school),
            ))
            .execute(c)
            .await
            .expect("template");
        diesel::insert_into(task_submissions::table)
            .values((
                task_submissions::id.eq(&id),
                task_submissions::created_at.eq(at),
                task_submissions::updated_at.eq(at),
                task_submissions::draft.eq(true),
                task_submissions::title.eq("Lesson observation: 7B"),
                task_submissions::tags.eq("[]"),
                task_submissions::task_id.eq(&template),
                task_submissions::user_id.eq(owner),
                task_submissions::school_id.eq(school),
            ))
            .execute(c)
            .await
    })
    .expect("task");
    id
}

async fn share(app: &TestApp, task_id: &str, user_id: &str) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(task_collaborators::table)
        .values((
            task_collaborators::submission_id.eq(task_id),
            task_collaborators::user_id.eq(user_id),
            task_collaborators::created_at.eq(now()),
        ))
        .execute(c)
        .await)
    .expect("share");
}

/// Uploads `bytes` as `filename` to the task through its signed URL; returns the key.
async fn upload(
    app: &TestApp,
    cookie: &str,
    task_id: &str,
    filename: &str,
    content_type: &str,
    bytes: Vec<u8>,
) -> String {
    let ticket = mutate(
        app,
        "leader.uploadTaskFile",
        json!({"filename": filename, "contentType": content_type, "taskId": task_id, "size": bytes.len()}),
        Some(cookie),
    )
    .await
    .data()
    .clone();
    put(app, &ticket, bytes).await;
    ticket["key"].as_str().expect("key").to_owned()
}

pub(crate) async fn put(app: &TestApp, ticket: &Value, bytes: Vec<u8>) {
    let mut request = Request::put(ticket["url"].as_str().expect("url"));
    for (name, value) in ticket["headers"].as_object().expect("headers") {
        request = request.header(name.as_str(), value.as_str().expect("value"));
    }
    let response = app
        .request(request.body(Body::from(bytes)).expect("request"))
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
}

async fn items(app: &TestApp, cookie: &str, task_id: &str) -> Vec<Value> {
    query(app, "leader.listTaskFiles", json!({"taskId": task_id}), Some(cookie))
        .await
        .data()
        .as_array()
        .expect("a list")
        .clone()
}

fn named<'a>(items: &'a [Value], name: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("no item {name} in {items:#?}"))
}

/// A WAV header and `seconds` of 16 kHz mono 16-bit silence-ish samples.
fn wav(seconds: u32) -> Vec<u8> {
    let data_len = seconds * 16_000 * 2;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&16_000u32.to_le_bytes());
    out.extend_from_slice(&32_000u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    out.extend((0..data_len).map(|i| (i % 251) as u8));
    out
}

/// A one-page PDF saying `text`, made with lopdf.
fn pdf(text: &str) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{dictionary, Document, Object, Stream};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let content = Content {
        operations: vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 24.into()]),
            Operation::new("Td", vec![72.into(), 700.into()]),
            Operation::new("Tj", vec![Object::string_literal(text)]),
            Operation::new("ET", vec![]),
        ],
    };
    let content_id = doc.add_object(Stream::new(
        dictionary! {},
        content.encode().expect("content"),
    ));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![page_id.into()],
            "Count" => 1,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save the PDF");
    out
}

/// A minimal `.docx`: a zip with `word/document.xml` of two paragraphs.
fn docx() -> Vec<u8> {
    use std::io::Write;
    let xml = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Marking policy</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">Green pen &amp; purple pen</w:t></w:r></w:p></w:body></w:document>"#;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("[Content_Types].xml", options).expect("entry");
    zip.write_all(b"<Types/>").expect("write");
    zip.start_file("word/document.xml", options).expect("entry");
    zip.write_all(xml.as_bytes()).expect("write");
    zip.finish().expect("zip").into_inner()
}

async fn drain(app: &TestApp) -> usize {
    crate::sending::drain(&app.state).await
}

struct Fixture {
    w: World,
    task: String,
}

async fn fixture(app: &TestApp) -> Fixture {
    let w = world(app).await;
    let task = task(app, &w.school, &w.teacher.id).await;
    Fixture { w, task }
}

// ---------------------------------------------------------------------------------------
// Tests

dual_test!(
    async fn an_uploaded_recording_is_streamed_to_deepgram_and_its_transcript_kept(app: TestApp) {
        let mut app = app;
        let stub = with_deepgram(&mut app).await;
        let f = fixture(&app).await;
        let cookie = &f.w.teacher.cookie;
        let audio = wav(3);
        let key = upload(&app, cookie, &f.task, "Lesson 3.wav", "audio/wav", audio.clone()).await;

        let list = items(&app, cookie, &f.task).await;
        let item = named(&list, "Lesson 3.wav");
        assert_eq!(item["kind"], "FILE");
        assert_eq!(item["status"], "QUEUED");
        assert_eq!(item["processing"], "TRANSCRIBE");
        assert_eq!(item["arrived"], true);

        assert_eq!(drain(&app).await, 1);
        let list = items(&app, cookie, &f.task).await;
        let item = named(&list, "Lesson 3.wav");
        assert_eq!(item["status"], "READY", "{item}");
        assert_eq!(
            item["text"],
            format!("Transcript of {} bytes of audio/wav.", audio.len())
        );
        let calls = stub.lock().expect("stub").calls.clone();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].0, "audio/wav");
        assert!(calls[0].1 == audio, "Deepgram got the file's exact bytes");

        // The task's file is not one of the teacher's shared files.
        let files = query(&app, "user.listFiles", Value::Null, Some(cookie)).await;
        assert!(
            !files.data().to_string().contains(&key),
            "{}",
            files.data()
        );
        // A second run finds nothing to do.
        assert_eq!(drain(&app).await, 0);
    }
);

dual_test!(
    async fn a_provider_error_fails_the_item_with_its_message_and_retry_transcribes_it(
        app: TestApp
    ) {
        let mut app = app;
        let stub = with_deepgram(&mut app).await;
        let f = fixture(&app).await;
        let cookie = &f.w.teacher.cookie;
        stub.lock().expect("stub").failure = Some((
            402,
            json!({"err_code": "ASR_PAYMENT_REQUIRED", "err_msg": "Project does not have enough credits for an ASR request.", "request_id": "r3"}).to_string(),
        ));
        upload(&app, cookie, &f.task, "interview.mp3", "audio/mpeg", vec![7u8; 4096]).await;
        drain(&app).await;
        let list = items(&app, cookie, &f.task).await;
        let item = named(&list, "interview.mp3").clone();
        assert_eq!(item["status"], "FAILED");
        assert_eq!(
            item["error"],
            "The speech service answered: Project does not have enough credits for an ASR request."
        );

        stub.lock().expect("stub").failure = None;
        let retried = mutate(
            &app,
            "taskContent.retry",
            json!({"taskId": f.task, "itemId": item["id"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(retried.data()["status"], "QUEUED");
        assert_eq!(retried.data()["error"], Value::Null);
        assert_eq!(drain(&app).await, 1);
        let list = items(&app, cookie, &f.task).await;
        let item = named(&list, "interview.mp3");
        assert_eq!(item["status"], "READY");
        assert_eq!(item["text"], "Transcript of 4096 bytes of audio/mpeg.");

        // Only a failed item can be retried.
        let again = mutate(
            &app,
            "taskContent.retry",
            json!({"taskId": f.task, "itemId": item["id"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(again.code(), "BAD_REQUEST");
        assert_eq!(again.message(), "Only a failed item can be retried.");
    }
);

dual_test!(
    async fn without_deepgram_audio_fails_saying_what_is_missing(app: TestApp) {
        let f = fixture(&app).await;
        let cookie = &f.w.teacher.cookie;
        upload(&app, cookie, &f.task, "memo.webm", "audio/webm", vec![1u8; 100]).await;
        drain(&app).await;
        let list = items(&app, cookie, &f.task).await;
        let item = named(&list, "memo.webm");
        assert_eq!(item["status"], "FAILED");
        assert_eq!(item["error"], NOT_SET_UP);
    }
);

dual_test!(
    async fn pdf_word_and_text_files_give_their_text_and_a_corrupt_pdf_a_reason(app: TestApp) {
        let f = fixture(&app).await;
        let cookie = &f.w.teacher.cookie;
        upload(&app, cookie, &f.task, "policy.pdf", "application/pdf", pdf("Feedback policy 2026")).await;
        upload(
            &app,
            cookie,
            &f.task,
            "marking.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            docx(),
        )
        .await;
        upload(&app, cookie, &f.task, "notes.txt", "text/plain", b"Seating plan: rows A-D".to_vec()).await;
        upload(&app, cookie, &f.task, "broken.pdf", "application/pdf", b"%PDF-1.7\n1 0 obj << /Type /Cat".to_vec()).await;
        upload(&app, cookie, &f.task, "photo.png", "image/png", vec![0x89, b'P', b'N', b'G']).await;
        assert_eq!(drain(&app).await, 5);

        let list = items(&app, cookie, &f.task).await;
        let pdf_item = named(&list, "policy.pdf");
        assert_eq!(pdf_item["status"], "READY", "{pdf_item}");
        assert_eq!(pdf_item["processing"], "EXTRACT");
        assert!(
            pdf_item["text"].as_str().unwrap_or("").contains("Feedback policy 2026"),
            "{pdf_item}"
        );
        let word = named(&list, "marking.docx");
        assert_eq!(word["status"], "READY", "{word}");
        assert_eq!(word["text"], "Marking policy\nGreen pen & purple pen");
        assert_eq!(named(&list, "notes.txt")["text"], "Seating plan: rows A-D");
        let broken = named(&list, "broken.pdf");
        assert_eq!(broken["status"], "FAILED");
        assert_eq!(
            broken["error"],
            voicemark::jobs::task_extract::PDF_UNREADABLE
        );
        let photo = named(&list, "photo.png");
        assert_eq!(photo["status"], "READY");
        assert_eq!(photo["processing"], "NONE");
        assert_eq!(photo["text"], Value::Null);
    }
);

dual_test!(
    async fn voice_notes_photo_notes_and_recordings_join_the_task(app: TestApp) {
        let mut app = app;
        let stub = with_deepgram(&mut app).await;
        let f = fixture(&app).await;
        let cookie = &f.w.teacher.cookie;

        // A voice note in the teacher's personal folder.
        let ticket = mutate(
            &app,
            "leader.uploadVoiceNote",
            json!({"filename": "Walkthrough.webm", "contentType": "audio/webm", "size": 300}),
            Some(cookie),
        )
        .await
        .data()
        .clone();
        put(&app, &ticket, vec![3u8; 300]).await;
        let note = mutate(
            &app,
            "leader.transferVoiceNoteToPersonalFolder",
            json!({"key": ticket["key"]}),
            Some(cookie),
        )
        .await
        .data()["id"]
            .clone();
        let pickable = query(&app, "taskContent.voiceNotes", json!({"taskId": f.task}), Some(cookie)).await;
        assert_eq!(pickable.data()["notes"][0]["id"], note);
        assert_eq!(pickable.data()["notes"][0]["added"], false);
        assert_eq!(pickable.data()["total"], 1);
        assert!(pickable.data()["nextCursor"].is_null());
        let added = mutate(
            &app,
            "taskContent.addVoiceNotes",
            json!({"taskId": f.task, "voiceNoteIds": [note]}),
            Some(cookie),
        )
        .await;
        assert_eq!(added.data()["added"], 1);
        let again = mutate(
            &app,
            "taskContent.addVoiceNotes",
            json!({"taskId": f.task, "voiceNoteIds": [note]}),
            Some(cookie),
        )
        .await;
        assert_eq!(again.data()["added"], 0);
        let pickable = query(&app, "taskContent.voiceNotes", json!({"taskId": f.task}), Some(cookie)).await;
        assert_eq!(pickable.data()["notes"][0]["added"], true);

        // Photo notes: ready at once; a name is required.
        let photos = mutate(
            &app,
            "taskContent.addPhotoNotes",
            json!({"taskId": f.task, "name": "Board notes", "notes": "1. Starter\n2. Plenary"}),
            Some(cookie),
        )
        .await;
        assert_eq!(photos.data()["status"], "READY");
        assert_eq!(photos.data()["kind"], "PHOTO_NOTES");
        let nameless = mutate(
            &app,
            "taskContent.addPhotoNotes",
            json!({"taskId": f.task, "name": " ", "notes": "x"}),
            Some(cookie),
        )
        .await;
        assert_eq!(nameless.field_error("name"), "Give the notes a name.");

        // A recording with the drawer's transcript: READY, never sent to Deepgram.
        let recording = upload(&app, cookie, &f.task, "Recording.wav", "audio/wav", wav(1)).await;
        let recorded = mutate(
            &app,
            "taskContent.addRecording",
            json!({"taskId": f.task, "key": recording, "transcript": "Well done, 7B."}),
            Some(cookie),
        )
        .await;
        assert_eq!(recorded.data()["kind"], "RECORDING");
        assert_eq!(recorded.data()["status"], "READY");
        assert_eq!(recorded.data()["text"], "Well done, 7B.");

        drain(&app).await;
        let list = items(&app, cookie, &f.task).await;
        assert_eq!(list.len(), 3);
        let voice = named(&list, "Walkthrough.webm");
        assert_eq!(voice["kind"], "VOICE_NOTE");
        assert_eq!(voice["status"], "READY");
        assert_eq!(voice["text"], "Transcript of 300 bytes of audio/webm.");
        assert_eq!(named(&list, "Recording.wav")["text"], "Well done, 7B.");
        assert_eq!(stub.lock().expect("stub").calls.len(), 1);

        // Removing: the recording goes from the store; the voice note stays the teacher's.
        for item in &list {
            let removed = mutate(
                &app,
                "taskContent.remove",
                json!({"taskId": f.task, "itemId": item["id"]}),
                Some(cookie),
            )
            .await;
            assert_eq!(removed.data()["id"], item["id"]);
        }
        assert!(items(&app, cookie, &f.task).await.is_empty());
        assert!(!app.dir.join("files").join(&recording).exists());
        let notes = query(&app, "voiceNote.list", Value::Null, Some(cookie)).await;
        assert_eq!(notes.data()["notes"][0]["id"], note);
    }
);

dual_test!(
    async fn only_the_owner_and_collaborators_reach_a_tasks_content(app: TestApp) {
        let f = fixture(&app).await;
        let owner = &f.w.teacher.cookie;
        upload(&app, owner, &f.task, "plan.txt", "text/plain", b"plan".to_vec()).await;
        let item = items(&app, owner, &f.task).await[0]["id"].clone();
        let calls: Vec<(&str, Value, bool)> = vec![
            ("leader.listTaskFiles", json!({"taskId": f.task}), false),
            (
                "leader.uploadTaskFile",
                json!({"taskId": f.task, "filename": "a.txt", "contentType": "text/plain"}),
                true,
            ),
            ("taskContent.voiceNotes", json!({"taskId": f.task}), false),
            (
                "taskContent.addVoiceNotes",
                json!({"taskId": f.task, "voiceNoteIds": ["x"]}),
                true,
            ),
            (
                "taskContent.addPhotoNotes",
                json!({"taskId": f.task, "name": "n", "notes": "t"}),
                true,
            ),
            (
                "taskContent.addRecording",
                json!({"taskId": f.task, "key": "k"}),
                true,
            ),
            ("taskContent.remove", json!({"taskId": f.task, "itemId": item}), true),
            ("taskContent.retry", json!({"taskId": f.task, "itemId": item}), true),
        ];
        for cookie in [&f.w.stranger.cookie, &f.w.colleague.cookie] {
            for (path, input, is_mutation) in &calls {
                let answer = if *is_mutation {
                    mutate(&app, path, input.clone(), Some(cookie)).await
                } else {
                    query(&app, path, input.clone(), Some(cookie)).await
                };
                assert_eq!(answer.code(), "NOT_FOUND", "{path}: {}", answer.body);
            }
        }
        // Shared with the colleague: now they see it.
        share(&app, &f.task, &f.w.colleague.id).await;
        assert_eq!(items(&app, &f.w.colleague.cookie, &f.task).await.len(), 1);
        // Another task's item id is NOT_FOUND even for the owner.
        let other = task(&app, &f.w.school, &f.w.teacher.id).await;
        let answer = mutate(
            &app,
            "taskContent.remove",
            json!({"taskId": other, "itemId": item}),
            Some(owner),
        )
        .await;
        assert_eq!(answer.code(), "NOT_FOUND");
        // Types outside the shared list are refused on the field.
        let html = mutate(
            &app,
            "leader.uploadTaskFile",
            json!({"taskId": f.task, "filename": "a.html", "contentType": "text/html"}),
            Some(owner),
        )
        .await;
        assert_eq!(
            html.field_error("contentType"),
            core_wasm::uploads::FILE_TYPE_REFUSED
        );
    }
);

/// Ten 5-minute recordings (16 kHz mono WAV, 9.6 MB each) through the job against the
/// stub: prints the throughput for docs/leaders.md. `cargo test --test it -- --ignored
/// transcription_throughput --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check"]
async fn transcription_throughput_of_ten_five_minute_files() {
    let mut app = TestApp::new(crate::support::TestBackend::Sqlite).await;
    let stub = with_deepgram(&mut app).await;
    let f = fixture(&app).await;
    let cookie = &f.w.teacher.cookie;
    let audio = wav(300);
    for i in 0..10 {
        upload(&app, cookie, &f.task, &format!("lesson-{i}.wav"), "audio/wav", audio.clone()).await;
    }
    let started = std::time::Instant::now();
    assert_eq!(drain(&app).await, 10);
    let took = started.elapsed();
    let megabytes = (audio.len() * 10) as f64 / 1_000_000.0;
    assert_eq!(stub.lock().expect("stub").calls.len(), 10);
    println!(
        "10 x 5-minute WAV ({megabytes:.1} MB) transcribed in {:.2} s: {:.1} MB/s, {:.0} audio-minutes per second (one worker, stub Deepgram)",
        took.as_secs_f64(),
        megabytes / took.as_secs_f64(),
        50.0 / took.as_secs_f64()
    );
}

pub(crate) async fn voice_note(app: &TestApp, cookie: &str, name: &str) -> (String, String) {
    let ticket = mutate(
        app,
        "leader.uploadVoiceNote",
        json!({"filename": name, "contentType": "audio/webm", "size": 400}),
        Some(cookie),
    )
    .await
    .data()
    .clone();
    put(app, &ticket, vec![7u8; 400]).await;
    let id = mutate(
        app,
        "leader.transferVoiceNoteToPersonalFolder",
        json!({"key": ticket["key"]}),
        Some(cookie),
    )
    .await
    .data()["id"]
        .as_str()
        .expect("id")
        .to_owned();
    (id, ticket["key"].as_str().expect("key").to_owned())
}

pub(crate) async fn report_note(app: &TestApp, cookie: &str, id: &str) -> Value {
    let sources = query(app, "report.sources", json!({}), Some(cookie)).await;
    sources.data()["voiceNotes"]
        .as_array()
        .expect("voice notes")
        .iter()
        .find(|n| n["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("note {id} missing in {}", sources.data()))
}

dual_test!(
    async fn a_filed_voice_note_is_transcribed_for_reports_and_can_be_asked_again(app: TestApp) {
        // Without a speech provider: filed, not transcribed, and asking says what to set.
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let (early, _) = voice_note(&app, cookie, "Before setup.webm").await;
        assert_eq!(drain(&app).await, 0, "nothing is queued without Deepgram");
        assert_eq!(report_note(&app, cookie, &early).await["hasTranscript"], false);
        let refused = mutate(&app, "voiceNote.transcribe", json!({"id": early}), Some(cookie)).await;
        assert_eq!(refused.code(), "PRECONDITION_FAILED");
        assert_eq!(refused.message(), NOT_SET_UP);

        // With Deepgram: a newly filed note is transcribed by the job it queued.
        let mut app = app;
        let stub = with_deepgram(&mut app).await;
        let (id, key) = voice_note(&app, cookie, "Learning walk.webm").await;
        assert_eq!(drain(&app).await, 1);
        let note = report_note(&app, cookie, &id).await;
        assert_eq!(note["hasTranscript"], true, "{note}");
        assert!(
            note["preview"]
                .as_str()
                .expect("preview")
                .starts_with("Transcript of 400 bytes of audio/webm"),
            "{note}"
        );
        assert_eq!(stub.lock().expect("stub").calls.len(), 1);
        assert!(key.contains("/voice-notes/"));

        // The note from before is transcribed when asked; a colleague cannot ask for it.
        let other = mutate(&app, "voiceNote.transcribe", json!({"id": early}), Some(&w.admin.cookie)).await;
        assert_eq!(other.code(), "NOT_FOUND");
        mutate(&app, "voiceNote.transcribe", json!({"id": early}), Some(cookie))
            .await
            .data();
        assert_eq!(drain(&app).await, 1);
        assert_eq!(report_note(&app, cookie, &early).await["hasTranscript"], true);
        // Asking again once it has a transcript runs a job that finds nothing to do.
        mutate(&app, "voiceNote.transcribe", json!({"id": early}), Some(cookie))
            .await
            .data();
        assert_eq!(drain(&app).await, 1);
        assert_eq!(stub.lock().expect("stub").calls.len(), 2);
    }
);
