//! Recorded audio on a school's own servers (docs/providers.md): the OpenAI-compatible
//! transcription client against a stand-in that reads the real multipart/form-data body
//! (`file`, `model`, `response_format`, `language`) and answers OpenAI's JSON; a voice note
//! transcribed end to end through its job with only `VOICEMARK_TRANSCRIPTION_URL` set (no
//! Deepgram); the setup page names where recordings go.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::json;
use voicemark::config::TranscriptionConfig;
use voicemark::providers::{ProviderError, TranscriptionClient};
use voicemark::state::AppState;

use crate::dual_test;
use crate::submissions::world;
use crate::support::TestApp;
use crate::task_content::{report_note, voice_note};

const KEY: &str = "sk-whisper-test-0123456789";

/// One part of a multipart body: its headers (lower-case names) and bytes.
#[derive(Debug, Clone)]
struct Part {
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

impl Part {
    /// A parameter of `Content-Disposition` (`name`, `filename`).
    fn disposition(&self, parameter: &str) -> Option<String> {
        let header = self.headers.get("content-disposition")?;
        header.split(';').map(str::trim).find_map(|p| {
            let (key, value) = p.split_once('=')?;
            (key == parameter).then(|| value.trim_matches('"').to_owned())
        })
    }
}

/// Parses `multipart/form-data` as RFC 7578 writes it: `--boundary` CRLF, headers, CRLF,
/// the bytes, CRLF, ... `--boundary--`.
fn parse_multipart(content_type: &str, body: &[u8]) -> Result<Vec<Part>, String> {
    let (kind, boundary) = content_type.split_once("; boundary=").ok_or("no boundary")?;
    if kind != "multipart/form-data" {
        return Err(format!("not multipart/form-data: {kind}"));
    }
    let delimiter = format!("--{}", boundary.trim_matches('"')).into_bytes();
    let find = |haystack: &[u8], needle: &[u8], from: usize| {
        haystack[from..].windows(needle.len()).position(|w| w == needle).map(|at| at + from)
    };
    let mut at = find(body, &delimiter, 0).ok_or("no first boundary")? + delimiter.len();
    let mut parts = Vec::new();
    loop {
        if body[at..].starts_with(b"--") {
            return Ok(parts);
        }
        if !body[at..].starts_with(b"\r\n") {
            return Err("a boundary not followed by CRLF".into());
        }
        at += 2;
        let head_end = find(body, b"\r\n\r\n", at).ok_or("a part without headers' end")?;
        let mut headers = HashMap::new();
        for line in String::from_utf8_lossy(&body[at..head_end]).split("\r\n") {
            let (name, value) = line.split_once(':').ok_or("a header without a colon")?;
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
        let mut end_marker = b"\r\n".to_vec();
        end_marker.extend_from_slice(&delimiter);
        let end = find(body, &end_marker, head_end + 4).ok_or("a part without its end")?;
        parts.push(Part {
            headers,
            body: body[head_end + 4..end].to_vec(),
        });
        at = end + end_marker.len();
    }
}

#[derive(Default)]
struct Stub {
    /// `Some((status, body))`: answer this error instead.
    failure: Option<(u16, String)>,
    /// Each accepted call's parts by name.
    calls: Vec<HashMap<String, Part>>,
    /// The `Authorization` header of each call (empty when none).
    authorizations: Vec<String>,
}

type Shared = Arc<Mutex<Stub>>;

fn openai_error(status: StatusCode, message: &str) -> Response {
    let body = json!({"error": {"message": message, "type": "invalid_request_error", "param": null, "code": null}});
    (status, axum::Json(body)).into_response()
}

async fn transcriptions(State(stub): State<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let parts = match parse_multipart(&header("content-type"), &body) {
        Ok(parts) => parts,
        Err(why) => return openai_error(StatusCode::BAD_REQUEST, &format!("Could not parse multipart form: {why}")),
    };
    let named: HashMap<String, Part> = parts
        .into_iter()
        .filter_map(|p| Some((p.disposition("name")?, p)))
        .collect();
    let text = |name: &str| named.get(name).map(|p| String::from_utf8_lossy(&p.body).into_owned());
    let Some(file) = named.get("file") else {
        return openai_error(StatusCode::BAD_REQUEST, "you must provide a file");
    };
    if file.disposition("filename").is_none_or(|f| f.is_empty()) {
        return openai_error(StatusCode::BAD_REQUEST, "the file needs a name with its format's extension");
    }
    let Some(model) = text("model") else {
        return openai_error(StatusCode::BAD_REQUEST, "you must provide a model parameter");
    };
    if text("response_format").as_deref() != Some("json") {
        return openai_error(StatusCode::BAD_REQUEST, "expected response_format=json");
    }
    let mut stub = stub.lock().expect("stub");
    stub.authorizations.push(header("authorization"));
    if let Some((status, body)) = stub.failure.clone() {
        let status = StatusCode::from_u16(status).expect("status");
        return (status, [("content-type", "application/json")], body).into_response();
    }
    let content_type = file.headers.get("content-type").cloned().unwrap_or_default();
    let answer = format!(" Transcript of {} bytes of {content_type} by {model}. ", file.body.len());
    stub.calls.push(named);
    axum::Json(json!({"text": answer, "usage": {"type": "duration", "seconds": 3}})).into_response()
}

/// Starts the stand-in on 127.0.0.1; its base URL (`http://127.0.0.1:port`).
async fn stand_in() -> (Shared, String) {
    let stub: Shared = Arc::default();
    let routes = Router::new()
        .route("/v1/audio/transcriptions", post(transcriptions))
        .layer(axum::extract::DefaultBodyLimit::max(100 * 1024 * 1024))
        .with_state(stub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind the stand-in");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    (stub, format!("http://{addr}"))
}

fn config(base_url: &str, api_key: Option<&str>, language: Option<&str>) -> TranscriptionConfig {
    TranscriptionConfig {
        base_url: base_url.to_owned(),
        model: "whisper-1".into(),
        api_key: api_key.map(str::to_owned),
        language: language.map(str::to_owned),
    }
}

#[tokio::test]
async fn the_client_sends_the_real_multipart_form_and_reads_the_text() {
    let (stub, base) = stand_in().await;
    // Self-hosted servers are often written with /v1, OpenAI's always: both reach the route.
    let client = TranscriptionClient::new(&config(&format!("{base}/v1"), Some(KEY), Some("en"))).expect("client");
    let audio: Vec<u8> = (0..70_000u32).map(|i| (i % 251) as u8).collect();
    let length = audio.len() as u64;
    let text = client
        .transcribe(reqwest::Body::from(audio.clone()), "Lesson 3.webm", "audio/webm", Some(length))
        .await
        .expect("transcribed");
    assert_eq!(text, "Transcript of 70000 bytes of audio/webm by whisper-1.");
    {
        let stub = stub.lock().expect("stub");
        let call = &stub.calls[0];
        assert_eq!(call["file"].body, audio, "the recording's exact bytes");
        assert_eq!(call["file"].disposition("filename").as_deref(), Some("Lesson 3.webm"));
        assert_eq!(call["model"].body, b"whisper-1");
        assert_eq!(call["language"].body, b"en");
        assert_eq!(call["response_format"].body, b"json");
        assert_eq!(stub.authorizations[0], format!("Bearer {KEY}"));
    }

    // A self-hosted server without a key, written without /v1, and no language: none sent.
    let client = TranscriptionClient::new(&config(&base, None, None)).expect("client");
    let text = client
        .transcribe(reqwest::Body::from(vec![1u8; 10]), "note.ogg", "audio/ogg", None)
        .await
        .expect("transcribed");
    assert_eq!(text, "Transcript of 10 bytes of audio/ogg by whisper-1.");
    {
        let stub = stub.lock().expect("stub");
        assert!(!stub.calls[1].contains_key("language"));
        assert_eq!(stub.authorizations[1], "", "no key, no Authorization header");
    }

    // An error answer gives the server's message, the key never repeated.
    stub.lock().expect("stub").failure = Some((
        401,
        json!({"error": {"message": format!("Incorrect API key provided: {KEY}."), "type": "invalid_request_error"}}).to_string(),
    ));
    let client = TranscriptionClient::new(&config(&base, Some(KEY), None)).expect("client");
    let err = client
        .transcribe(reqwest::Body::from(vec![1u8; 10]), "note.ogg", "audio/ogg", Some(10))
        .await
        .expect_err("refused");
    assert_eq!(
        err,
        ProviderError::Answered { status: 401, message: "Incorrect API key provided: [redacted].".into() }
    );
}

/// Points `app` at the stand-in for recorded audio, with no Deepgram.
async fn with_transcription(app: &mut TestApp) -> (Shared, String) {
    let (stub, base) = stand_in().await;
    let mut config = (*app.state.config).clone();
    config.speech = None;
    config.transcription = Some(self::config(&base, Some(KEY), None));
    let state = AppState::new(app.db.clone(), config).expect("state");
    app.router = voicemark::app::router(state.clone());
    app.state = state;
    (stub, base)
}

dual_test!(
    async fn a_voice_note_is_transcribed_on_the_schools_own_server(app: TestApp) {
        let mut app = app;
        let (stub, base) = with_transcription(&mut app).await;
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let (id, _key) = voice_note(&app, cookie, "Learning walk.webm").await;
        assert_eq!(crate::sending::drain(&app.state).await, 1, "filing queued its transcription");
        let note = report_note(&app, cookie, &id).await;
        assert_eq!(note["hasTranscript"], true, "{note}");
        assert!(
            note["preview"].as_str().expect("preview").starts_with("Transcript of 400 bytes of audio/webm by whisper-1"),
            "{note}"
        );
        {
            let stub = stub.lock().expect("stub");
            assert_eq!(stub.calls.len(), 1);
            assert_eq!(stub.calls[0]["file"].body, vec![7u8; 400]);
            assert_eq!(stub.calls[0]["file"].disposition("filename").as_deref(), Some("Learning walk.webm"));
        }
        // Live dictation keeps Deepgram: off here, and the browser is told so.
        let features = crate::submissions::query(&app, "system.features", json!({}), Some(cookie)).await;
        assert_eq!(features.data()["dictation"], false);

        // The superadmin's setup page says which provider each capability uses and where
        // the recordings go; the key is never in it.
        let capabilities = voicemark::rpc::system::setup::capabilities(&app.state.config);
        let by_key = |key: &str| capabilities.iter().find(|c| c.key == key).expect("capability");
        let host = base.trim_start_matches("http://");
        let recorded = by_key("transcription");
        assert!(recorded.on);
        assert_eq!(
            recorded.status,
            format!("On, with the model whisper-1 at {host}: voice notes and recordings are sent there.")
        );
        assert!(!by_key("speech").on);
        assert!(!format!("{capabilities:?}").contains(KEY));
    }
);
