//! Deepgram, for live dictation and for transcribing task files. The API key stays on the
//! server: the browser gets a short-lived token from `POST /v1/auth/grant` and opens the
//! live WebSocket `/v1/listen` itself with the subprotocols `["bearer", token]`
//! (deepgram.md §1.1). Task files are sent by the server to the pre-recorded
//! `POST /v1/listen?model=nova-2&smart_format=true` as a stream of the file's bytes
//! (deepgram.md §3), never held whole in memory.

use std::time::Duration;

use serde_json::{json, Value};

use super::{error_message, redact, ProviderError};
use crate::config::SpeechConfig;
use crate::metrics::SendTimed as _;

/// Lifetime asked for a browser token, in seconds: long enough to open the socket (expiry is
/// checked at the handshake only), short enough to be useless if it leaks.
pub const TOKEN_TTL_SECONDS: u32 = 60;
/// A token grant is one small request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);
/// A pre-recorded transcription of a long recording takes time (deepgram.md §3: "set a
/// generous HTTP timeout"): up to 10 minutes for the upload and the answer.
pub const TRANSCRIBE_TIMEOUT: Duration = Duration::from_secs(600);

/// A client for the configured Deepgram account, reused for every call.
#[derive(Clone)]
pub struct SpeechClient {
    http: reqwest::Client,
    /// The same, with [`TRANSCRIBE_TIMEOUT`] for pre-recorded transcriptions.
    long_http: reqwest::Client,
    base_url: String,
    api_key: String,
}

impl std::fmt::Debug for SpeechClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpeechClient")
            .field("base_url", &self.base_url)
            .field("api_key", &"<set>")
            .finish()
    }
}

/// A short-lived credential for the browser's live socket.
#[derive(Debug, Clone, PartialEq)]
pub struct Grant {
    /// A JWT, used as `["bearer", token]`.
    pub access_token: String,
    /// Seconds it stays valid for opening a socket.
    pub expires_in: f64,
}

impl SpeechClient {
    pub fn new(config: &SpeechConfig) -> Result<SpeechClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        let long_http = reqwest::Client::builder()
            .timeout(TRANSCRIBE_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(SpeechClient {
            http,
            long_http,
            base_url: config.url.trim_end_matches('/').to_owned(),
            api_key: config.api_key.clone(),
        })
    }

    /// The live-streaming endpoint as the browser connects to it: the base URL with `https`
    /// made `wss` (`http` made `ws`), plus `/v1/listen`.
    pub fn listen_url(&self) -> String {
        let base = &self.base_url;
        let socket = if let Some(rest) = base.strip_prefix("https://") {
            format!("wss://{rest}")
        } else if let Some(rest) = base.strip_prefix("http://") {
            format!("ws://{rest}")
        } else {
            base.clone()
        };
        format!("{socket}/v1/listen")
    }

    /// Mints a token valid for `ttl_seconds` (`POST /v1/auth/grant`, `Authorization: Token`).
    pub async fn grant(&self, ttl_seconds: u32) -> Result<Grant, ProviderError> {
        let response = self
            .http
            .post(format!("{}/v1/auth/grant", self.base_url))
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Token {}", self.api_key),
            )
            .json(&json!({ "ttl_seconds": ttl_seconds }))
            .send_timed("speech")
            .await
            .map_err(ProviderError::from_reqwest)?;
        let status = response.status();
        let text = response.text().await.map_err(ProviderError::from_reqwest)?;
        let secret = Some(self.api_key.as_str());
        if !status.is_success() {
            return Err(ProviderError::Answered {
                status: status.as_u16(),
                message: error_message(status, &text, secret),
            });
        }
        read_grant(&text, ttl_seconds).map_err(|err| match err {
            ProviderError::Malformed(detail) => ProviderError::Malformed(redact(&detail, secret)),
            other => other,
        })
    }
}

impl SpeechClient {
    /// Transcribes a recording (`POST /v1/listen?model=nova-2&smart_format=true`, body the
    /// file's bytes as `content_type`, sent as they are read from `body`); answers
    /// `results.channels[0].alternatives[0].transcript` (empty for silence).
    pub async fn transcribe(
        &self,
        body: reqwest::Body,
        content_type: &str,
        length: Option<u64>,
    ) -> Result<String, ProviderError> {
        let mut request = self
            .long_http
            .post(format!(
                "{}/v1/listen?model=nova-2&smart_format=true",
                self.base_url
            ))
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Token {}", self.api_key),
            )
            .header(reqwest::header::CONTENT_TYPE, content_type);
        if let Some(length) = length {
            request = request.header(reqwest::header::CONTENT_LENGTH, length);
        }
        let response = request
            .body(body)
            .send_timed("speech")
            .await
            .map_err(ProviderError::from_reqwest)?;
        let status = response.status();
        let text = response.text().await.map_err(ProviderError::from_reqwest)?;
        let secret = Some(self.api_key.as_str());
        if !status.is_success() {
            return Err(ProviderError::Answered {
                status: status.as_u16(),
                message: error_message(status, &text, secret),
            });
        }
        read_transcript(&text)
    }
}

/// `results.channels[0].alternatives[0].transcript` of a pre-recorded answer.
pub fn read_transcript(body: &str) -> Result<String, ProviderError> {
    let json: Value = serde_json::from_str(body)
        .map_err(|e| ProviderError::Malformed(format!("not JSON ({e})")))?;
    json.pointer("/results/channels/0/alternatives/0/transcript")
        .and_then(Value::as_str)
        .map(|t| t.trim().to_owned())
        .ok_or_else(|| ProviderError::Malformed("the answer has no transcript".into()))
}

/// `{"access_token": "...", "expires_in": 60}`; a missing `expires_in` means what was asked.
fn read_grant(body: &str, ttl_seconds: u32) -> Result<Grant, ProviderError> {
    let json: Value = serde_json::from_str(body)
        .map_err(|e| ProviderError::Malformed(format!("not JSON ({e})")))?;
    let access_token = json
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ProviderError::Malformed("the answer has no access_token".into()))?
        .to_owned();
    let expires_in = json
        .get("expires_in")
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(f64::from(ttl_seconds));
    Ok(Grant {
        access_token,
        expires_in,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(url: &str) -> SpeechClient {
        SpeechClient::new(&SpeechConfig {
            api_key: "k".into(),
            url: url.into(),
        })
        .expect("client")
    }

    #[test]
    fn the_listen_url_is_the_socket_form_of_the_base() {
        assert_eq!(
            client("https://api.deepgram.com").listen_url(),
            "wss://api.deepgram.com/v1/listen"
        );
        assert_eq!(
            client("http://127.0.0.1:4010/").listen_url(),
            "ws://127.0.0.1:4010/v1/listen"
        );
        assert_eq!(
            client("https://proxy.school.uk/deepgram").listen_url(),
            "wss://proxy.school.uk/deepgram/v1/listen"
        );
    }

    #[test]
    fn pre_recorded_answers_give_their_transcript() {
        assert_eq!(
            read_transcript(
                r#"{"metadata":{"request_id":"r","duration":1.5,"channels":1},"results":{"channels":[{"alternatives":[{"transcript":"Hello class. ","confidence":0.99,"words":[]}]}]}}"#
            ),
            Ok("Hello class.".into())
        );
        assert!(matches!(
            read_transcript(r#"{"results":{"channels":[]}}"#),
            Err(ProviderError::Malformed(_))
        ));
    }

    #[test]
    fn grants_are_read_leniently() {
        assert_eq!(
            read_grant(r#"{"access_token":"eyJ.a.b","expires_in":30}"#, 60),
            Ok(Grant {
                access_token: "eyJ.a.b".into(),
                expires_in: 30.0
            })
        );
        assert_eq!(
            read_grant(r#"{"access_token":"eyJ.a.b"}"#, 60).map(|g| g.expires_in),
            Ok(60.0)
        );
        assert!(matches!(
            read_grant(r#"{"expires_in":30}"#, 60),
            Err(ProviderError::Malformed(_))
        ));
    }
}
