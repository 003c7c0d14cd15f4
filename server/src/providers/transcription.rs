//! Recorded audio (voice notes, a task's recordings) transcribed by any server speaking
//! OpenAI's `POST /v1/audio/transcriptions`: OpenAI itself, or one a trust runs itself
//! (faster-whisper, whisper.cpp, vLLM, LocalAI), so pupils' voices can stay on its own
//! servers (docs/providers.md). A multipart/form-data body: `file` (the recording, streamed
//! from the file store, never whole in memory), `model`, `response_format=json` and
//! `language` when set; the answer is `{"text": "..."}`. The key, when there is one, is sent
//! as `Authorization: Bearer` and never leaves the server. Live dictation stays on Deepgram.

use std::time::Duration;

use reqwest::multipart::{Form, Part};
use serde_json::Value;

use super::openai::Endpoint;
use super::{error_message, redact, ProviderError};
use crate::config::TranscriptionConfig;

/// A long recording takes time to upload and transcribe (a self-hosted model on a CPU is
/// slower than real time): up to 30 minutes.
pub const TRANSCRIBE_TIMEOUT: Duration = Duration::from_secs(1800);

/// A client for the configured transcription server, reused for every call.
#[derive(Debug, Clone)]
pub struct TranscriptionClient {
    endpoint: Endpoint,
    language: Option<String>,
}

/// `{base}/audio/transcriptions` when the base URL ends in `/v1` (as the chat and vision
/// settings are written), else `{base}/v1/audio/transcriptions`.
pub fn endpoint(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    if base.ends_with("/v1") {
        format!("{base}/audio/transcriptions")
    } else {
        format!("{base}/v1/audio/transcriptions")
    }
}

impl TranscriptionClient {
    pub fn new(config: &TranscriptionConfig) -> Result<TranscriptionClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(TRANSCRIBE_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(TranscriptionClient {
            endpoint: Endpoint {
                http,
                url: endpoint(&config.base_url),
                model: config.model.clone(),
                api_key: config.api_key.clone(),
            },
            language: config.language.clone(),
        })
    }

    /// Transcribes a recording: `body` (its bytes, streamed), sent as `filename` of type
    /// `content_type` (`length` bytes when known). The text, trimmed (empty for silence).
    pub async fn transcribe(
        &self,
        body: reqwest::Body,
        filename: &str,
        content_type: &str,
        length: Option<u64>,
    ) -> Result<String, ProviderError> {
        let part = match length {
            Some(length) => Part::stream_with_length(body, length),
            None => Part::stream(body),
        }
        .file_name(filename.to_owned())
        .mime_str(content_type)
        .map_err(ProviderError::from_reqwest)?;
        let mut form = Form::new()
            .part("file", part)
            .text("model", self.endpoint.model.clone())
            .text("response_format", "json");
        if let Some(language) = &self.language {
            form = form.text("language", language.clone());
        }
        let request = self.endpoint.post().multipart(form);
        let response = crate::metrics::send("transcription", request)
            .await
            .map_err(ProviderError::from_reqwest)?;
        let status = response.status();
        let text = response.text().await.map_err(ProviderError::from_reqwest)?;
        let secret = self.endpoint.secret();
        if !status.is_success() {
            return Err(ProviderError::Answered {
                status: status.as_u16(),
                message: error_message(status, &text, secret),
            });
        }
        read_text(&text).map_err(|err| match err {
            ProviderError::Malformed(detail) => ProviderError::Malformed(redact(&detail, secret)),
            other => other,
        })
    }
}

/// `text` of a `response_format=json` answer.
pub fn read_text(body: &str) -> Result<String, ProviderError> {
    let json: Value = serde_json::from_str(body)
        .map_err(|e| ProviderError::Malformed(format!("not JSON ({e})")))?;
    json.get("text")
        .and_then(Value::as_str)
        .map(|t| t.trim().to_owned())
        .ok_or_else(|| ProviderError::Malformed("the answer has no text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoint_takes_the_base_with_or_without_v1() {
        assert_eq!(
            endpoint("https://api.openai.com/v1"),
            "https://api.openai.com/v1/audio/transcriptions"
        );
        assert_eq!(
            endpoint("http://whisper.school.test:8000/"),
            "http://whisper.school.test:8000/v1/audio/transcriptions"
        );
    }

    #[test]
    fn answers_give_their_text() {
        assert_eq!(
            read_text(r#"{"text":" Hello class. ","usage":{"type":"duration","seconds":3}}"#),
            Ok("Hello class.".into())
        );
        assert!(matches!(read_text(r#"{"segments":[]}"#), Err(ProviderError::Malformed(_))));
        assert!(matches!(read_text("Hello"), Err(ProviderError::Malformed(_))));
    }
}
