//! Speech settings: Deepgram for live dictation (`VOICEMARK_DEEPGRAM_*`), and the
//! OpenAI-compatible transcription server for recorded audio (`VOICEMARK_TRANSCRIPTION_*`):
//! docs/providers.md.

use super::{http_base_url, ConfigError};

/// Deepgram, for short-lived live-dictation credentials: docs/providers.md.
#[derive(Clone)]
pub struct SpeechConfig {
    /// `VOICEMARK_DEEPGRAM_API_KEY`: never leaves the server.
    pub api_key: String,
    /// `VOICEMARK_DEEPGRAM_URL`, default `https://api.deepgram.com`, without a trailing slash.
    pub url: String,
}

impl std::fmt::Debug for SpeechConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpeechConfig")
            .field("api_key", &"<set>")
            .field("url", &self.url)
            .finish()
    }
}

/// A server speaking OpenAI's `/v1/audio/transcriptions` (OpenAI, faster-whisper,
/// whisper.cpp, vLLM, LocalAI) for voice notes and a task's recordings.
#[derive(Clone)]
pub struct TranscriptionConfig {
    /// `VOICEMARK_TRANSCRIPTION_URL`, e.g. `https://api.openai.com/v1` or
    /// `http://whisper.trust.internal:8000`, without a trailing slash.
    pub base_url: String,
    /// `VOICEMARK_TRANSCRIPTION_MODEL`, default `whisper-1`.
    pub model: String,
    /// `VOICEMARK_TRANSCRIPTION_API_KEY`: sent as `Bearer <key>` when set (self-hosted
    /// servers often need none); never leaves the server.
    pub api_key: Option<String>,
    /// `VOICEMARK_TRANSCRIPTION_LANGUAGE` (ISO 639-1, e.g. `en`): unset lets the model
    /// detect it.
    pub language: Option<String>,
}

impl std::fmt::Debug for TranscriptionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranscriptionConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("language", &self.language)
            .finish()
    }
}

/// Deepgram: `None` (dictation off) without `VOICEMARK_DEEPGRAM_API_KEY`.
pub(super) fn speech_config(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<SpeechConfig>, ConfigError> {
    let Some(api_key) = get("VOICEMARK_DEEPGRAM_API_KEY") else {
        return Ok(None);
    };
    let url = get("VOICEMARK_DEEPGRAM_URL").unwrap_or_else(|| "https://api.deepgram.com".into());
    Ok(Some(SpeechConfig {
        api_key,
        url: http_base_url("VOICEMARK_DEEPGRAM_URL", url)?,
    }))
}

/// The transcription server: `None` (recorded audio goes to Deepgram, when it is set up)
/// without `VOICEMARK_TRANSCRIPTION_URL`.
pub(super) fn transcription_config(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<TranscriptionConfig>, ConfigError> {
    let Some(base) = get("VOICEMARK_TRANSCRIPTION_URL") else {
        return Ok(None);
    };
    Ok(Some(TranscriptionConfig {
        base_url: http_base_url("VOICEMARK_TRANSCRIPTION_URL", base)?,
        model: get("VOICEMARK_TRANSCRIPTION_MODEL").unwrap_or_else(|| "whisper-1".into()),
        api_key: get("VOICEMARK_TRANSCRIPTION_API_KEY"),
        language: get("VOICEMARK_TRANSCRIPTION_LANGUAGE"),
    }))
}

#[cfg(test)]
mod tests {
    use crate::config::tests::config;

    #[test]
    fn recorded_audio_has_its_own_server_and_the_key_stays_hidden() {
        let c = config(&[
            ("VOICEMARK_TRANSCRIPTION_URL", "http://whisper.trust.test:8000/"),
            ("VOICEMARK_TRANSCRIPTION_API_KEY", "sk-whisper-secret"),
        ])
        .expect("config");
        let t = c.transcription.as_ref().expect("transcription");
        assert_eq!(t.base_url, "http://whisper.trust.test:8000");
        assert_eq!(t.model, "whisper-1");
        assert_eq!(t.language, None);
        assert!(c.speech.is_none(), "dictation stays off without Deepgram");
        assert!(!format!("{c:?}").contains("sk-whisper-secret"));
        let err = config(&[("VOICEMARK_TRANSCRIPTION_URL", "whisper:8000")]).expect_err("no scheme");
        assert!(err.to_string().contains("VOICEMARK_TRANSCRIPTION_URL"), "{err}");
    }
}
