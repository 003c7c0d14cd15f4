//! AI autofill (`POST /api/tasks/{id}/autofill`, Server-Sent Events) and AI Formatting
//! (`ai.formatAnswer`) against a stub OpenAI-compatible chat server on loopback that speaks
//! the real wire format (openai-compatible-vision.md §2–4): non-streamed completions and SSE
//! streams cut mid-word and mid-JSON, with a usage-only chunk and `[DONE]`.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use core_wasm::UserRole;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::app::router;
use voicemark::config::{ChatConfig, StructuredOutput};
use voicemark::ids::new_id;
use voicemark::rpc::ai::prompt::NOT_SET_UP;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::support::{make_school, send, session_cookie, TestApp, TestResponse};

// ---------------------------------------------------------------------------------------
// The stub chat server

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavour {
    /// Takes every `response_format`; answers plain JSON.
    Plain,
    /// 400 for any `response_format` (an older server): only a request without one passes.
    RefusesFormats,
    /// Wraps the JSON in a ```json fence.
    Fenced,
    /// A few pieces, then an `{"error"}` event, then the connection closes.
    ErrorMidStream,
    /// Like `Plain`, one 53-byte write every 20 ms (for the timing figures).
    Slow,
}

#[derive(Clone)]
struct ChatStub {
    flavour: Flavour,
    /// Every request body that arrived.
    seen: Arc<Mutex<Vec<Value>>>,
}

/// The stub's answer for the question `text` (key `key`): deterministic, with a quote, an
/// accent and a line break so escapes are cut mid-stream; "" for the weather, which no
/// content covers.
fn stub_answer(key: &str, text: &str) -> String {
    if text.to_lowercase().contains("weather") {
        String::new()
    } else {
        format!("For {key}: pupils were \"engaged\" in the café task.\nNext: more of the same.")
    }
}

/// The form's answers as the stub's JSON text, from the `qN: text` lines of the prompt.
fn stub_json(user: &str) -> String {
    let questions = user
        .split("Questions:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_default();
    let mut answers = serde_json::Map::new();
    for line in questions.lines() {
        if let Some((key, text)) = line.split_once(": ") {
            answers.insert(key.to_owned(), Value::String(stub_answer(key, text)));
        }
    }
    Value::Object(answers).to_string()
}

async fn serve(routes: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a stub");
    let addr = listener.local_addr().expect("stub address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    addr
}

async fn start_stub(flavour: Flavour) -> (String, ChatStub) {
    let stub = ChatStub {
        flavour,
        seen: Arc::new(Mutex::new(Vec::new())),
    };
    let routes = Router::new()
        .route("/v1/chat/completions", post(completions))
        .with_state(stub.clone());
    let addr = serve(routes).await;
    (format!("http://{addr}/v1"), stub)
}

fn chunk(delta: Value, finish: Option<&str>) -> String {
    let body = json!({
        "id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 1717000000,
        "model": "stub-model", "system_fingerprint": "fp_1",
        "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
    });
    format!("data: {body}\n\n")
}

async fn completions(State(stub): State<ChatStub>, Json(body): Json<Value>) -> Response {
    stub.seen.lock().expect("lock").push(body.clone());
    if let Some(format) = body["response_format"]["type"].as_str() {
        if stub.flavour == Flavour::RefusesFormats {
            return (
                StatusCode::BAD_REQUEST,
                Json(json!({"error": {"message": format!("Invalid parameter: 'response_format' of type '{format}' is not supported with this model."), "type": "invalid_request_error", "param": "response_format", "code": null}})),
            )
                .into_response();
        }
    }
    let system = body["messages"][0]["content"].as_str().unwrap_or_default();
    let user = body["messages"][1]["content"].as_str().unwrap_or_default();
    let mut content = if system.starts_with("You tidy") {
        let text = user
            .split("The answer to tidy:\n")
            .nth(1)
            .unwrap_or_default();
        format!("\"Tidied: {}\"", text.trim())
    } else {
        stub_json(user)
    };
    if stub.flavour == Flavour::Fenced {
        content = format!("Here are the answers:\n```json\n{content}\n```");
    }
    if body["stream"] != true {
        return Json(json!({
            "id": "chatcmpl-stub", "object": "chat.completion", "created": 1717000000, "model": "stub-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": null}, "logprobs": null, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
        }))
        .into_response();
    }
    // Pieces of 7 characters: cut mid-word, mid-key and mid-escape.
    let chars: Vec<char> = content.chars().collect();
    let pieces: Vec<String> = chars.chunks(7).map(|c| c.iter().collect()).collect();
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    let cut_at = if stub.flavour == Flavour::ErrorMidStream {
        3
    } else {
        pieces.len()
    };
    for piece in &pieces[..cut_at.min(pieces.len())] {
        events.push(chunk(json!({"content": piece}), None));
    }
    if stub.flavour == Flavour::ErrorMidStream {
        events.push(format!(
            "data: {}\n\n",
            json!({"error": {"message": "model crashed", "type": "api_error"}})
        ));
    } else {
        events.push(": keep-alive\n\n".to_owned());
        events.push(chunk(json!({}), Some("stop")));
        events.push(format!(
            "data: {}\n\n",
            json!({"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 1717000000, "model": "stub-model", "choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}})
        ));
        events.push("data: [DONE]\n\n".to_owned());
    }
    // The bytes go out in uneven writes that cut events (and UTF-8) anywhere.
    let bytes = events.concat().into_bytes();
    let writes: Vec<Bytes> = bytes.chunks(53).map(Bytes::copy_from_slice).collect();
    let delay = if stub.flavour == Flavour::Slow {
        Duration::from_millis(20)
    } else {
        Duration::ZERO
    };
    let stream = futures_util::stream::iter(writes).then(move |write| async move {
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        Ok::<_, std::convert::Infallible>(write)
    });
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Body::from_stream(stream))
        .expect("stream response")
}

use futures_util::StreamExt as _;

// ---------------------------------------------------------------------------------------
// The app and its data

fn app_with(app: &TestApp, chat: Option<ChatConfig>) -> Router {
    let mut config = (*app.state.config).clone();
    config.chat = chat;
    router(AppState::new(app.db.clone(), config).expect("state"))
}

fn chat_config(base_url: &str, mode: StructuredOutput) -> ChatConfig {
    ChatConfig {
        base_url: base_url.into(),
        model: "stub-model".into(),
        api_key: Some("sk-chat-test-0123".into()),
        structured_output: mode,
    }
}

async fn user_in(app: &TestApp, school: &str) -> (String, String) {
    crate::support::leader_in(app, school, UserRole::Admin).await
}

async fn exec(app: &TestApp, sql: String) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::sql_query(sql.clone())
        .execute(c)
        .await)
    .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

const AT: &str = "'2026-11-24 09:00:00'";

/// A task of `user` (school `school`) on a new template with three questions (the third
/// about the weather, which no content covers), a READY voice note with a transcript, READY
/// photo notes, a QUEUED file and one saved answer. Returns (task id, question ids).
async fn make_task(app: &TestApp, school: &str, user: &str) -> (String, Vec<String>) {
    let template = new_id();
    exec(app, format!("INSERT INTO tasks (id, created_at, updated_at, title, visibility, tags, user_id, school_id) VALUES ('{template}', {AT}, {AT}, 'Learning walk', 'SCHOOL', '[]', '{user}', '{school}')")).await;
    let questions: Vec<String> = (0..3).map(|_| new_id()).collect();
    let texts = [
        "What went well in the lesson?",
        "What are the next steps?",
        "What was the weather like?",
    ];
    for (i, (id, text)) in questions.iter().zip(texts).enumerate() {
        exec(app, format!("INSERT INTO questions (id, created_at, updated_at, text, type, required, position, task_id) VALUES ('{id}', {AT}, {AT}, '{text}', 'TEXTAREA', FALSE, {i}, '{template}')")).await;
    }
    let task = new_id();
    exec(app, format!("INSERT INTO task_submissions (id, created_at, updated_at, draft, title, tags, task_id, user_id, school_id) VALUES ('{task}', {AT}, {AT}, TRUE, 'Walk 24/11', '[]', '{template}', '{user}', '{school}')")).await;
    for (n, (kind, name, notes, transcript, status)) in [
        (
            "VOICE_NOTE",
            "Walk voice note",
            None,
            Some("Pupils in Year 7 were engaged in a group task."),
            "READY",
        ),
        (
            "PHOTO_NOTES",
            "Board photos",
            Some("Clear objectives on the board."),
            None,
            "READY",
        ),
        (
            "FILE",
            "Secret queued plan",
            None,
            Some("QUEUED CONTENT MUST NOT BE SENT"),
            "QUEUED",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let item = new_id();
        let file = match transcript {
            Some(text) => {
                let file = new_id();
                let key = format!("tasks/{task}/{file}");
                exec(app, format!("INSERT INTO stored_files (id, key, school_id, user_id, filename, content_type, size_bytes, uploaded_at, created_at, kind, in_personal_folder) VALUES ('{file}', '{key}', '{school}', '{user}', 'f{n}.webm', 'audio/webm', 10, {AT}, {AT}, 'UPLOAD', FALSE)")).await;
                exec(app, format!("INSERT INTO resource_transcripts (key, created_at, updated_at, transcript) VALUES ('{key}', {AT}, {AT}, '{text}')")).await;
                format!("'{file}'")
            }
            None => "NULL".to_owned(),
        };
        let notes = notes
            .map(|n| format!("'{n}'"))
            .unwrap_or_else(|| "NULL".into());
        exec(app, format!("INSERT INTO task_items (id, submission_id, user_id, kind, file_id, name, notes, status, created_at, updated_at) VALUES ('{item}', '{task}', '{user}', '{kind}', {file}, '{name}', {notes}, '{status}', '2026-11-24 09:00:0{n}', {AT})")).await;
    }
    exec(app, format!("INSERT INTO question_responses (id, created_at, updated_at, submission_id, question_id, answer, version) VALUES ('{}', {AT}, {AT}, '{task}', '{}', 'Typed by the leader.', 1)", new_id(), questions[1])).await;
    (task, questions)
}

async fn autofill(routes: &Router, task: &str, cookie: Option<&str>) -> TestResponse {
    let mut request = Request::post(format!("/api/tasks/{task}/autofill"));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    send(
        routes.clone(),
        request.body(Body::empty()).expect("request"),
    )
    .await
}

/// The (event, data) pairs of an SSE body.
fn events(response: &TestResponse) -> Vec<(String, Value)> {
    response.sse_events()
}

async fn mutate(routes: &Router, path: &str, input: Value, cookie: &str) -> TestResponse {
    let body = json!({"0": {"json": input}}).to_string();
    let request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json")
        .header("cookie", cookie);
    send(
        routes.clone(),
        request.body(Body::from(body)).expect("request"),
    )
    .await
}

async fn queries(app: &TestApp) -> Vec<(String, Option<String>)> {
    use diesel::{ExpressionMethods, QueryDsl};
    use voicemark::db::schema::assistant_queries;
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| assistant_queries::table
        .order(assistant_queries::created_at.asc())
        .select((assistant_queries::query, assistant_queries::response))
        .load::<(String, Option<String>)>(c)
        .await)
    .expect("queries")
}

fn expected(key: &str, text: &str) -> String {
    stub_answer(key, text)
}

// ---------------------------------------------------------------------------------------
// Autofill

dual_test!(
    async fn autofill_streams_each_answer_as_it_is_written(app: TestApp) {
        let (base, stub) = start_stub(Flavour::Plain).await;
        let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonSchema)));
        let school = make_school(&app, "Autofill School").await;
        let (user, cookie) = user_in(&app, &school).await;
        let (task, questions) = make_task(&app, &school, &user).await;

        let response = autofill(&routes, &task, Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert!(response
            .header("content-type")
            .unwrap_or_default()
            .starts_with("text/event-stream"));
        let events = events(&response);
        let answers: Vec<&Value> = events
            .iter()
            .filter(|(n, _)| n == "answer")
            .map(|(_, d)| d)
            .collect();
        let q1: Vec<&Value> = answers
            .iter()
            .copied()
            .filter(|d| d["questionId"] == questions[0].as_str())
            .collect();
        assert!(q1.len() > 3, "q1 arrives in several pieces: {q1:?}");
        assert_eq!(q1[0]["complete"], false);
        // Each piece extends the last; the final one is complete and whole.
        for pair in q1.windows(2) {
            assert!(pair[1]["text"]
                .as_str()
                .unwrap()
                .starts_with(pair[0]["text"].as_str().unwrap()));
        }
        let q1_text = expected("q1", "");
        assert_eq!(q1.last().unwrap()["text"], q1_text.as_str());
        assert_eq!(q1.last().unwrap()["complete"], true);
        let (last, done) = events.last().expect("events");
        assert_eq!(last, "done");
        assert_eq!(done["answers"][&questions[0]], q1_text.as_str());
        assert_eq!(done["answers"][&questions[1]], expected("q2", "").as_str());
        assert_eq!(
            done["answers"][&questions[2]], "",
            "the weather is in no content"
        );
        assert_eq!(done["truncated"], false);
        assert!(!events.iter().any(|(n, _)| n == "error"));

        // What the model was sent: streamed, the schema, the READY content only.
        let seen = stub.seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 1);
        let body = &seen[0];
        assert_eq!(body["stream"], true);
        assert_eq!(body["model"], "stub-model");
        assert_eq!(body["response_format"]["type"], "json_schema");
        assert_eq!(
            body["response_format"]["json_schema"]["schema"]["required"],
            json!(["q1", "q2", "q3"])
        );
        let prompt = body["messages"][1]["content"].as_str().unwrap();
        assert!(prompt.contains("q1: What went well in the lesson?"));
        assert!(prompt.contains("Transcript: Pupils in Year 7 were engaged in a group task."));
        assert!(prompt.contains("Notes: Clear objectives on the board."));
        assert!(
            prompt.contains("q2: Typed by the leader."),
            "the saved answer is given"
        );
        assert!(!prompt.contains("QUEUED CONTENT") && !prompt.contains("Secret queued plan"));
        assert!(body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("British English"));

        // Kept: the questions and item names, not the content; and the answers.
        let kept = queries(&app).await;
        assert_eq!(kept.len(), 1);
        let query: Value = serde_json::from_str(&kept[0].0).unwrap();
        assert_eq!(query["kind"], "autofill");
        assert_eq!(
            query["questions"][0]["text"],
            "What went well in the lesson?"
        );
        assert_eq!(query["items"], json!(["Walk voice note", "Board photos"]));
        assert!(!kept[0].0.contains("group task"));
        let response: Value = serde_json::from_str(kept[0].1.as_deref().unwrap()).unwrap();
        assert_eq!(response["answers"][&questions[2]], "");
        assert_eq!(response["answers"][&questions[0]], q1_text.as_str());
    }
);

dual_test!(
    async fn a_server_refusing_response_format_is_asked_more_simply(app: TestApp) {
        let (base, stub) = start_stub(Flavour::RefusesFormats).await;
        let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonSchema)));
        let school = make_school(&app, "Fallback School").await;
        let (user, cookie) = user_in(&app, &school).await;
        let (task, questions) = make_task(&app, &school, &user).await;

        let response = autofill(&routes, &task, Some(&cookie)).await;
        let events = events(&response);
        let (last, done) = events.last().expect("events");
        assert_eq!(last, "done", "{events:?}");
        assert_eq!(done["answers"][&questions[0]], expected("q1", "").as_str());
        let formats: Vec<Value> = stub
            .seen
            .lock()
            .unwrap()
            .iter()
            .map(|b| b["response_format"]["type"].clone())
            .collect();
        assert_eq!(
            formats,
            vec![json!("json_schema"), json!("json_object"), Value::Null]
        );

        // The client remembers: the next call goes straight to the plain request.
        stub.seen.lock().unwrap().clear();
        let again = autofill(&routes, &task, Some(&cookie)).await;
        assert_eq!(events_last(&again), "done");
        let formats: Vec<Value> = stub
            .seen
            .lock()
            .unwrap()
            .iter()
            .map(|b| b["response_format"].clone())
            .collect();
        assert_eq!(formats, vec![Value::Null]);
    }
);

fn events_last(response: &TestResponse) -> String {
    events(response)
        .last()
        .map(|(n, _)| n.clone())
        .unwrap_or_default()
}

dual_test!(
    async fn fenced_json_is_still_read(app: TestApp) {
        let (base, _stub) = start_stub(Flavour::Fenced).await;
        let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonObject)));
        let school = make_school(&app, "Fence School").await;
        let (user, cookie) = user_in(&app, &school).await;
        let (task, questions) = make_task(&app, &school, &user).await;
        let response = autofill(&routes, &task, Some(&cookie)).await;
        let events = events(&response);
        let (last, done) = events.last().expect("events");
        assert_eq!(last, "done", "{events:?}");
        assert_eq!(done["answers"][&questions[1]], expected("q2", "").as_str());
        assert_eq!(done["answers"][&questions[2]], "");
    }
);

dual_test!(
    async fn an_error_mid_stream_ends_in_an_error_event(app: TestApp) {
        let (base, _stub) = start_stub(Flavour::ErrorMidStream).await;
        let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonSchema)));
        let school = make_school(&app, "Crash School").await;
        let (user, cookie) = user_in(&app, &school).await;
        let (task, _) = make_task(&app, &school, &user).await;
        let response = autofill(&routes, &task, Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::OK);
        let events = events(&response);
        let (last, data) = events.last().expect("events");
        assert_eq!(last, "error");
        assert_eq!(data["message"], "The AI service answered: model crashed");
        assert!(!events.iter().any(|(n, _)| n == "done"));
        let kept = queries(&app).await;
        assert_eq!(kept.len(), 1);
        assert!(kept[0].1.as_deref().unwrap().contains("model crashed"));
    }
);

dual_test!(
    async fn only_the_tasks_people_may_autofill_it(app: TestApp) {
        let (base, stub) = start_stub(Flavour::Plain).await;
        let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonSchema)));
        let school = make_school(&app, "Home School").await;
        let (user, _) = user_in(&app, &school).await;
        let (task, questions) = make_task(&app, &school, &user).await;
        let other_school = make_school(&app, "Other School").await;
        let (_, stranger) = user_in(&app, &other_school).await;
        let (_, colleague) = user_in(&app, &school).await;

        let response = autofill(&routes, &task, Some(&stranger)).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
        // A colleague it is not shared with: NOT_FOUND too.
        assert_eq!(
            autofill(&routes, &task, Some(&colleague)).await.status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            autofill(&routes, "no-such-task", Some(&colleague))
                .await
                .status,
            StatusCode::NOT_FOUND
        );
        let signed_out = autofill(&routes, &task, None).await;
        assert_eq!(signed_out.status, StatusCode::UNAUTHORIZED);
        assert_eq!(signed_out.json()["error"], "Sign in to use AI autofill.");
        let (_, owner_cookie) = (user.clone(), session_cookie(&app, &user).await);
        let cross = send(
            routes.clone(),
            Request::post(format!("/api/tasks/{task}/autofill"))
                .header("cookie", &owner_cookie)
                .header("origin", "https://evil.example")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_eq!(cross.status, StatusCode::FORBIDDEN);

        let format = mutate(
            &routes,
            "ai.formatAnswer",
            json!({"taskId": task, "questionId": questions[0], "text": "hello"}),
            &stranger,
        )
        .await;
        assert_eq!(
            format.json()[0]["error"]["json"]["data"]["code"],
            "NOT_FOUND"
        );
        assert!(
            stub.seen.lock().unwrap().is_empty(),
            "nothing reached the model"
        );
        assert!(queries(&app).await.is_empty());
    }
);

dual_test!(
    async fn without_a_chat_provider_the_user_is_told_plainly(app: TestApp) {
        let routes = app_with(&app, None);
        let school = make_school(&app, "Unset School").await;
        let (user, cookie) = user_in(&app, &school).await;
        let (task, questions) = make_task(&app, &school, &user).await;
        let response = autofill(&routes, &task, Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::PRECONDITION_FAILED);
        assert_eq!(response.json()["error"], NOT_SET_UP);
        let format = mutate(
            &routes,
            "ai.formatAnswer",
            json!({"taskId": task, "questionId": questions[0], "text": "some text"}),
            &cookie,
        )
        .await;
        let error = &format.json()[0]["error"]["json"];
        assert_eq!(error["data"]["code"], "PRECONDITION_FAILED");
        assert_eq!(error["message"], NOT_SET_UP);
        let features = send(
            routes.clone(),
            Request::get("/api/trpc/system.features")
                .header("cookie", &cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_eq!(features.json()["result"]["data"]["json"]["chat"], false);
    }
);

// ---------------------------------------------------------------------------------------
// AI Formatting

dual_test!(
    async fn ai_formatting_tidies_one_answer(app: TestApp) {
        let (base, stub) = start_stub(Flavour::Plain).await;
        let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonSchema)));
        let school = make_school(&app, "Format School").await;
        let (user, cookie) = user_in(&app, &school).await;
        let (task, questions) = make_task(&app, &school, &user).await;
        let response = mutate(
            &routes,
            "ai.formatAnswer",
            json!({"taskId": task, "questionId": questions[1], "text": "  pupils was engaged  "}),
            &cookie,
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert_eq!(
            response.json()[0]["result"]["data"]["json"]["text"],
            "Tidied: pupils was engaged"
        );
        let seen = stub.seen.lock().unwrap().clone();
        assert_eq!(seen[0]["stream"], false);
        assert!(seen[0].get("response_format").is_none());
        assert!(seen[0]["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("The question: What are the next steps?"));
        let kept = queries(&app).await;
        assert_eq!(kept.len(), 1);
        assert!(
            kept[0].0.contains("formatAnswer") && kept[0].1.as_deref().unwrap().contains("Tidied")
        );

        let empty = mutate(
            &routes,
            "ai.formatAnswer",
            json!({"taskId": task, "questionId": questions[1], "text": "   "}),
            &cookie,
        )
        .await;
        let error = &empty.json()[0]["error"]["json"];
        assert_eq!(error["data"]["code"], "BAD_REQUEST");
        assert_eq!(
            error["message"],
            "Write an answer first, then use AI Formatting."
        );
        let wrong = mutate(
            &routes,
            "ai.formatAnswer",
            json!({"taskId": task, "questionId": "not-on-it", "text": "x"}),
            &cookie,
        )
        .await;
        assert_eq!(
            wrong.json()[0]["error"]["json"]["data"]["code"],
            "NOT_FOUND"
        );
        let features = send(
            routes.clone(),
            Request::get("/api/trpc/system.features")
                .header("cookie", &cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_eq!(features.json()["result"]["data"]["json"]["chat"], true);
    }
);

// ---------------------------------------------------------------------------------------
// Figures for the lead's note

/// Time to the first streamed answer and to the whole form, over real sockets, against the
/// stub writing a piece every 20 ms. `cargo test --test it -- --ignored autofill_timing --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn autofill_timing() {
    let app = TestApp::new(crate::support::TestBackend::Sqlite).await;
    let (base, _stub) = start_stub(Flavour::Slow).await;
    let routes = app_with(&app, Some(chat_config(&base, StructuredOutput::JsonSchema)));
    let school = make_school(&app, "Timing School").await;
    let (user, cookie) = user_in(&app, &school).await;
    let (task, _) = make_task(&app, &school, &user).await;
    let addr = serve(routes).await;
    let client = reqwest::Client::new();
    for run in 0..3 {
        let started = Instant::now();
        let response = client
            .post(format!("http://{addr}/api/tasks/{task}/autofill"))
            .header("cookie", &cookie)
            .send()
            .await
            .expect("autofill");
        let mut body = response.bytes_stream();
        let mut seen = String::new();
        let mut first = None;
        while let Some(bytes) = body.next().await {
            seen.push_str(&String::from_utf8_lossy(&bytes.expect("bytes")));
            if first.is_none() && seen.contains("event: answer") {
                first = Some(started.elapsed());
            }
        }
        assert!(seen.contains("event: done"));
        println!(
            "autofill run {run}: first answer after {:?}, whole form after {:?} ({} bytes of events)",
            first.expect("an answer"),
            started.elapsed(),
            seen.len()
        );
    }
}
