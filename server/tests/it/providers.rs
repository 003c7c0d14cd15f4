//! The AI vision and speech providers through the real `/api/trpc` endpoint, against stub
//! servers on loopback that speak the providers' wire protocols: an OpenAI-compatible
//! `/v1/chat/completions` (openai-compatible-vision.md) and Deepgram's `/v1/auth/grant`
//! (deepgram.md §1).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use base64::Engine as _;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::app::router;
use voicemark::config::{SpeechConfig, VisionConfig};
use voicemark::db::schema::assistant_queries;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::support::{make_school, send, session_cookie, TestApp, TestResponse};

pub(crate) const VISION_KEY: &str = "sk-test-vision-0123456789";
const DEEPGRAM_KEY: &str = "dg-test-key-0123456789";
const PHOTO_LIMIT: &str =
    "Photo limit reached: You can submit up to 10 photos to be analysed by AI.";

// ---------------------------------------------------------------------------------------
// Stub servers

/// Serves `routes` on 127.0.0.1 at a free port for the rest of the test.
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

/// A loopback address nothing listens on.
async fn closed_address() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    listener.local_addr().expect("address")
}

/// What the vision stub answers once the request passed its checks.
#[derive(Clone)]
pub(crate) enum VisionReply {
    /// 200 with a `chat.completion` whose message content is this text.
    Completion(&'static str),
    /// OpenAI's error envelope with this status and message.
    OpenAiError(u16, &'static str),
    /// vLLM's flat `{"object":"error","message"}` envelope.
    VllmError(&'static str),
    /// 200 with a refusal instead of content.
    Refusal(&'static str),
    /// A [`VisionReply::Completion`] sent once the test adds a permit to the semaphore
    /// (a provider still working while the test looks).
    Held(Arc<tokio::sync::Semaphore>, &'static str),
}

#[derive(Clone)]
struct VisionStub {
    /// The key that must arrive as `Bearer`; `None`: no Authorization header may arrive.
    key: Option<&'static str>,
    reply: VisionReply,
    /// Every request body that passed the checks.
    seen: Arc<Mutex<Vec<Value>>>,
}

/// Starts a vision stub; returns its base URL (`http://127.0.0.1:port/v1`) and what it saw.
pub(crate) async fn vision_stub(
    key: Option<&'static str>,
    reply: VisionReply,
) -> (String, Arc<Mutex<Vec<Value>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let stub = VisionStub {
        key,
        reply,
        seen: seen.clone(),
    };
    let routes = Router::new()
        .route("/v1/chat/completions", post(chat_completions))
        .layer(DefaultBodyLimit::disable())
        .with_state(stub);
    let addr = serve(routes).await;
    (format!("http://{addr}/v1"), seen)
}

fn openai_error(status: u16, message: &str, kind: &str) -> Response {
    let status = StatusCode::from_u16(status).expect("status");
    (
        status,
        Json(json!({"error": {"message": message, "type": kind, "param": null, "code": null}})),
    )
        .into_response()
}

/// `POST /v1/chat/completions` as OpenAI answers it: auth, then the request's shape, then
/// the configured reply.
async fn chat_completions(
    State(stub): State<VisionStub>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    match (stub.key, auth) {
        (Some(key), Some(given)) if given == format!("Bearer {key}") => {}
        (None, None) => {}
        (_, given) => {
            // OpenAI repeats (part of) the key it was given: the server must not pass it on.
            let given = given.unwrap_or("").trim_start_matches("Bearer ");
            return openai_error(
                401,
                &format!("Incorrect API key provided: {given}."),
                "invalid_request_error",
            );
        }
    }
    if headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        != Some("application/json")
    {
        return openai_error(
            400,
            "Content-Type must be application/json",
            "invalid_request_error",
        );
    }
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return openai_error(
                400,
                &format!("We could not parse the JSON body: {e}"),
                "invalid_request_error",
            )
        }
    };
    if let Err(problem) = check_chat_request(&request) {
        return openai_error(400, &problem, "invalid_request_error");
    }
    stub.seen.lock().expect("lock").push(request.clone());
    let model = request["model"].as_str().unwrap_or_default();
    let reply = match stub.reply {
        VisionReply::Held(gate, text) => {
            let _permit = gate.acquire().await.expect("the gate");
            VisionReply::Completion(text)
        }
        reply => reply,
    };
    match reply {
        VisionReply::Completion(text) => Json(json!({
            "id": "chatcmpl-9xYz",
            "object": "chat.completion",
            "created": 1717000000,
            "model": format!("{model}-2024-07-18"),
            "system_fingerprint": "fp_44709d6fcb",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": null},
                "logprobs": null,
                "finish_reason": "stop"
            }],
            "usage": {"prompt_tokens": 1123, "completion_tokens": 58, "total_tokens": 1181}
        }))
        .into_response(),
        VisionReply::Refusal(refusal) => Json(json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1717000000, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": refusal}, "finish_reason": "stop"}]
        }))
        .into_response(),
        VisionReply::OpenAiError(status, message) => {
            openai_error(status, message, "invalid_request_error")
        }
        VisionReply::VllmError(message) => (
            StatusCode::BAD_REQUEST,
            Json(json!({"object": "error", "message": message, "type": "BadRequestError", "param": null, "code": 400})),
        )
            .into_response(),
        VisionReply::Held(..) => unreachable!("released above"),
    }
}

/// The request rules of openai-compatible-vision.md §1, as a server would enforce them.
fn check_chat_request(request: &Value) -> Result<(), String> {
    if request["model"].as_str().is_none_or(str::is_empty) {
        return Err("you must provide a model parameter".into());
    }
    if request["stream"] != json!(false) {
        return Err("stream must be false here".into());
    }
    let messages = request["messages"]
        .as_array()
        .ok_or("messages must be an array")?;
    for message in messages {
        let role = message["role"]
            .as_str()
            .ok_or("every message needs a role")?;
        if !["system", "user", "assistant"].contains(&role) {
            return Err(format!("unknown role {role}"));
        }
        if let Some(parts) = message["content"].as_array() {
            for (i, part) in parts.iter().enumerate() {
                match part["type"].as_str() {
                    Some("text") if part["text"].is_string() => {}
                    Some("image_url") if role == "user" => {
                        let url = part["image_url"]["url"]
                            .as_str()
                            .ok_or("image_url.url missing")?;
                        let data = url
                            .strip_prefix("data:image/jpeg;base64,")
                            .ok_or(format!("Invalid image URL at messages.content.[{i}]"))?;
                        base64::engine::general_purpose::STANDARD
                            .decode(data)
                            .map_err(|_| {
                                format!("Invalid base64 image at messages.content.[{i}]")
                            })?;
                    }
                    other => return Err(format!("invalid content part {other:?}")),
                }
            }
        } else if !message["content"].is_string() {
            return Err("content must be a string or an array of parts".into());
        }
    }
    Ok(())
}

/// What the Deepgram stub answers to a grant with the right key.
#[derive(Clone, Copy)]
enum GrantReply {
    Token,
    /// Deepgram's modern error shape `{category, message, details, request_id}` with 403.
    ModernError,
    /// A plain-text 500.
    PlainText,
}

#[derive(Clone)]
struct DeepgramStub {
    reply: GrantReply,
    /// Every grant request body that passed the checks.
    seen: Arc<Mutex<Vec<Value>>>,
}

/// Starts a Deepgram stub; returns its base URL (`http://127.0.0.1:port`) and what it saw.
async fn deepgram_stub(reply: GrantReply) -> (String, Arc<Mutex<Vec<Value>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let routes = Router::new()
        .route("/v1/auth/grant", post(auth_grant))
        .with_state(DeepgramStub {
            reply,
            seen: seen.clone(),
        });
    let addr = serve(routes).await;
    (format!("http://{addr}"), seen)
}

/// `POST /v1/auth/grant`: `Authorization: Token <key>` (never Bearer), optional
/// `{"ttl_seconds": 1..3600}`, answers `{access_token, expires_in}`.
async fn auth_grant(State(stub): State<DeepgramStub>, headers: HeaderMap, body: Bytes) -> Response {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    if auth != Some(&format!("Token {DEEPGRAM_KEY}")) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"err_code": "INVALID_AUTH", "err_msg": "Invalid credentials.", "request_id": "5c1e3f4a"})),
        )
            .into_response();
    }
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let ttl = request["ttl_seconds"].as_f64();
    if !ttl.is_some_and(|t| (1.0..=3600.0).contains(&t)) {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"category": "INVALID_REQUEST", "message": "ttl_seconds must be between 1 and 3600.", "details": "", "request_id": "r"})),
        )
            .into_response();
    }
    stub.seen.lock().expect("lock").push(request);
    match stub.reply {
        GrantReply::Token => Json(json!({"access_token": "eyJhbGciOiJIUzI1NiJ9.stub.token", "expires_in": ttl})).into_response(),
        GrantReply::ModernError => (
            StatusCode::FORBIDDEN,
            Json(json!({"category": "FORBIDDEN", "message": "Insufficient permissions.", "details": "The key needs the Member role.", "request_id": "r2"})),
        )
            .into_response(),
        GrantReply::PlainText => {
            (StatusCode::INTERNAL_SERVER_ERROR, "upstream exploded").into_response()
        }
    }
}

// ---------------------------------------------------------------------------------------
// The app under test

/// The test's app with its providers pointed at the stubs (`None`: not configured).
pub(crate) fn app_with(app: &TestApp, vision: Option<VisionConfig>, speech: Option<SpeechConfig>) -> Router {
    let mut config = (*app.state.config).clone();
    config.vision = vision;
    config.speech = speech;
    router(AppState::new(app.db.clone(), config).expect("state"))
}

pub(crate) fn vision_config(base_url: &str, api_key: Option<&str>) -> VisionConfig {
    VisionConfig {
        base_url: base_url.into(),
        model: "gpt-4o-mini".into(),
        api_key: api_key.map(str::to_owned),
    }
}

fn speech_config(url: &str) -> SpeechConfig {
    SpeechConfig {
        api_key: DEEPGRAM_KEY.into(),
        url: url.into(),
    }
}

/// A signed-in teacher: (user id, cookie).
pub(crate) async fn teacher(app: &TestApp) -> (String, String) {
    let school = make_school(app, "Providers School").await;
    let id = crate::support::make_user(app, Some(&school), UserRole::Teacher, "Tess", "Teacher").await;
    let cookie = session_cookie(app, &id).await;
    (id, cookie)
}

/// `POST /api/trpc/{path}?batch=1` with `input` as superjson, as httpBatchLink sends it.
async fn mutate(routes: &Router, path: &str, input: Value, cookie: Option<&str>) -> TestResponse {
    let body = json!({"0": {"json": input}}).to_string();
    post_raw(routes, path, body, cookie).await
}

async fn post_raw(routes: &Router, path: &str, body: String, cookie: Option<&str>) -> TestResponse {
    let mut request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json");
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    send(
        routes.clone(),
        request.body(Body::from(body)).expect("request"),
    )
    .await
}

async fn query(routes: &Router, path: &str, cookie: Option<&str>) -> TestResponse {
    let mut request = Request::get(format!("/api/trpc/{path}"));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    send(
        routes.clone(),
        request.body(Body::empty()).expect("request"),
    )
    .await
}

/// The data of a batch's only result.
fn data(response: &TestResponse) -> Value {
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    response.json()[0]["result"]["data"]["json"].clone()
}

/// (code, message) of a batch's only error.
fn error(response: &TestResponse) -> (String, String) {
    let body = response.json();
    let error = &body[0]["error"]["json"];
    (
        error["data"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        error["message"].as_str().unwrap_or_default().to_owned(),
    )
}

/// A small byte string that passes as a JPEG (SOI + APP0 marker), different for each `n`.
pub(crate) fn jpeg(n: u8) -> Vec<u8> {
    vec![
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, b'J', b'F', b'I', b'F', n, 0xFF, 0xD9,
    ]
}

pub(crate) fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

// ---------------------------------------------------------------------------------------
// notification.analyseImage

dual_test!(
    async fn photos_and_prompt_reach_the_vision_model_and_its_text_comes_back(app: TestApp) {
        let answer = "Strengths: clear working.\nNext steps: label the axes.";
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Completion(answer)).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let (user_id, cookie) = teacher(&app).await;
        let photos = [jpeg(1), jpeg(2), jpeg(3)];
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({
                // With and without the data-URL prefix: both are accepted.
                "images": [
                    format!("data:image/jpeg;base64,{}", b64(&photos[0])),
                    b64(&photos[1]),
                    b64(&photos[2]),
                ],
                "prompt": "Mark this graph question out of 5.",
            }),
            Some(&cookie),
        )
        .await;
        assert_eq!(data(&response), json!({"text": answer}));

        let seen = seen.lock().expect("lock").clone();
        assert_eq!(seen.len(), 1, "one request per analysis");
        let request = &seen[0];
        assert_eq!(request["model"], "gpt-4o-mini");
        assert_eq!(request["temperature"], 0.2);
        assert!(request["max_tokens"].as_u64().is_some_and(|n| n >= 500));
        assert_eq!(request["messages"][0]["role"], "system");
        let system = request["messages"][0]["content"]
            .as_str()
            .expect("system prompt");
        assert!(
            system.contains("teacher") && system.contains("United Kingdom"),
            "{system}"
        );
        assert_eq!(request["messages"][1]["role"], "user");
        let parts = request["messages"][1]["content"].as_array().expect("parts");
        assert_eq!(parts.len(), 4, "the prompt and three photos");
        assert_eq!(
            parts[0],
            json!({"type": "text", "text": "Mark this graph question out of 5."})
        );
        for (part, photo) in parts[1..].iter().zip(&photos) {
            assert_eq!(part["type"], "image_url");
            assert_eq!(
                part["image_url"]["url"],
                format!("data:image/jpeg;base64,{}", b64(photo)),
                "photos in the order taken"
            );
        }

        // The question and answer are kept (the spec's AssistantQuery).
        let mut pooled = app.db.conn().await.expect("connection");
        let rows: Vec<(String, Option<String>, String)> =
            with_conn!(pooled.db(), |c| assistant_queries::table
                .select((
                    assistant_queries::query,
                    assistant_queries::response,
                    assistant_queries::user_id
                ))
                .load(c)
                .await)
            .expect("rows");
        assert_eq!(
            rows,
            vec![(
                "Mark this graph question out of 5.".to_owned(),
                Some(answer.to_owned()),
                user_id
            )]
        );
    }
);

dual_test!(
    async fn the_notes_mode_has_the_model_write_notes_from_the_photos(app: TestApp) {
        let notes = "## Fractions\n- Equivalent fractions: 1/2 = 2/4.";
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Completion(notes)).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let (_, cookie) = teacher(&app).await;
        let photos = [b64(&jpeg(1)), b64(&jpeg(2))];
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": photos, "prompt": "", "mode": "NOTES"}),
            Some(&cookie),
        )
        .await;
        assert_eq!(data(&response), json!({"text": notes}));
        // Without a mode it is feedback, as before.
        mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": [b64(&jpeg(3))], "prompt": "Mark this."}),
            Some(&cookie),
        )
        .await;
        let seen = seen.lock().expect("lock").clone();
        assert_eq!(seen.len(), 2);
        let system = |i: usize| seen[i]["messages"][0]["content"].as_str().expect("system").to_owned();
        assert_eq!(system(0), voicemark::providers::vision::NOTES_SYSTEM_PROMPT);
        assert_eq!(system(1), voicemark::providers::vision::SYSTEM_PROMPT);
        let parts = seen[0]["messages"][1]["content"].as_array().expect("parts");
        assert_eq!(parts.len(), 3, "the prompt and both photos");
        assert_eq!(parts[0]["text"], voicemark::providers::vision::DEFAULT_NOTES_PROMPT);
        let unknown = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": [b64(&jpeg(4))], "mode": "POEM"}),
            Some(&cookie),
        )
        .await;
        assert_eq!(error(&unknown).0, "BAD_REQUEST");
    }
);

dual_test!(
    async fn a_local_server_needs_no_key_and_an_empty_prompt_asks_for_strengths(app: TestApp) {
        // Ollama / llama.cpp style: no key configured, so no Authorization header is sent.
        let (base, seen) = vision_stub(None, VisionReply::Completion("Well structured.")).await;
        let mut config = vision_config(&base, None);
        config.model = "qwen2.5vl:7b".into();
        let routes = app_with(&app, Some(config), None);
        let (_, cookie) = teacher(&app).await;
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": [b64(&jpeg(1))], "prompt": "  "}),
            Some(&cookie),
        )
        .await;
        assert_eq!(data(&response), json!({"text": "Well structured."}));
        let seen = seen.lock().expect("lock").clone();
        assert_eq!(seen[0]["model"], "qwen2.5vl:7b");
        let prompt = seen[0]["messages"][1]["content"][0]["text"]
            .as_str()
            .expect("prompt");
        assert!(
            prompt.contains("strengths") && prompt.contains("next steps"),
            "{prompt}"
        );
    }
);

dual_test!(
    async fn the_providers_error_message_reaches_the_user_without_the_key(app: TestApp) {
        let (_, cookie) = teacher(&app).await;
        let photo = json!({"images": [b64(&jpeg(1))], "prompt": "Read this."});

        let (base, _) = vision_stub(
            Some(VISION_KEY),
            VisionReply::OpenAiError(
                400,
                "You uploaded an unsupported image. Please make sure your image is valid.",
            ),
        )
        .await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let response = mutate(
            &routes,
            "notification.analyseImage",
            photo.clone(),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            error(&response),
            (
                "INTERNAL_SERVER_ERROR".to_owned(),
                "The AI service answered: You uploaded an unsupported image. Please make sure your image is valid.".to_owned()
            )
        );

        let (base, _) = vision_stub(
            None,
            VisionReply::VllmError("At most 1 image(s) may be provided in one request."),
        )
        .await;
        let routes = app_with(&app, Some(vision_config(&base, None)), None);
        let response = mutate(
            &routes,
            "notification.analyseImage",
            photo.clone(),
            Some(&cookie),
        )
        .await;
        assert_eq!(
            error(&response).1,
            "The AI service answered: At most 1 image(s) may be provided in one request."
        );

        let (base, _) = vision_stub(
            Some(VISION_KEY),
            VisionReply::Refusal("I can't help with that request."),
        )
        .await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let response = mutate(
            &routes,
            "notification.analyseImage",
            photo.clone(),
            Some(&cookie),
        )
        .await;
        assert_eq!(
            error(&response).1,
            "The AI service declined to answer: I can't help with that request."
        );

        // A wrong key: the provider repeats it; the user must not see it.
        let wrong = "sk-wrong-key-9876543210";
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Completion("unused")).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(wrong))), None);
        let response = mutate(&routes, "notification.analyseImage", photo, Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            error(&response).1,
            "The AI service answered: Incorrect API key provided: [redacted]."
        );
        assert!(!response.text().contains(wrong) && !response.text().contains(VISION_KEY));
        assert!(seen.lock().expect("lock").is_empty());
    }
);

dual_test!(
    async fn an_unreachable_provider_is_a_clear_error(app: TestApp) {
        let closed = closed_address().await;
        let routes = app_with(
            &app,
            Some(vision_config(
                &format!("http://{closed}/v1"),
                Some(VISION_KEY),
            )),
            None,
        );
        let (_, cookie) = teacher(&app).await;
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": [b64(&jpeg(1))], "prompt": ""}),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            error(&response),
            (
                "INTERNAL_SERVER_ERROR".to_owned(),
                "Could not reach the AI service. Please try again later.".to_owned()
            )
        );
    }
);

dual_test!(
    async fn without_a_vision_provider_analysis_says_it_is_not_set_up(app: TestApp) {
        let (_, cookie) = teacher(&app).await;
        let response = mutate(
            &app.router,
            "notification.analyseImage",
            json!({"images": [b64(&jpeg(1))], "prompt": "Read this."}),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::PRECONDITION_FAILED);
        assert_eq!(
            error(&response),
            (
                "PRECONDITION_FAILED".to_owned(),
                "AI photo analysis is not switched on for your school yet. Ask your administrator.".to_owned()
            )
        );
    }
);

dual_test!(
    async fn bad_photos_are_refused_before_the_provider_is_called(app: TestApp) {
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Completion("unused")).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let (_, cookie) = teacher(&app).await;
        let cases = [
            (json!([]), "Add at least one photo."),
            (json!(vec![b64(&jpeg(1)); 11]), PHOTO_LIMIT),
            (
                json!([b64(&jpeg(1)), b64(b"\x89PNG\r\n\x1a\n0000")]),
                "Photo 2 is not a JPEG image.",
            ),
            (
                json!(["this is not base64!"]),
                "Photo 1 is not a JPEG image.",
            ),
        ];
        for (images, message) in cases {
            let response = mutate(
                &routes,
                "notification.analyseImage",
                json!({"images": images, "prompt": "Read this."}),
                Some(&cookie),
            )
            .await;
            assert_eq!(response.status, StatusCode::BAD_REQUEST, "{message}");
            assert_eq!(
                error(&response),
                ("BAD_REQUEST".to_owned(), message.to_owned())
            );
        }
        // Ten is the limit, not over it.
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": vec![b64(&jpeg(1)); 10], "prompt": "Read this."}),
            Some(&cookie),
        )
        .await;
        assert_eq!(data(&response), json!({"text": "unused"}));
        assert_eq!(seen.lock().expect("lock").len(), 1);
    }
);

dual_test!(
    async fn signed_out_callers_cannot_analyse_or_mint_keys(app: TestApp) {
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Completion("unused")).await;
        let (dg, grants) = deepgram_stub(GrantReply::Token).await;
        let routes = app_with(
            &app,
            Some(vision_config(&base, Some(VISION_KEY))),
            Some(speech_config(&dg)),
        );
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": [b64(&jpeg(1))], "prompt": ""}),
            None,
        )
        .await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        assert_eq!(error(&response).0, "UNAUTHORIZED");
        let response = post_raw(&routes, "submission.getDeepgramKey", "{}".into(), None).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        let response = query(&routes, "system.features", None).await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        assert!(seen.lock().expect("lock").is_empty());
        assert!(grants.lock().expect("lock").is_empty());
    }
);

dual_test!(
    async fn photo_calls_take_large_bodies_and_everything_else_keeps_the_small_limit(app: TestApp) {
        let (base, seen) = vision_stub(Some(VISION_KEY), VisionReply::Completion("Read it.")).await;
        let routes = app_with(&app, Some(vision_config(&base, Some(VISION_KEY))), None);
        let (_, cookie) = teacher(&app).await;

        // Four photos of 1 MB: over the 2 MB default, well within the photo limit.
        let mut big = jpeg(7);
        big.resize(1024 * 1024, 0x55);
        let images = vec![b64(&big); 4];
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": images, "prompt": "Read this."}),
            Some(&cookie),
        )
        .await;
        assert_eq!(data(&response), json!({"text": "Read it."}));
        let sent =
            seen.lock().expect("lock")[0]["messages"][1]["content"][4]["image_url"]["url"].clone();
        assert_eq!(sent, format!("data:image/jpeg;base64,{}", b64(&big)));

        // Past 40 MB: a clear 413, before any of it reaches the provider.
        let huge = "A".repeat(41 * 1024 * 1024);
        let body = format!(r#"{{"0":{{"json":{{"images":["{huge}"],"prompt":""}}}}}}"#);
        let response = post_raw(&routes, "notification.analyseImage", body, Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            response.json()["error"]["json"]["message"],
            "The request is too large: this call accepts at most 40 MB."
        );
        assert_eq!(seen.lock().expect("lock").len(), 1);

        // Any other procedure, and a signed-out caller of this one, keep 2 MB.
        let three_mb = "x".repeat(3 * 1024 * 1024);
        let body = format!(r#"{{"0":{{"json":{{"forename":"{three_mb}","surname":"S"}}}}}}"#);
        let response = post_raw(&routes, "user.updateProfile", body, Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            response.json()["error"]["json"]["data"]["code"],
            "PAYLOAD_TOO_LARGE"
        );
        let response = mutate(
            &routes,
            "notification.analyseImage",
            json!({"images": vec![b64(&big); 4], "prompt": ""}),
            None,
        )
        .await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
    }
);

// ---------------------------------------------------------------------------------------
// submission.getDeepgramKey

dual_test!(
    async fn a_short_lived_deepgram_token_is_minted_for_the_browser(app: TestApp) {
        let (dg, grants) = deepgram_stub(GrantReply::Token).await;
        let routes = app_with(&app, None, Some(speech_config(&dg)));
        let (_, cookie) = teacher(&app).await;
        let before = chrono::Utc::now();
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        let key = data(&response);
        assert_eq!(key["key"], "eyJhbGciOiJIUzI1NiJ9.stub.token");
        assert_eq!(key["scheme"], "bearer");
        let port = dg.rsplit(':').next().expect("port");
        assert_eq!(key["listenUrl"], format!("ws://127.0.0.1:{port}/v1/listen"));
        assert_eq!(
            response.json()[0]["result"]["data"]["meta"],
            json!({"values": {"expiresAt": ["Date"]}, "v": 1})
        );
        let expires_at =
            chrono::DateTime::parse_from_rfc3339(key["expiresAt"].as_str().expect("a date"))
                .expect("ISO date")
                .with_timezone(&chrono::Utc);
        let lifetime = (expires_at - before).num_seconds();
        assert!(
            (55..=65).contains(&lifetime),
            "expires {lifetime} s after the call"
        );
        assert_eq!(
            *grants.lock().expect("lock"),
            vec![json!({"ttl_seconds": 60})]
        );
        // The API key itself never reaches the browser.
        assert!(!response.text().contains(DEEPGRAM_KEY));
    }
);

dual_test!(
    async fn deepgram_errors_of_each_shape_reach_the_user(app: TestApp) {
        let (_, cookie) = teacher(&app).await;

        let (dg, _) = deepgram_stub(GrantReply::ModernError).await;
        let routes = app_with(&app, None, Some(speech_config(&dg)));
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            error(&response).1,
            "The speech service answered: Insufficient permissions. (The key needs the Member role.)"
        );

        let (dg, _) = deepgram_stub(GrantReply::PlainText).await;
        let routes = app_with(&app, None, Some(speech_config(&dg)));
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(
            error(&response).1,
            "The speech service answered: upstream exploded"
        );

        // A wrong key: Deepgram's legacy `{err_code, err_msg}` shape.
        let (dg, grants) = deepgram_stub(GrantReply::Token).await;
        let mut config = speech_config(&dg);
        config.api_key = "dg-wrong-key-000000".into();
        let routes = app_with(&app, None, Some(config));
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(
            error(&response).1,
            "The speech service answered: Invalid credentials."
        );
        assert!(grants.lock().expect("lock").is_empty());

        let closed = closed_address().await;
        let routes = app_with(&app, None, Some(speech_config(&format!("http://{closed}"))));
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(
            error(&response),
            (
                "INTERNAL_SERVER_ERROR".to_owned(),
                "Could not reach the speech service. Please try again later.".to_owned()
            )
        );
    }
);

dual_test!(
    async fn without_deepgram_dictation_says_it_is_not_set_up(app: TestApp) {
        let (_, cookie) = teacher(&app).await;
        let response = post_raw(
            &app.router,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::PRECONDITION_FAILED);
        assert_eq!(
            error(&response),
            (
                "PRECONDITION_FAILED".to_owned(),
                "Live dictation is not switched on for your school yet. Ask your administrator.".to_owned()
            )
        );
    }
);

dual_test!(
    async fn minting_is_rate_limited_per_user(app: TestApp) {
        let (dg, grants) = deepgram_stub(GrantReply::Token).await;
        let mut config = (*app.state.config).clone();
        config.speech = Some(speech_config(&dg));
        let state = AppState::new(app.db.clone(), config).expect("state");
        let routes = router(state.clone());
        let (user_id, cookie) = teacher(&app).await;
        let limit = voicemark::rpc::submission::get_deepgram_key::MINT_LIMIT;
        for _ in 0..limit - 1 {
            state.auth.limiter.record(&format!("dictation:{user_id}")).await;
        }
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&cookie),
        )
        .await;
        assert_eq!(response.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            error(&response).1,
            "Too many dictation sessions were started. Please wait 15 minutes and try again."
        );
        assert_eq!(grants.lock().expect("lock").len(), 1);
        // Another teacher is not affected.
        let (_, other) = teacher(&app).await;
        let response = post_raw(
            &routes,
            "submission.getDeepgramKey",
            "{}".into(),
            Some(&other),
        )
        .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    }
);

// ---------------------------------------------------------------------------------------
// system.features

dual_test!(
    async fn features_say_which_providers_are_set_up(app: TestApp) {
        let (_, cookie) = teacher(&app).await;
        let response = query(&app.router, "system.features", Some(&cookie)).await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text());
        assert_eq!(
            response.json()["result"]["data"]["json"],
            json!({"photoAnalysis": false, "dictation": false, "chat": false, "billing": null})
        );
        let routes = app_with(
            &app,
            Some(vision_config("http://127.0.0.1:9/v1", None)),
            Some(speech_config("http://127.0.0.1:9")),
        );
        let response = query(&routes, "system.features", Some(&cookie)).await;
        assert_eq!(
            response.json()["result"]["data"]["json"],
            json!({"photoAnalysis": true, "dictation": true, "chat": false, "billing": null})
        );
    }
);
