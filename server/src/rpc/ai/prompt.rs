//! What is sent to the chat model: the prompts of autofill and AI Formatting, the JSON
//! schema of an autofill answer, the size cap on a task's content, and how a provider
//! failure reads to the user. Pure functions: the callers do the I/O.
//!
//! Autofill names the questions `q1`, `q2`, … in the prompt and the schema (small local
//! models copy short keys more reliably than ids); [`AutofillPrompt::keys`] maps them back.

use serde_json::{json, Map, Value};

use crate::models::task_context::{ContentItem, TaskContext};
use crate::models::templates::QuestionRow;
use crate::providers::chat::ChatRequest;
use crate::providers::ProviderError;

/// What the user reads when no chat provider is configured.
pub const NOT_SET_UP: &str =
    "AI autofill is not switched on for your school yet. Ask your administrator.";
/// The most characters of a task's content sent in one prompt.
pub const MAX_CONTENT_CHARS: usize = 60_000;
/// The most characters of one question's text in the prompt (a template may be long-winded).
const MAX_QUESTION_CHARS: usize = 2_000;
/// The most characters of one current answer in the prompt.
const MAX_ANSWER_CHARS: usize = 4_000;
/// Enough for a full form of thorough answers.
pub const AUTOFILL_MAX_TOKENS: u32 = 4_000;
/// Enough for a tidied answer.
pub const FORMAT_MAX_TOKENS: u32 = 2_000;
/// Low: answers should follow the content, not invent.
pub const TEMPERATURE: f64 = 0.2;

/// Tells the model how to fill the form.
pub const AUTOFILL_SYSTEM: &str = "You help a school leader in the United Kingdom fill in a \
form. You are given the form's questions and the content the leader gathered (notes, \
transcripts of voice notes and recordings, text extracted from documents). Answer each \
question ONLY from that content: never invent names, numbers, dates or events. Write in \
British English, in a clear, professional tone, in full sentences; short paragraphs or \
bullet points where they help. If the content says nothing about a question, answer it \
with an empty string \"\". Where the leader has already written an answer, keep its facts \
and add what the content says. Reply with one JSON object and nothing else: a key for each \
question (q1, q2, …) whose value is the answer as a string.";

/// Tells the model how to tidy one answer.
pub const FORMAT_SYSTEM: &str = "You tidy an answer a school leader in the United Kingdom \
wrote on a form. Correct spelling, grammar and punctuation, use British English, and \
structure the text into short paragraphs or bullet points where that makes it easier to \
read. Keep the meaning and every fact exactly: add nothing, remove nothing of substance, \
do not answer questions the text does not. Reply with the tidied answer only: no preface, \
no quotation marks, no comments.";

/// An autofill request and how to read its answer.
#[derive(Debug, Clone)]
pub struct AutofillPrompt {
    pub request: ChatRequest,
    /// `(key in the answer, question id)`, in the form's order.
    pub keys: Vec<(String, String)>,
    /// Whether some content was cut to fit [`MAX_CONTENT_CHARS`].
    pub truncated: bool,
}

/// The autofill request for `questions` of the task `context`.
pub fn autofill(context: &TaskContext, questions: &[QuestionRow]) -> AutofillPrompt {
    let keys: Vec<(String, String)> = questions
        .iter()
        .enumerate()
        .map(|(i, q)| (format!("q{}", i + 1), q.id.clone()))
        .collect();
    let mut user = format!("Form: {}\n\nQuestions:\n", context.title.trim());
    for ((key, _), question) in keys.iter().zip(questions) {
        user.push_str(&format!("{key}: {}\n", cut(question.text.trim(), MAX_QUESTION_CHARS).0));
    }
    let written: Vec<String> = keys
        .iter()
        .filter_map(|(key, id)| {
            let answer = context.answers.iter().find(|(q, _)| q == id)?.1.trim();
            (!answer.is_empty()).then(|| format!("{key}: {}", cut(answer, MAX_ANSWER_CHARS).0))
        })
        .collect();
    if !written.is_empty() {
        user.push_str("\nAnswers the leader has already written:\n");
        user.push_str(&written.join("\n"));
        user.push('\n');
    }
    let (content, truncated) = content_text(&context.items);
    user.push_str("\nContent:\n");
    if content.is_empty() {
        user.push_str("(no content has been added to this task)\n");
    } else {
        user.push_str(&content);
    }
    user.push_str("\nReply with the JSON object only.");
    let properties: Map<String, Value> = keys
        .iter()
        .map(|(key, _)| (key.clone(), json!({"type": "string"})))
        .collect();
    let schema = json!({
        "type": "object",
        "properties": properties,
        "required": keys.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
        "additionalProperties": false,
    });
    AutofillPrompt {
        request: ChatRequest {
            system: AUTOFILL_SYSTEM.into(),
            user,
            schema: Some(("form_answers".into(), schema)),
            max_tokens: AUTOFILL_MAX_TOKENS,
            temperature: TEMPERATURE,
        },
        keys,
        truncated,
    }
}

/// The request that tidies `text`, the answer to `question`.
pub fn format_answer(question: &str, text: &str) -> ChatRequest {
    ChatRequest {
        system: FORMAT_SYSTEM.into(),
        user: format!(
            "The question: {}\n\nThe answer to tidy:\n{}",
            cut(question.trim(), MAX_QUESTION_CHARS).0,
            text.trim()
        ),
        schema: None,
        max_tokens: FORMAT_MAX_TOKENS,
        temperature: TEMPERATURE,
    }
}

/// The tidied answer from a model's reply: without a code fence or quotes around it.
pub fn clean_formatted(reply: &str) -> String {
    let mut text = reply.trim();
    if let Some(inner) = text.strip_prefix("```") {
        let inner = inner.split_once('\n').map(|(_, rest)| rest).unwrap_or(inner);
        text = inner.trim_end().strip_suffix("```").unwrap_or(inner).trim();
    }
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') && !text[1..text.len() - 1].contains('"') {
        text = &text[1..text.len() - 1];
    }
    text.trim().to_owned()
}

/// The answers in a model's final JSON, by question id: every question present, `""` where
/// the model gave none (or not a string). The object may be wrapped in `{"answers": …}`.
pub fn answers_from(json: &Value, keys: &[(String, String)]) -> Vec<(String, String)> {
    let object = match json.get("answers") {
        Some(inner @ Value::Object(_)) if keys.iter().all(|(k, _)| json.get(k).is_none()) => inner,
        _ => json,
    };
    keys.iter()
        .map(|(key, id)| {
            let text = match object.get(key) {
                Some(Value::String(s)) => s.trim().to_owned(),
                Some(Value::Array(lines)) => lines
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|l| format!("- {l}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                _ => String::new(),
            };
            (id.clone(), text)
        })
        .collect()
}

/// The content of every item, each cut so the whole fits [`MAX_CONTENT_CHARS`]: the longest
/// items are cut first, each to the same share; a cut item says so.
fn content_text(items: &[ContentItem]) -> (String, bool) {
    let bodies: Vec<String> = items.iter().map(item_body).collect();
    let lengths: Vec<usize> = bodies.iter().map(|b| b.chars().count()).collect();
    let cap = share(&lengths, MAX_CONTENT_CHARS.saturating_sub(items.len() * 120));
    let mut truncated = false;
    let mut out = String::new();
    for (i, (item, body)) in items.iter().zip(&bodies).enumerate() {
        let (text, cut_chars) = cut(body, cap);
        out.push_str(&format!("\n### Item {}: {} ({})\n{}\n", i + 1, item.name.trim(), kind_word(&item.kind), text));
        if cut_chars > 0 {
            truncated = true;
            out.push_str(&format!("[… {cut_chars} more characters of this item were left out to fit]\n"));
        }
    }
    (out, truncated)
}

fn item_body(item: &ContentItem) -> String {
    let mut parts = Vec::new();
    if let Some(notes) = item.notes.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        parts.push(format!("Notes: {notes}"));
    }
    if let Some(text) = item.transcript.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        let label = if item.kind == "FILE" { "Text" } else { "Transcript" };
        parts.push(format!("{label}: {text}"));
    }
    if parts.is_empty() {
        "(no text)".to_owned()
    } else {
        parts.join("\n")
    }
}

fn kind_word(kind: &str) -> &'static str {
    match kind {
        "VOICE_NOTE" => "voice note",
        "PHOTO_NOTES" => "photo notes",
        "RECORDING" => "recording",
        _ => "document",
    }
}

/// The largest per-item length `cap` with `sum(min(len, cap)) <= budget`.
fn share(lengths: &[usize], budget: usize) -> usize {
    if lengths.iter().sum::<usize>() <= budget {
        return usize::MAX;
    }
    let mut sorted = lengths.to_vec();
    sorted.sort_unstable();
    let mut left = budget;
    for (i, len) in sorted.iter().enumerate() {
        let remaining = sorted.len() - i;
        let even = left / remaining;
        if *len > even {
            return even;
        }
        left -= len;
    }
    usize::MAX
}

/// `text` cut to `max` characters, and how many were left out.
fn cut(text: &str, max: usize) -> (&str, usize) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (&text[..at], text[at..].chars().count()),
        None => (text, 0),
    }
}

/// A provider failure as the user reads it; the specifics go to the log.
pub fn user_message(err: &ProviderError) -> String {
    match err {
        ProviderError::Answered { message, .. } => format!("The AI service answered: {message}"),
        ProviderError::Declined(reason) => format!("The AI service declined to answer: {reason}"),
        ProviderError::Unreachable(_) => "Could not reach the AI service. Please try again later.".to_owned(),
        ProviderError::TimedOut => "The AI service took too long to answer. Please try again.".to_owned(),
        ProviderError::Malformed(_) => "The AI service sent an answer Voicemark could not read. Please try again.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(id: &str, text: &str) -> QuestionRow {
        QuestionRow { id: id.into(), text: text.into(), kind: "TEXTAREA".into(), required: false, position: 0 }
    }

    fn item(name: &str, notes: Option<&str>, transcript: Option<&str>) -> ContentItem {
        ContentItem {
            kind: "VOICE_NOTE".into(),
            name: name.into(),
            notes: notes.map(str::to_owned),
            transcript: transcript.map(str::to_owned),
        }
    }

    #[test]
    fn the_prompt_names_questions_by_key_and_carries_the_content() {
        let context = TaskContext {
            template_id: "t".into(),
            title: "Learning walk".into(),
            items: vec![item("Walk.webm", Some("Year 7"), Some("Pupils were engaged."))],
            answers: vec![("b".into(), "Already written.".into())],
        };
        let prompt = autofill(&context, &[question("a", "What went well?"), question("b", "Next steps?")]);
        assert_eq!(prompt.keys, vec![("q1".into(), "a".into()), ("q2".into(), "b".into())]);
        let user = &prompt.request.user;
        assert!(user.contains("q1: What went well?\nq2: Next steps?"));
        assert!(user.contains("q2: Already written."));
        assert!(user.contains("### Item 1: Walk.webm (voice note)\nNotes: Year 7\nTranscript: Pupils were engaged."));
        let (name, schema) = prompt.request.schema.expect("schema");
        assert_eq!(name, "form_answers");
        assert_eq!(schema["required"], json!(["q1", "q2"]));
        assert_eq!(schema["additionalProperties"], false);
        assert!(!prompt.truncated);
    }

    #[test]
    fn long_content_is_cut_fairly_and_says_so() {
        let long = "a".repeat(100_000);
        let context = TaskContext {
            template_id: "t".into(),
            title: "T".into(),
            items: vec![item("short", Some("brief"), None), item("long", None, Some(&long)), item("long2", None, Some(&long))],
            answers: vec![],
        };
        let prompt = autofill(&context, &[question("a", "Q")]);
        assert!(prompt.truncated);
        assert!(prompt.request.user.chars().count() < MAX_CONTENT_CHARS + 1_000);
        assert!(prompt.request.user.contains("Notes: brief"));
        assert_eq!(prompt.request.user.matches("more characters of this item were left out").count(), 2);
        assert_eq!(share(&[10, 100, 100], 110), 50);
        assert_eq!(share(&[10, 20], 100), usize::MAX);
    }

    #[test]
    fn answers_are_read_by_key_with_blanks_for_the_missing() {
        let keys = vec![("q1".to_owned(), "a".to_owned()), ("q2".to_owned(), "b".to_owned()), ("q3".to_owned(), "c".to_owned())];
        let answers = answers_from(&json!({"q1": " Yes. ", "q3": ["One", "Two"]}), &keys);
        assert_eq!(
            answers,
            vec![("a".into(), "Yes.".into()), ("b".into(), "".into()), ("c".into(), "- One\n- Two".into())]
        );
        assert_eq!(answers_from(&json!({"answers": {"q2": "x"}}), &keys)[1].1, "x");
    }

    #[test]
    fn formatted_answers_lose_fences_and_quotes() {
        assert_eq!(clean_formatted("```\nTidy text.\n```"), "Tidy text.");
        assert_eq!(clean_formatted("```markdown\n- One\n- Two\n```"), "- One\n- Two");
        assert_eq!(clean_formatted("\"Tidy text.\""), "Tidy text.");
        assert_eq!(clean_formatted("  Plain.  "), "Plain.");
    }
}
