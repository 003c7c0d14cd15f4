//! Outside services the server calls on a teacher's behalf: an OpenAI-compatible vision
//! model that reads photos of pupils' work (`vision`) and Deepgram, which gives the browser
//! short-lived credentials for live dictation (`speech`). Each is optional: without its
//! configuration the feature is off and says so. Wire formats and setup: docs/providers.md.

pub mod chat;
pub mod microsoft;
pub mod msgraph;
pub mod openai;
pub mod speech;
pub mod stripe;
pub mod transcription;
pub mod vision;
pub mod wonde;
pub mod xporter;

use crate::config::Config;

pub use chat::ChatClient;
pub use microsoft::MicrosoftClient;
pub use speech::SpeechClient;
pub use stripe::StripeClient;
pub use transcription::TranscriptionClient;
pub use vision::VisionClient;

/// The configured providers; `None` where a feature is not set up on this server.
#[derive(Debug, Clone, Default)]
pub struct Providers {
    pub vision: Option<VisionClient>,
    pub speech: Option<SpeechClient>,
    /// An OpenAI-compatible transcription server for recorded audio, when set; else
    /// recorded audio goes to Deepgram too (`providers::transcription`).
    pub transcription: Option<TranscriptionClient>,
    /// The text model that fills and tidies a task's answers (`providers::chat`).
    pub chat: Option<ChatClient>,
    /// Stripe's REST API, when billing is on (`providers::stripe`, docs/billing.md).
    pub stripe: Option<StripeClient>,
    /// The Microsoft identity platform, when Sign in with Microsoft is configured
    /// (`providers::microsoft`, docs/microsoft-signin.md).
    pub microsoft: Option<MicrosoftClient>,
    /// Microsoft Graph for a task's content, beside the Microsoft app registration
    /// (`providers::msgraph`, docs/microsoft-graph.md).
    pub graph: Option<msgraph::GraphClient>,
    /// Wonde, for the MIS sync (`providers::wonde`, docs/mis-sync.md); always built (each
    /// school brings its own token).
    pub wonde: Option<wonde::WondeClient>,
    /// Groupcall Xporter's OneRoster API, the other MIS source (`providers::xporter`);
    /// always built (each school brings its own id and secret).
    pub xporter: Option<xporter::XporterClient>,
}

impl Providers {
    /// One HTTP client per configured provider (reused for every call).
    pub fn from_config(config: &Config) -> Result<Providers, reqwest::Error> {
        Ok(Providers {
            vision: config.vision.as_ref().map(VisionClient::new).transpose()?,
            speech: config.speech.as_ref().map(SpeechClient::new).transpose()?,
            transcription: config
                .transcription
                .as_ref()
                .map(TranscriptionClient::new)
                .transpose()?,
            chat: config.chat.as_ref().map(ChatClient::new).transpose()?,
            stripe: config.stripe.as_ref().map(StripeClient::new).transpose()?,
            microsoft: config
                .microsoft
                .as_ref()
                .map(MicrosoftClient::new)
                .transpose()?,
            wonde: Some(wonde::WondeClient::new(&config.mis)?),
            xporter: Some(xporter::XporterClient::new(&config.mis)?),
            graph: config
                .microsoft
                .as_ref()
                .map(|m| msgraph::GraphClient::new(&m.graph_url))
                .transpose()?,
        })
    }
}

impl Providers {
    /// Whether recorded audio (voice notes, a task's recordings) can be transcribed: by the
    /// transcription server, or by Deepgram.
    pub fn transcribes_recordings(&self) -> bool {
        self.transcription.is_some() || self.speech.is_some()
    }
}

/// Why a provider call failed. `Display` is for the log; procedures turn each case into a
/// sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// The provider answered with an error status: its own message (key redacted).
    #[error("the provider answered {status}: {message}")]
    Answered { status: u16, message: String },
    /// The provider answered but declined to produce a result (a refusal, a content filter).
    #[error("the provider declined: {0}")]
    Declined(String),
    /// No connection could be made, or it broke before an answer arrived.
    #[error("could not reach the provider: {0}")]
    Unreachable(String),
    /// No answer within the client's time limit.
    #[error("the provider did not answer in time")]
    TimedOut,
    /// A success status with a body in no shape we understand.
    #[error("the provider's answer could not be read: {0}")]
    Malformed(String),
}

impl ProviderError {
    /// A transport failure of reqwest, classified (the text goes to the log only).
    pub(crate) fn from_reqwest(err: reqwest::Error) -> ProviderError {
        if err.is_timeout() {
            ProviderError::TimedOut
        } else {
            // `{:#}`-style chain: reqwest's top line alone ("error sending request") says little.
            let mut detail = err.to_string();
            let mut source = std::error::Error::source(&err);
            while let Some(cause) = source {
                detail.push_str(": ");
                detail.push_str(&cause.to_string());
                source = cause.source();
            }
            ProviderError::Unreachable(detail)
        }
    }
}

/// The longest provider message passed on to the user, in characters.
const MAX_MESSAGE_CHARS: usize = 500;

/// The human message in an error body, whichever of the shapes providers use:
/// OpenAI / Ollama `{"error":{"message"}}`, `{"error":"..."}`, vLLM `{"object":"error",
/// "message"}`, Deepgram `{"err_msg"}` (legacy) or `{"message","details"}`, or plain text.
/// HTML error pages and empty bodies give the status line instead. `secret` (an API key)
/// is never repeated.
pub(crate) fn error_message(
    status: reqwest::StatusCode,
    body: &str,
    secret: Option<&str>,
) -> String {
    let from_json = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|json| json_message(&json));
    let trimmed = body.trim();
    let message = match from_json {
        Some(message) => message,
        None if !trimmed.is_empty() && !trimmed.starts_with('<') && !trimmed.starts_with('{') => {
            trimmed.to_owned()
        }
        None => format!(
            "HTTP {} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("error")
        ),
    };
    redact(&truncate(&message), secret)
}

/// The message field of a JSON error body, if it has one.
fn json_message(json: &serde_json::Value) -> Option<String> {
    let text = |v: &serde_json::Value| {
        v.as_str()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let error = json.get("error");
    let message = error
        .and_then(|e| e.get("message"))
        .and_then(text)
        .or_else(|| error.and_then(text))
        .or_else(|| json.get("message").and_then(text))
        .or_else(|| json.get("err_msg").and_then(text))
        .or_else(|| json.get("detail").and_then(text))
        .or_else(|| json.get("details").and_then(text))?;
    // Deepgram's modern shape puts the specifics in `details`: keep them when they add something.
    match json.get("details").and_then(text) {
        Some(details) if json.get("message").is_some() && details != message => {
            Some(format!("{message} ({details})"))
        }
        _ => Some(message),
    }
}

fn truncate(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((at, _)) => format!("{}…", &message[..at]),
        None => message.to_owned(),
    }
}

/// `text` with every occurrence of `secret` masked.
pub(crate) fn redact(text: &str, secret: Option<&str>) -> String {
    match secret {
        Some(secret) if secret.len() >= 4 => text.replace(secret, "[redacted]"),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::StatusCode;

    #[test]
    fn error_bodies_of_every_known_shape_give_their_message() {
        let s = StatusCode::BAD_REQUEST;
        assert_eq!(
            error_message(
                s,
                r#"{"error":{"message":"Invalid image URL","type":"invalid_request_error","param":null,"code":"invalid_image_url"}}"#,
                None
            ),
            "Invalid image URL"
        );
        assert_eq!(
            error_message(
                s,
                r#"{"object":"error","message":"At most 1 image(s) may be provided in one request.","type":"BadRequestError","param":null,"code":400}"#,
                None
            ),
            "At most 1 image(s) may be provided in one request."
        );
        assert_eq!(
            error_message(s, r#"{"error":"model 'llava' not found"}"#, None),
            "model 'llava' not found"
        );
        assert_eq!(
            error_message(
                StatusCode::UNAUTHORIZED,
                r#"{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials.","request_id":"r1"}"#,
                None
            ),
            "Invalid credentials."
        );
        assert_eq!(
            error_message(
                StatusCode::FORBIDDEN,
                r#"{"category":"FORBIDDEN","message":"Insufficient permissions.","details":"The key needs Member scope.","request_id":"r2"}"#,
                None
            ),
            "Insufficient permissions. (The key needs Member scope.)"
        );
        assert_eq!(
            error_message(s, "model is loading\n", None),
            "model is loading"
        );
        assert_eq!(
            error_message(
                StatusCode::BAD_GATEWAY,
                "<html><body>502</body></html>",
                None
            ),
            "HTTP 502 Bad Gateway"
        );
        assert_eq!(
            error_message(StatusCode::SERVICE_UNAVAILABLE, "", None),
            "HTTP 503 Service Unavailable"
        );
    }

    #[test]
    fn the_key_is_never_repeated_and_long_messages_are_cut() {
        let message = error_message(
            StatusCode::UNAUTHORIZED,
            r#"{"error":{"message":"Incorrect API key provided: sk-test-1234."}}"#,
            Some("sk-test-1234"),
        );
        assert_eq!(message, "Incorrect API key provided: [redacted].");
        let long = "x".repeat(2000);
        assert_eq!(
            error_message(StatusCode::BAD_REQUEST, &long, None)
                .chars()
                .count(),
            MAX_MESSAGE_CHARS + 1
        );
    }
}
