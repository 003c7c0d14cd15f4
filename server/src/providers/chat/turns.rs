//! Tool calling (OpenAI function calling) over the chat stream: putting a turn's tool-call
//! fragments together, recognising servers that cannot call tools, and which failures are
//! worth one more try. Used by [`super::ChatClient::stream_turn`] and the assistant.

use std::time::Duration;

use crate::providers::ProviderError;

/// How long to wait before the one retry of a failed request (`stream_turn`).
pub const RETRY_BACKOFF: Duration = Duration::from_secs(1);

/// Whether trying again may help: no answer in time, no connection, 429 or a 5xx.
pub fn is_transient(err: &ProviderError) -> bool {
    match err {
        ProviderError::TimedOut | ProviderError::Unreachable(_) => true,
        ProviderError::Answered { status, .. } => *status == 429 || (500..=599).contains(status),
        _ => false,
    }
}

/// Whether an error answer says the model or server cannot call tools: Ollama ("… does not
/// support tools"), vLLM without `--enable-auto-tool-choice` ("\"auto\" tool choice requires
/// …"), llama.cpp without `--jinja` ("tools param requires --jinja flag") and the like.
pub fn refuses_tools(err: &ProviderError) -> bool {
    match err {
        ProviderError::Answered { status, message } if matches!(status, 400 | 422 | 500 | 501) => {
            let m = message.to_ascii_lowercase();
            ["does not support tools", "tool choice requires", "tools param requires", "tool_choice", "tools are not supported", "function calling is not"]
                .iter()
                .any(|needle| m.contains(needle))
        }
        _ => false,
    }
}

/// A fragment of a streamed tool call: the first names it (`id`, function `name`), later
/// ones carry more of its `arguments` text. `index` says which call of the turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallDelta {
    pub index: Option<usize>,
    pub id: Option<String>,
    pub name: Option<String>,
    pub arguments: String,
}

/// A whole tool call, once its fragments are put together.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// JSON text, as the model wrote it (it may not parse).
    pub arguments: String,
}

/// Puts a turn's tool-call fragments together. Servers differ: OpenAI and vLLM send the
/// name first and the arguments in pieces, all with `index`; Ollama sends each call whole
/// in one chunk; some servers leave out `index`, and then a new `id` starts a new call.
#[derive(Debug, Default)]
pub struct ToolCalls {
    calls: Vec<ToolCall>,
}

impl ToolCalls {
    pub fn add(&mut self, delta: ToolCallDelta) {
        let at = match delta.index {
            Some(index) => index,
            None => match (&delta.id, self.calls.last()) {
                (Some(id), Some(last)) if !last.id.is_empty() && &last.id != id => self.calls.len(),
                (_, Some(_)) => self.calls.len() - 1,
                (_, None) => 0,
            },
        };
        while self.calls.len() <= at {
            self.calls.push(ToolCall { id: String::new(), name: String::new(), arguments: String::new() });
        }
        let call = &mut self.calls[at];
        if let Some(id) = delta.id.filter(|id| !id.is_empty()) {
            call.id = id;
        }
        if let Some(name) = delta.name.filter(|name| !name.is_empty()) {
            call.name = name;
        }
        call.arguments.push_str(&delta.arguments);
    }

    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The calls in order; a call without an id gets one (`call_<n>`), as the answer's
    /// `tool` messages must name it.
    pub fn finish(self) -> Vec<ToolCall> {
        self.calls
            .into_iter()
            .enumerate()
            .filter(|(_, call)| !call.name.is_empty())
            .map(|(n, mut call)| {
                if call.id.is_empty() {
                    call.id = format!("call_{n}");
                }
                call
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_event, Event};
    use super::*;

    #[test]
    fn a_tool_call_split_across_chunks_is_put_together() {
        let mut calls = ToolCalls::default();
        let chunks = [
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"hand_ins","arguments":""}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ti"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"tle\":\"fractions\"}"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"list_pupils","arguments":"{}"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        ];
        let mut finish = None;
        for data in chunks {
            match parse_event(data, None) {
                Event::Delta { tool_calls, finish: f, .. } => {
                    tool_calls.into_iter().for_each(|d| calls.add(d));
                    finish = f.or(finish);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(finish.as_deref(), Some("tool_calls"));
        assert_eq!(
            calls.finish(),
            vec![
                ToolCall { id: "call_a".into(), name: "hand_ins".into(), arguments: r#"{"title":"fractions"}"#.into() },
                ToolCall { id: "call_b".into(), name: "list_pupils".into(), arguments: "{}".into() },
            ]
        );
    }

    #[test]
    fn whole_calls_without_index_and_object_arguments_are_read() {
        // Ollama: each call whole in its own chunk; some servers leave out `index` or send
        // the arguments as an object.
        let mut calls = ToolCalls::default();
        for data in [
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"call_1","function":{"name":"a","arguments":{"x":1}}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"call_2","function":{"name":"b","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"c","arguments":"{}"}}]}}]}"#,
        ] {
            if let Event::Delta { tool_calls, .. } = parse_event(data, None) {
                tool_calls.into_iter().for_each(|d| calls.add(d));
            }
        }
        let calls = calls.finish();
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert_eq!((calls[0].id.as_str(), calls[0].name.as_str(), calls[0].arguments.as_str()), ("call_1", "a", r#"{"x":1}"#));
        assert_eq!((calls[1].id.as_str(), calls[1].name.as_str()), ("call_2", "c"));
    }

    #[test]
    fn servers_without_tools_and_transient_failures_are_recognised() {
        let answered = |status, message: &str| ProviderError::Answered { status, message: message.into() };
        assert!(refuses_tools(&answered(400, "registry.ollama.ai/library/gemma:2b does not support tools")));
        assert!(refuses_tools(&answered(400, "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set")));
        assert!(refuses_tools(&answered(500, "tools param requires --jinja flag")));
        assert!(!refuses_tools(&answered(400, "model 'x' not found")));
        assert!(is_transient(&answered(429, "Rate limit reached")));
        assert!(is_transient(&answered(503, "overloaded")));
        assert!(is_transient(&ProviderError::TimedOut));
        assert!(!is_transient(&answered(400, "bad request")));
        assert!(!is_transient(&answered(401, "Incorrect API key")));
    }
}
