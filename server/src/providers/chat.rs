//! An OpenAI-compatible Chat Completions client for text: the model that fills a task's
//! answers, tidies an answer and writes reports. The same code talks to OpenAI, Ollama, vLLM
//! and llama.cpp's `llama-server`; only the base URL, model and key differ
//! (`VOICEMARK_CHAT_*`, falling back to the vision settings: docs/providers.md).
//!
//! Two ways to call: [`ChatClient::complete`] (one JSON answer) and [`ChatClient::stream`]
//! (Server-Sent Events, `choices[0].delta.content` pieces as they are written). A request
//! may ask for structured output (a JSON schema); servers differ in what they accept, so
//! the client tries `json_schema`, then `json_object`, then no `response_format` (the prompt
//! still asks for JSON), keeps the first mode the server takes for later calls, and reads
//! the answer leniently ([`extract_json`]).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

use eventsource_stream::Eventsource as _;
use futures_util::stream::{BoxStream, StreamExt};
use serde_json::{json, Value};

mod turns;

pub use turns::{is_transient, refuses_tools, ToolCall, ToolCallDelta, ToolCalls, RETRY_BACKOFF};

use super::openai::Endpoint;
use super::{error_message, redact, ProviderError};
use crate::config::{ChatConfig, StructuredOutput};
use crate::metrics::SendTimed as _;

/// How long a whole non-streamed answer, or the wait for a stream's first byte, may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// A stream may go this long without a byte before it counts as stalled.
pub const STREAM_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// One request: a system prompt, the user's text and, optionally, the JSON schema the answer
/// must follow.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub system: String,
    pub user: String,
    /// `(name, schema)`: asks for structured output.
    pub schema: Option<(String, Value)>,
    pub max_tokens: u32,
    pub temperature: f64,
}

/// A client for one configured chat server, reused for every call.
#[derive(Debug, Clone)]
pub struct ChatClient {
    endpoint: Endpoint,
    /// The structured-output mode to try first: the configured one, lowered when the
    /// server refuses it (0 json_schema, 1 json_object, 2 none).
    mode: Arc<AtomicU8>,
}

fn mode_index(mode: StructuredOutput) -> u8 {
    match mode {
        StructuredOutput::JsonSchema => 0,
        StructuredOutput::JsonObject => 1,
        StructuredOutput::None => 2,
    }
}

/// The `response_format` for `mode` (index) and `schema`; `None` sends no field.
fn response_format(mode: u8, schema: &Option<(String, Value)>) -> Option<Value> {
    let (name, schema) = schema.as_ref()?;
    match mode {
        0 => Some(json!({
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": true},
        })),
        1 => Some(json!({"type": "json_object"})),
        _ => None,
    }
}

/// Whether an error answer says the server does not take this `response_format` (so a
/// simpler one is worth a try): a 400/422/501 that names the field or says "unsupported".
pub fn refuses_response_format(err: &ProviderError) -> bool {
    match err {
        ProviderError::Answered { status, message } if matches!(status, 400 | 422 | 501) => {
            let m = message.to_ascii_lowercase();
            ["response_format", "json_schema", "json_object", "structured", "unsupported", "not supported", "guided"]
                .iter()
                .any(|needle| m.contains(needle))
        }
        _ => false,
    }
}

impl ChatClient {
    pub fn new(config: &ChatConfig) -> Result<ChatClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(STREAM_IDLE_TIMEOUT)
            .build()?;
        Ok(ChatClient {
            endpoint: Endpoint {
                http,
                url: format!("{}/chat/completions", config.base_url.trim_end_matches('/')),
                model: config.model.clone(),
                api_key: config.api_key.clone(),
            },
            mode: Arc::new(AtomicU8::new(mode_index(config.structured_output))),
        })
    }

    /// The model name sent with every request.
    pub fn model(&self) -> &str {
        &self.endpoint.model
    }

    /// The request's JSON.
    pub fn body(&self, request: &ChatRequest, stream: bool, mode: u8) -> Value {
        let mut body = json!({
            "model": self.endpoint.model,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stream": stream,
        });
        if let Some(format) = response_format(mode, &request.schema) {
            body["response_format"] = format;
        }
        body
    }

    /// Posts one request body; answers the response when its status is a success, else the
    /// server's error (its message, the key redacted).
    async fn post(&self, body: &Value, stream: bool) -> Result<reqwest::Response, ProviderError> {
        let call = self
            .endpoint
            .post()
            .timeout(if stream { REQUEST_TIMEOUT * 10 } else { REQUEST_TIMEOUT })
            .json(body);
        let response = call.send_timed("chat").await.map_err(ProviderError::from_reqwest)?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let text = response.text().await.map_err(ProviderError::from_reqwest)?;
        Err(ProviderError::Answered {
            status: status.as_u16(),
            message: error_message(status, &text, self.endpoint.secret()),
        })
    }

    /// Sends the request in the current mode, stepping down the structured-output modes
    /// while the server refuses them; answers the successful response.
    async fn send(&self, request: &ChatRequest, stream: bool) -> Result<reqwest::Response, ProviderError> {
        let mut mode = self.mode.load(Ordering::Relaxed);
        loop {
            let err = match self.post(&self.body(request, stream, mode), stream).await {
                Ok(response) => return Ok(response),
                Err(err) => err,
            };
            if request.schema.is_some() && mode < 2 && refuses_response_format(&err) {
                mode += 1;
                self.mode.store(mode, Ordering::Relaxed);
                tracing::info!(mode, "the chat server refused a response_format; trying a simpler one");
                continue;
            }
            return Err(err);
        }
    }

    /// The whole answer's text (not streamed).
    pub async fn complete(&self, request: &ChatRequest) -> Result<String, ProviderError> {
        let response = self.send(request, false).await?;
        let text = response.text().await.map_err(ProviderError::from_reqwest)?;
        super::vision::read_completion(&text).map_err(|err| self.redacted(err))
    }

    /// The answer as it is written: each item is the next piece of text. The stream ends
    /// at `[DONE]` or when the server closes; an error event ends it with an error.
    pub async fn stream(
        &self,
        request: &ChatRequest,
    ) -> Result<BoxStream<'static, Result<String, ProviderError>>, ProviderError> {
        let response = self.send(request, true).await?;
        let secret = self.endpoint.api_key.clone();
        let events = response.bytes_stream().eventsource();
        let pieces = events
            .map(move |event| match event {
                Err(err) => Piece::Failed(ProviderError::Unreachable(err.to_string())),
                Ok(event) => read_chunk(&event.data, secret.as_deref()),
            })
            .take_while(|piece| std::future::ready(!matches!(piece, Piece::Done)))
            .filter_map(|piece| {
                std::future::ready(match piece {
                    Piece::Text(text) => Some(Ok(text)),
                    Piece::Failed(err) => Some(Err(err)),
                    Piece::Skip | Piece::Done => None,
                })
            });
        Ok(pieces.boxed())
    }

    /// One turn of a conversation with tools (OpenAI function calling), streamed: the
    /// messages so far (`system`, `user`, `assistant` with `tool_calls`, `tool`) and the
    /// functions the model may call. Each item is a piece of text, a fragment of a tool call
    /// (see [`ToolCalls`]) or the finish reason. A time-out, a connection that fails, 429 or
    /// 5xx before the stream starts is tried once more after [`RETRY_BACKOFF`].
    pub async fn stream_turn(
        &self,
        messages: &[Value],
        tools: &[Value],
        max_tokens: u32,
    ) -> Result<BoxStream<'static, Result<TurnPiece, ProviderError>>, ProviderError> {
        let mut body = json!({
            "model": self.endpoint.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": 0.2,
            "stream": true,
        });
        if !tools.is_empty() {
            body["tools"] = Value::Array(tools.to_vec());
            body["tool_choice"] = json!("auto");
        }
        let response = match self.post(&body, true).await {
            Err(err) if is_transient(&err) => {
                tracing::info!(%err, "the chat server failed; trying once more");
                tokio::time::sleep(RETRY_BACKOFF).await;
                self.post(&body, true).await?
            }
            other => other?,
        };
        let secret = self.endpoint.api_key.clone();
        let events = response.bytes_stream().eventsource();
        let pieces = events
            .map(move |event| match event {
                Err(err) => Event::Failed(ProviderError::Unreachable(err.to_string())),
                Ok(event) => parse_event(&event.data, secret.as_deref()),
            })
            .take_while(|event| std::future::ready(!matches!(event, Event::Done)))
            .flat_map(|event| {
                let items: Vec<Result<TurnPiece, ProviderError>> = match event {
                    Event::Failed(err) => vec![Err(err)],
                    Event::Done => Vec::new(),
                    Event::Delta { text, tool_calls, finish } => text
                        .map(TurnPiece::Text)
                        .into_iter()
                        .chain(tool_calls.into_iter().map(TurnPiece::ToolCall))
                        .chain(finish.map(TurnPiece::Finished))
                        .map(Ok)
                        .collect(),
                };
                futures_util::stream::iter(items)
            });
        Ok(pieces.boxed())
    }

    fn redacted(&self, err: ProviderError) -> ProviderError {
        match err {
            ProviderError::Answered { status, message } => ProviderError::Answered {
                status,
                message: redact(&message, self.endpoint.secret()),
            },
            other => other,
        }
    }
}

/// What the text stream ([`ChatClient::stream`]) makes of one event.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Skip,
    Done,
    Failed(ProviderError),
}

/// One piece of a turn with tools ([`ChatClient::stream_turn`]).
#[derive(Debug, Clone, PartialEq)]
pub enum TurnPiece {
    /// The next piece of the answer's text.
    Text(String),
    /// A fragment of a tool call.
    ToolCall(ToolCallDelta),
    /// `finish_reason`: `stop`, `length`, `tool_calls`…
    Finished(String),
}

/// One SSE event's data, read.
#[derive(Debug, PartialEq)]
enum Event {
    Done,
    Failed(ProviderError),
    Delta {
        text: Option<String>,
        tool_calls: Vec<ToolCallDelta>,
        finish: Option<String>,
    },
}

/// Reads one `data:` payload of a stream: `[DONE]`, a `chat.completion.chunk` (text in
/// `choices[0].delta.content`, absent or null tolerated, empty `choices` for a usage
/// chunk; tool-call fragments in `delta.tool_calls`), or an `{"error": ...}` sent after
/// the stream began (Ollama, vLLM). A `content_filter` finish is a refusal.
fn parse_event(data: &str, secret: Option<&str>) -> Event {
    let data = data.trim();
    if data == "[DONE]" {
        return Event::Done;
    }
    let empty = Event::Delta { text: None, tool_calls: Vec::new(), finish: None };
    if data.is_empty() {
        return empty;
    }
    let Ok(chunk) = serde_json::from_str::<Value>(data) else {
        return Event::Failed(ProviderError::Malformed(format!(
            "a stream event is not JSON: {}",
            data.chars().take(200).collect::<String>()
        )));
    };
    if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
        let text = json!({ "error": error }).to_string();
        return Event::Failed(ProviderError::Answered {
            status: 200,
            message: error_message(reqwest::StatusCode::OK, &text, secret),
        });
    }
    let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
        return empty;
    };
    let delta = choice.get("delta");
    let text = delta
        .and_then(|d| d.get("content"))
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    let tool_calls = delta
        .and_then(|d| d.get("tool_calls"))
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .map(|call| ToolCallDelta {
                    index: call.get("index").and_then(Value::as_u64).map(|i| i as usize),
                    id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                    name: call.pointer("/function/name").and_then(Value::as_str).map(str::to_owned),
                    arguments: match call.pointer("/function/arguments") {
                        Some(Value::String(text)) => text.clone(),
                        // Some servers send the arguments as an object, not as JSON text.
                        Some(value @ Value::Object(_)) => value.to_string(),
                        _ => String::new(),
                    },
                })
                .collect()
        })
        .unwrap_or_default();
    let finish = choice.get("finish_reason").and_then(Value::as_str).map(str::to_owned);
    if finish.as_deref() == Some("content_filter") {
        return Event::Failed(ProviderError::Declined(
            "the answer was withheld by the service's content filter".into(),
        ));
    }
    Event::Delta { text, tool_calls, finish }
}

/// The text stream's view of an event: its text, or nothing.
fn read_chunk(data: &str, secret: Option<&str>) -> Piece {
    match parse_event(data, secret) {
        Event::Done => Piece::Done,
        Event::Failed(err) => Piece::Failed(err),
        Event::Delta { text: Some(text), .. } => Piece::Text(text),
        Event::Delta { .. } => Piece::Skip,
    }
}

/// The JSON object in a model's answer, leniently: the whole text, or the text inside a
/// ```json fence, or from the first `{` to the last `}` (models add words around it). A
/// reasoning model's `<think>…</think>` before the answer is skipped.
pub fn extract_json(text: &str) -> Option<Value> {
    let answer = text.rsplit_once("</think>").map_or(text, |(_, after)| after);
    let trimmed = answer.trim();
    if let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
        return Some(value);
    }
    let unfenced = trimmed
        .split("```")
        .nth(1)
        .map(|inner| inner.trim_start_matches("json").trim());
    if let Some(Ok(value @ Value::Object(_))) = unfenced.map(serde_json::from_str::<Value>) {
        return Some(value);
    }
    let start = trimmed.find('{')?;
    let end = trimmed.rfind('}')?;
    (start < end)
        .then(|| serde_json::from_str::<Value>(&trimmed[start..=end]).ok())
        .flatten()
        .filter(Value::is_object)
}

/// The string values of `keys` in a JSON text that may still be arriving (a stream cut at
/// any point): for each key found, its text so far and whether its closing quote has come.
/// Escapes are decoded; an escape cut in half is left out until it completes.
pub fn partial_string_values(text: &str, keys: &[&str]) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for key in keys {
        let needle = format!("\"{}\"", key);
        let Some(at) = text.find(&needle) else { continue };
        let rest = text[at + needle.len()..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else { continue };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix('"') else { continue };
        let (value, complete) = read_json_string(rest);
        out.push(((*key).to_owned(), value, complete));
    }
    out
}

/// Reads a JSON string body up to its closing quote (or the end of the text so far).
fn read_json_string(rest: &str) -> (String, bool) {
    let mut value = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => return (value, true),
            '\\' => {
                let Some(escaped) = chars.next() else { break };
                match escaped {
                    'n' => value.push('\n'),
                    't' => value.push('\t'),
                    'r' => value.push('\r'),
                    'b' => value.push('\u{8}'),
                    'f' => value.push('\u{c}'),
                    'u' => {
                        let hex: String = chars.by_ref().take(4).collect();
                        if hex.len() < 4 {
                            break;
                        }
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(decoded) => value.push(decoded),
                            // A surrogate half (emoji): shown when the pair is complete in
                            // the final parse; left out of the preview.
                            None => {}
                        }
                    }
                    other => value.push(other),
                }
            }
            c => value.push(c),
        }
    }
    (value, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(mode: StructuredOutput) -> ChatClient {
        ChatClient::new(&ChatConfig {
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "llama3.1:8b".into(),
            api_key: None,
            structured_output: mode,
        })
        .expect("client")
    }

    fn request(schema: bool) -> ChatRequest {
        ChatRequest {
            system: "You fill in forms.".into(),
            user: "Notes: ...".into(),
            schema: schema.then(|| ("answers".to_owned(), json!({"type": "object"}))),
            max_tokens: 500,
            temperature: 0.2,
        }
    }

    #[test]
    fn the_request_carries_the_mode_asked_for() {
        let c = client(StructuredOutput::JsonSchema);
        let body = c.body(&request(true), true, 0);
        assert_eq!(body["model"], "llama3.1:8b");
        assert_eq!(body["stream"], true);
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["content"], "Notes: ...");
        assert_eq!(body["response_format"]["type"], "json_schema");
        assert_eq!(body["response_format"]["json_schema"]["name"], "answers");
        assert_eq!(body["response_format"]["json_schema"]["strict"], true);
        assert_eq!(c.body(&request(true), false, 1)["response_format"], json!({"type": "json_object"}));
        assert!(c.body(&request(true), false, 2).get("response_format").is_none());
        assert!(c.body(&request(false), false, 0).get("response_format").is_none());
    }

    #[test]
    fn refusals_of_response_format_are_recognised() {
        let refused = |status, message: &str| {
            refuses_response_format(&ProviderError::Answered { status, message: message.into() })
        };
        assert!(refused(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."));
        assert!(refused(400, "json_schema not supported"));
        assert!(refused(422, "guided decoding backend unavailable"));
        assert!(!refused(400, "model 'x' not found"));
        assert!(!refused(401, "response_format"));
    }

    #[test]
    fn stream_chunks_are_read_leniently() {
        assert_eq!(read_chunk("[DONE]", None), Piece::Done);
        assert_eq!(
            read_chunk(r#"{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Good"},"finish_reason":null}]}"#, None),
            Piece::Text("Good".into())
        );
        assert_eq!(read_chunk(r#"{"choices":[{"delta":{"content":null}}]}"#, None), Piece::Skip);
        assert_eq!(read_chunk(r#"{"choices":[{"delta":{}}],"usage":null}"#, None), Piece::Skip);
        assert_eq!(read_chunk(r#"{"choices":[],"usage":{"total_tokens":3}}"#, None), Piece::Skip);
        assert_eq!(
            read_chunk(r#"{"error":{"message":"model crashed"}}"#, None),
            Piece::Failed(ProviderError::Answered { status: 200, message: "model crashed".into() })
        );
        assert!(matches!(read_chunk("not json", None), Piece::Failed(ProviderError::Malformed(_))));
        assert!(matches!(
            read_chunk(r#"{"choices":[{"delta":{},"finish_reason":"content_filter"}]}"#, None),
            Piece::Failed(ProviderError::Declined(_))
        ));
    }

    #[test]
    fn json_is_found_in_plain_fenced_and_chatty_answers() {
        let expected = json!({"answers": {"q1": "Yes"}});
        assert_eq!(extract_json(r#"{"answers":{"q1":"Yes"}}"#), Some(expected.clone()));
        assert_eq!(extract_json("```json\n{\"answers\":{\"q1\":\"Yes\"}}\n```"), Some(expected.clone()));
        assert_eq!(extract_json("Here you are:\n{\"answers\":{\"q1\":\"Yes\"}}\nHope it helps."), Some(expected));
        assert_eq!(
            extract_json("<think>Maybe {\"q1\": ...}?</think>\n{\"answers\":{\"q1\":\"Yes\"}}"),
            Some(json!({"answers": {"q1": "Yes"}}))
        );
        assert_eq!(extract_json("no json here"), None);
        assert_eq!(extract_json("[1, 2]"), None);
    }

    #[test]
    fn partial_values_grow_as_the_stream_arrives() {
        let keys = ["q1", "q2"];
        assert!(partial_string_values(r#"{"answers":{"q"#, &keys).is_empty());
        assert_eq!(
            partial_string_values(r#"{"answers":{"q1": "The lesson \"began"#, &keys),
            vec![("q1".into(), "The lesson \"began".into(), false)]
        );
        assert_eq!(
            partial_string_values(r#"{"answers":{"q1":"Line one\nLine two","q2":"Caf\u00e9 \"#, &keys),
            vec![
                ("q1".into(), "Line one\nLine two".into(), true),
                ("q2".into(), "Café ".into(), false),
            ]
        );
        assert_eq!(
            partial_string_values(r#"{"q2":"ab\u00"#, &keys),
            vec![("q2".into(), "ab".into(), false)]
        );
    }
}
