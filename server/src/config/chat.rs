//! The chat model's settings (`VOICEMARK_CHAT_*`), each falling back to the vision one:
//! docs/providers.md ("AI autofill and AI Formatting").

use super::{http_base_url, ConfigError, VisionConfig};

/// An OpenAI-compatible Chat Completions server for text (OpenAI, Ollama, vLLM, llama.cpp):
/// autofill and AI Formatting of a task's answers. Each setting falls back to the vision
/// one: docs/providers.md.
#[derive(Clone)]
pub struct ChatConfig {
    /// `VOICEMARK_CHAT_BASE_URL`, default `VOICEMARK_VISION_BASE_URL`.
    pub base_url: String,
    /// `VOICEMARK_CHAT_MODEL`, default the vision model.
    pub model: String,
    /// `VOICEMARK_CHAT_API_KEY`; default the vision key when the base URL is the vision one
    /// (a key is never sent to a server it was not given for).
    pub api_key: Option<String>,
    /// `VOICEMARK_CHAT_STRUCTURED_OUTPUT`: what to ask for first (`json_schema`, the
    /// default; `json_object`; `none`). The client steps down when the server refuses.
    pub structured_output: StructuredOutput,
}

/// How a chat request asks for JSON: `response_format` `json_schema`, `json_object`, or not
/// at all (the prompt alone asks for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StructuredOutput {
    JsonSchema,
    JsonObject,
    None,
}

impl std::fmt::Debug for ChatConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("structured_output", &self.structured_output)
            .finish()
    }
}

/// The chat settings, each falling back to the vision one; `None` without any base URL.
pub(super) fn chat_config(
    get: &impl Fn(&str) -> Option<String>,
    vision: Option<&VisionConfig>,
) -> Result<Option<ChatConfig>, ConfigError> {
    let own_base = get("VOICEMARK_CHAT_BASE_URL")
        .map(|base| http_base_url("VOICEMARK_CHAT_BASE_URL", base))
        .transpose()?;
    let same_server = match (&own_base, vision) {
        (None, Some(_)) => true,
        (Some(own), Some(vision)) => *own == vision.base_url,
        _ => false,
    };
    let Some(base_url) = own_base.or_else(|| vision.map(|v| v.base_url.clone())) else {
        return Ok(None);
    };
    let structured_output = match get("VOICEMARK_CHAT_STRUCTURED_OUTPUT")
        .map(|v| v.to_ascii_lowercase())
        .as_deref()
    {
        None | Some("json_schema") => StructuredOutput::JsonSchema,
        Some("json_object") => StructuredOutput::JsonObject,
        Some("none") => StructuredOutput::None,
        Some(other) => {
            return Err(ConfigError::Invalid {
                name: "VOICEMARK_CHAT_STRUCTURED_OUTPUT",
                expected: "json_schema, json_object or none",
                value: other.to_owned(),
            })
        }
    };
    Ok(Some(ChatConfig {
        base_url,
        model: get("VOICEMARK_CHAT_MODEL")
            .or_else(|| vision.map(|v| v.model.clone()))
            .unwrap_or_else(|| "gpt-4o-mini".into()),
        api_key: get("VOICEMARK_CHAT_API_KEY")
            .or_else(|| if same_server { vision.and_then(|v| v.api_key.clone()) } else { None }),
        structured_output,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::tests::config;

    #[test]
    fn the_chat_model_falls_back_to_the_vision_settings() {
        let c = config(&[
            ("VOICEMARK_VISION_BASE_URL", "http://localhost:11434/v1/"),
            ("VOICEMARK_VISION_MODEL", "qwen2.5vl:7b"),
            ("VOICEMARK_VISION_API_KEY", "sk-vision-secret"),
        ])
        .expect("config");
        let chat = c.chat.as_ref().expect("chat on with the vision settings");
        assert_eq!(chat.base_url, "http://localhost:11434/v1");
        assert_eq!(chat.model, "qwen2.5vl:7b");
        assert_eq!(chat.api_key.as_deref(), Some("sk-vision-secret"));
        assert_eq!(chat.structured_output, StructuredOutput::JsonSchema);
        assert!(!format!("{c:?}").contains("sk-vision-secret"));

        // A server of its own: the vision key is not sent there.
        let c = config(&[
            ("VOICEMARK_VISION_BASE_URL", "https://api.openai.com/v1"),
            ("VOICEMARK_VISION_API_KEY", "sk-vision-secret"),
            ("VOICEMARK_CHAT_BASE_URL", "http://gpu.school.test:8000/v1"),
            ("VOICEMARK_CHAT_MODEL", "Qwen/Qwen2.5-7B-Instruct"),
            ("VOICEMARK_CHAT_STRUCTURED_OUTPUT", "json_object"),
        ])
        .expect("config");
        let chat = c.chat.as_ref().expect("chat");
        assert_eq!(chat.base_url, "http://gpu.school.test:8000/v1");
        assert_eq!(chat.model, "Qwen/Qwen2.5-7B-Instruct");
        assert_eq!(chat.api_key, None);
        assert_eq!(chat.structured_output, StructuredOutput::JsonObject);

        // Chat alone, with its own key; the same URL as vision keeps the vision key.
        let c = config(&[
            ("VOICEMARK_CHAT_BASE_URL", "http://127.0.0.1:8080/v1"),
            ("VOICEMARK_CHAT_API_KEY", "sk-chat"),
            ("VOICEMARK_CHAT_STRUCTURED_OUTPUT", "none"),
        ])
        .expect("config");
        assert!(c.vision.is_none());
        let chat = c.chat.as_ref().expect("chat");
        assert_eq!((chat.model.as_str(), chat.api_key.as_deref()), ("gpt-4o-mini", Some("sk-chat")));
        assert_eq!(chat.structured_output, StructuredOutput::None);
        let c = config(&[
            ("VOICEMARK_VISION_BASE_URL", "http://localhost:11434/v1"),
            ("VOICEMARK_VISION_API_KEY", "k-vision"),
            ("VOICEMARK_CHAT_BASE_URL", "http://localhost:11434/v1/"),
        ])
        .expect("config");
        assert_eq!(c.chat.expect("chat").api_key.as_deref(), Some("k-vision"));

        let err = config(&[
            ("VOICEMARK_CHAT_BASE_URL", "http://localhost:11434/v1"),
            ("VOICEMARK_CHAT_STRUCTURED_OUTPUT", "xml"),
        ])
        .expect_err("a bad mode");
        assert_eq!(
            err.to_string(),
            "VOICEMARK_CHAT_STRUCTURED_OUTPUT must be json_schema, json_object or none (it is 'xml')."
        );
        assert!(config(&[("VOICEMARK_CHAT_BASE_URL", "ftp://x")]).is_err());
    }
}
