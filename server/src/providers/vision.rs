//! An OpenAI-compatible Chat Completions client with image input, so the same code talks to
//! OpenAI, Ollama, vLLM and llama.cpp's `llama-server` (only the base URL, model and key
//! differ). One non-streamed request per analysis: `POST {base}/chat/completions` with a
//! system prompt and one user message of a text part and one data-URL image part per photo.

use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;
use serde_json::{json, Value};

use super::openai::Endpoint;
use super::{error_message, redact, ProviderError};
use crate::config::VisionConfig;
use crate::metrics::SendTimed as _;

/// How long one analysis may take. Kept under the 60 s limit of every `/api/trpc` call (see
/// `app::router`) so the teacher reads "took too long" rather than a bare 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(55);
/// Enough for a few paragraphs of feedback.
pub const MAX_TOKENS: u32 = 1000;
/// Low: feedback should follow the work, not wander.
pub const TEMPERATURE: f64 = 0.2;

/// Tells the model who it is helping and how to answer.
pub const SYSTEM_PROMPT: &str = "You are helping a teacher at a school in the United Kingdom \
give feedback on pupils' work. The photos show a pupil's work, which may be handwritten. Read \
it carefully and answer in British English, in a warm, specific and constructive tone that the \
teacher can share with the pupil: say what has been done well and give clear next steps. Do not \
guess or repeat personal details about the pupil. If a photo cannot be read, say so plainly.";

/// What is asked when the teacher leaves the prompt empty.
pub const DEFAULT_PROMPT: &str =
    "Describe the strengths of this work and suggest next steps for the pupil.";

/// The notes mode ("convert the images to notes", spec section 1): the model writes notes
/// from what the photos show, instead of feedback for the pupil.
pub const NOTES_SYSTEM_PROMPT: &str = "You turn photos into notes for a teacher at a school in \
the United Kingdom. The photos may show handwritten or printed pages, a whiteboard, a pupil's \
work or meeting notes. Read everything carefully and write it up as clear, well-organised notes \
in British English: short headings where the content has parts, then bullet points that keep \
every fact, figure and name of a topic as written. Do not add feedback, praise or advice, and do \
not invent anything. If a photo cannot be read, say so plainly.";

/// What is asked in the notes mode when the teacher gives no instructions.
pub const DEFAULT_NOTES_PROMPT: &str = "Write up what these photos show as notes.";

/// What the model is asked to write from the photos.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum VisionMode {
    /// Feedback for the pupil on their work (the default).
    #[default]
    Feedback,
    /// Notes of what the photos show.
    Notes,
}

impl VisionMode {
    pub fn system_prompt(self) -> &'static str {
        match self {
            VisionMode::Feedback => SYSTEM_PROMPT,
            VisionMode::Notes => NOTES_SYSTEM_PROMPT,
        }
    }

    pub fn default_prompt(self) -> &'static str {
        match self {
            VisionMode::Feedback => DEFAULT_PROMPT,
            VisionMode::Notes => DEFAULT_NOTES_PROMPT,
        }
    }
}

/// A client for one configured vision server, reused for every call.
#[derive(Debug, Clone)]
pub struct VisionClient {
    endpoint: Endpoint,
}

impl VisionClient {
    pub fn new(config: &VisionConfig) -> Result<VisionClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(VisionClient {
            endpoint: Endpoint {
                http,
                url: format!("{}/chat/completions", config.base_url.trim_end_matches('/')),
                model: config.model.clone(),
                api_key: config.api_key.clone(),
            },
        })
    }

    /// The model's answer to `prompt` about `jpegs` (JPEG bytes, in the order shown):
    /// feedback or notes, as `mode` asks.
    pub async fn describe(
        &self,
        mode: VisionMode,
        prompt: &str,
        jpegs: &[Vec<u8>],
    ) -> Result<String, ProviderError> {
        let body = request_body(&self.endpoint.model, mode, prompt, jpegs);
        let request = self.endpoint.post().json(&body);
        let response = request.send_timed("vision").await.map_err(ProviderError::from_reqwest)?;
        let status = response.status();
        let text = response.text().await.map_err(ProviderError::from_reqwest)?;
        let secret = self.endpoint.secret();
        if !status.is_success() {
            return Err(ProviderError::Answered {
                status: status.as_u16(),
                message: error_message(status, &text, secret),
            });
        }
        read_completion(&text).map_err(|err| match err {
            ProviderError::Answered { status, message } => ProviderError::Answered {
                status,
                message: redact(&message, secret),
            },
            other => other,
        })
    }
}

/// The JSON of one request (Chat Completions, non-streamed).
pub fn request_body(model: &str, mode: VisionMode, prompt: &str, jpegs: &[Vec<u8>]) -> Value {
    let mut content = vec![json!({"type": "text", "text": prompt})];
    for jpeg in jpegs {
        let data = base64::engine::general_purpose::STANDARD.encode(jpeg);
        content.push(json!({
            "type": "image_url",
            "image_url": {"url": format!("data:image/jpeg;base64,{data}")},
        }));
    }
    json!({
        "model": model,
        "messages": [
            {"role": "system", "content": mode.system_prompt()},
            {"role": "user", "content": content},
        ],
        "max_tokens": MAX_TOKENS,
        "temperature": TEMPERATURE,
        "stream": false,
    })
}

/// A `chat.completion` body, every field optional: servers differ in what they send.
#[derive(Debug, Default, Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
    /// Some servers answer 200 with an error envelope.
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
struct Choice {
    #[serde(default)]
    message: Option<Message>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Message {
    /// A string, or (some servers) an array of `{type: "text", text}` parts.
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    refusal: Option<String>,
}

/// The answer's text: `choices[0].message.content`, leniently.
pub(crate) fn read_completion(body: &str) -> Result<String, ProviderError> {
    let completion: Completion = serde_json::from_str(body).map_err(|e| {
        ProviderError::Malformed(format!("not a chat completion ({e}): {}", preview(body)))
    })?;
    if let Some(error) = completion.error.filter(|e| !e.is_null()) {
        let text = serde_json::json!({ "error": error }).to_string();
        return Err(ProviderError::Answered {
            status: 200,
            message: error_message(reqwest::StatusCode::OK, &text, None),
        });
    }
    let Some(choice) = completion.choices.into_iter().next() else {
        return Err(ProviderError::Malformed("the answer has no choices".into()));
    };
    let message = choice.message.unwrap_or_default();
    let text = match message.content {
        Some(Value::String(text)) => text,
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    };
    let text = text.trim().to_owned();
    if !text.is_empty() {
        return Ok(text);
    }
    if let Some(refusal) = message.refusal.filter(|r| !r.trim().is_empty()) {
        return Err(ProviderError::Declined(refusal.trim().to_owned()));
    }
    match choice.finish_reason.as_deref() {
        Some("content_filter") => Err(ProviderError::Declined(
            "the answer was withheld by the service's content filter".into(),
        )),
        Some("length") => Err(ProviderError::Malformed(
            "the answer was cut off before any text (max_tokens too low)".into(),
        )),
        _ => Err(ProviderError::Malformed("the answer has no text".into())),
    }
}

/// The start of a body, for the log.
fn preview(body: &str) -> String {
    body.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_has_the_prompt_then_each_photo_in_order() {
        let body = request_body(
            "qwen2.5vl:7b",
            VisionMode::Feedback,
            "Mark this.",
            &[vec![0xFF, 0xD8, 0xFF], vec![1]],
        );
        assert_eq!(body["model"], "qwen2.5vl:7b");
        assert_eq!(body["stream"], false);
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][0]["content"], SYSTEM_PROMPT);
        let parts = body["messages"][1]["content"].as_array().expect("parts");
        assert_eq!(parts[0], json!({"type": "text", "text": "Mark this."}));
        assert_eq!(parts[1]["image_url"]["url"], "data:image/jpeg;base64,/9j/");
        assert_eq!(parts[2]["image_url"]["url"], "data:image/jpeg;base64,AQ==");
    }

    #[test]
    fn the_notes_mode_asks_for_notes_not_feedback() {
        let body = request_body("m", VisionMode::Notes, DEFAULT_NOTES_PROMPT, &[vec![0xFF, 0xD8, 0xFF]]);
        let system = body["messages"][0]["content"].as_str().expect("system prompt");
        assert_eq!(system, NOTES_SYSTEM_PROMPT);
        assert!(system.starts_with("You turn photos into notes"));
        assert!(system.contains("Do not add feedback"));
        assert_eq!(body["messages"][1]["content"][0]["text"], DEFAULT_NOTES_PROMPT);
    }

    #[test]
    fn completions_are_read_leniently() {
        assert_eq!(
            read_completion(r#"{"choices":[{"message":{"content":" Good work. "}}]}"#),
            Ok("Good work.".into())
        );
        assert_eq!(
            read_completion(
                r#"{"choices":[{"message":{"content":[{"type":"text","text":"A"},{"type":"text","text":"B"}]}}]}"#
            ),
            Ok("AB".into())
        );
        assert_eq!(
            read_completion(
                r#"{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}"#
            ),
            Err(ProviderError::Declined("I can't help with that.".into()))
        );
        assert!(matches!(
            read_completion(r#"{"choices":[]}"#),
            Err(ProviderError::Malformed(_))
        ));
        assert!(matches!(
            read_completion("not json"),
            Err(ProviderError::Malformed(_))
        ));
        assert_eq!(
            read_completion(r#"{"error":{"message":"model overloaded"}}"#),
            Err(ProviderError::Answered {
                status: 200,
                message: "model overloaded".into()
            })
        );
    }
}
