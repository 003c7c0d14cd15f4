//! `POST /api/reports/generate`: writes a report with the chat model and streams it as
//! Server-Sent Events (`progress`, `text`, `done`, `error`; see `http/reports.rs`).
//!
//! The sources are the chosen tasks (their questions and answers, photo notes and
//! transcripts of their content) and voice notes (their transcripts). When all of them
//! fit [`GENERATION_BUDGET_CHARS`], the report is written from them in one streamed call.
//! Otherwise each source is first summarised with a plain call ("Summarising task 3 of
//! 20"), and the report is streamed from the summaries (map, then reduce). Every model
//! call is kept in `assistant_queries`. Nothing is held open while the model writes: the
//! sources are read first, each record is written with its own short connection.


use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::{author_of, caller, refusal};
use crate::models::reports::{self, TaskText, VoiceNoteText};
use crate::models::{assistant_queries, now};
use crate::providers::chat::{ChatClient, ChatRequest};
use crate::providers::ProviderError;
use crate::rpc::context::check_same_origin;
use crate::rpc::report::check;
use crate::rpc::FieldErrors;
use crate::state::AppState;

/// Sources longer than this (in characters, about 12,000 tokens) are summarised first.
pub const GENERATION_BUDGET_CHARS: usize = 48_000;
/// The longest a report may be, in tokens.
const REPORT_MAX_TOKENS: u32 = 4000;
/// The longest a source's summary may be, in tokens.
const SUMMARY_MAX_TOKENS: u32 = 600;
/// The largest request body: ids and instructions only.
const MAX_BODY_BYTES: usize = 64 * 1024;

/// Shown when no chat model is configured.
pub const NOT_CONFIGURED: &str =
    "Report writing is not switched on for your school yet. Ask your administrator.";

const REPORT_SYSTEM: &str = "You write reports for school leaders in UK English. Use only the \
    sources you are given: never invent names, figures or events. Write Markdown: start with \
    the report's title as a '# ' heading, use '## ' section headings, short paragraphs and '- ' \
    bullet lists. Do not wrap the report in a code block.";

const SUMMARY_SYSTEM: &str = "You summarise one source for a school leader's report in UK \
    English. Keep the facts, names, figures, judgements and short quotes that matter for the \
    leader's instructions; leave out repetition. Answer in plain text of at most 250 words.";

const DEFAULT_INSTRUCTIONS: &str =
    "Summarise the main findings, strengths and areas for development, then the next steps.";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GenerateInput {
    #[serde(default)]
    task_ids: Vec<String>,
    #[serde(default)]
    voice_note_ids: Vec<String>,
    #[serde(default)]
    instructions: String,
    #[serde(default)]
    title: String,
}

/// One source as the model reads it.
#[derive(Debug, Clone)]
pub struct Source {
    /// "task" or "voice note".
    pub kind: &'static str,
    pub text: String,
}

/// A task as text: title, tags, each question and answer, each content text.
pub fn task_source(task: &TaskText) -> Source {
    let mut text = format!("### Task: {}\n", task.title.trim());
    let tags: Vec<String> = serde_json::from_str(&task.tags).unwrap_or_default();
    if !tags.is_empty() {
        text.push_str(&format!("Tags: {}\n", tags.join(", ")));
    }
    for (question, answer) in &task.answers {
        text.push_str(&format!(
            "\nQuestion: {}\nAnswer: {}\n",
            question.trim(),
            answer.trim()
        ));
    }
    for (name, content) in &task.contents {
        text.push_str(&format!(
            "\nContent \"{}\":\n{}\n",
            name.trim(),
            content.trim()
        ));
    }
    Source { kind: "task", text }
}

/// A voice note as text: its name, date and transcript.
pub fn voice_note_source(note: &VoiceNoteText) -> Source {
    Source {
        kind: "voice note",
        text: format!(
            "### Voice note: {} ({})\n{}\n",
            note.filename,
            note.created_at.format("%d/%m/%Y"),
            note.transcript.as_deref().unwrap_or_default().trim()
        ),
    }
}

/// The first `max` characters of `text` (on a character boundary).
fn clipped(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

fn report_prompt(title: &str, instructions: &str, sources: &str) -> String {
    let title = if title.is_empty() {
        "(choose a fitting title)"
    } else {
        title
    };
    let instructions = if instructions.is_empty() {
        DEFAULT_INSTRUCTIONS
    } else {
        instructions
    };
    format!(
        "Report title: {title}\n\nThe leader's instructions:\n{instructions}\n\nSources:\n\n{sources}"
    )
}

/// The user's sentence for a failed model call.
fn provider_sentence(err: &ProviderError) -> String {
    match err {
        ProviderError::Answered { message, .. } => {
            format!("The AI model refused the request: {message}")
        }
        ProviderError::Declined(why) => format!("The AI model declined to write this: {why}"),
        ProviderError::Unreachable(_) => {
            "The AI model could not be reached. Please try again in a moment.".into()
        }
        ProviderError::TimedOut => "The AI model took too long to answer. Please try again.".into(),
        ProviderError::Malformed(_) => {
            "The AI model's answer could not be read. Please try again.".into()
        }
    }
}

fn event(name: &str, data: serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

pub(super) async fn generate(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if check_same_origin(&headers, &state.config.public_url).is_err() {
        return refusal(StatusCode::FORBIDDEN, "Cross-site request refused", None);
    }
    let session = match caller(&state, &headers).await {
        Ok(session) => session,
        Err(refused) => return refused,
    };
    if body.len() > MAX_BODY_BYTES {
        return refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            "The request is too large.",
            None,
        );
    }
    let input: GenerateInput = match serde_json::from_slice(&body) {
        Ok(input) => input,
        Err(_) => {
            return refusal(
                StatusCode::BAD_REQUEST,
                "The request could not be read.",
                None,
            )
        }
    };
    let mut fields = FieldErrors::default();
    let checked = check(
        &input.title,
        &input.instructions,
        &input.task_ids,
        &input.voice_note_ids,
        false,
        1,
        &mut fields,
    );
    if let Err(err) = fields.into_result() {
        let shape = serde_json::to_value(err.shape(None)).unwrap_or_default();
        let field_errors = shape
            .pointer("/data/zodError/fieldErrors")
            .cloned()
            .unwrap_or_default();
        return refusal(
            StatusCode::BAD_REQUEST,
            "Please check the form.",
            Some(field_errors),
        );
    }
    let Some(chat) = state.providers.chat.clone() else {
        return refusal(StatusCode::PRECONDITION_FAILED, NOT_CONFIGURED, None);
    };
    let author = author_of(&session);
    let loaded = async {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let tasks = reports::task_texts(&mut conn, author, &checked.task_ids).await?;
        let notes = if checked.voice_note_ids.is_empty() {
            Vec::new()
        } else {
            reports::voice_note_texts(&mut conn, author, &checked.voice_note_ids).await?
        };
        Ok::<_, crate::db::DbError>((tasks, notes))
    }
    .await;
    let (tasks, notes) = match loaded {
        Ok(loaded) => loaded,
        Err(err) => return crate::error::AppError::from(err).into_response(),
    };
    let Some(tasks) = tasks else {
        return refusal(StatusCode::NOT_FOUND, "Task not found.", None);
    };
    if notes.len() != checked.voice_note_ids.len() {
        return refusal(StatusCode::NOT_FOUND, "Voice note not found.", None);
    }
    if notes.iter().any(|n| n.transcript.is_none()) {
        let fields = json!({ "voiceNoteIds": ["A chosen voice note has no transcript yet."] });
        return refusal(
            StatusCode::BAD_REQUEST,
            "A chosen voice note has no transcript yet.",
            Some(fields),
        );
    }
    // Keep the notes in the order they were chosen.
    let mut notes = notes;
    notes.sort_by_key(|n| checked.voice_note_ids.iter().position(|id| *id == n.id));
    let sources: Vec<Source> = tasks
        .iter()
        .map(task_source)
        .chain(notes.iter().map(voice_note_source))
        .collect();
    let job = Job {
        state: state.clone(),
        chat,
        user_id: session.user.id.clone(),
        title: checked.title,
        instructions: checked.instructions,
        sources,
    };
    let (tx, rx) = mpsc::channel::<Event>(64);
    tokio::spawn(async move {
        let tx2 = tx.clone();
        match job.run(&tx).await {
            Ok(()) => {
                let _ = tx2.send(event("done", json!({}))).await;
            }
            Err(Stop::Failed(message)) => {
                let _ = tx2
                    .send(event("error", json!({ "message": message })))
                    .await;
            }
            Err(Stop::Gone) => {}
        }
    });
    crate::http::sse::response(rx)
}

/// Why a generation stopped early.
enum Stop {
    /// The model failed: the sentence for the user.
    Failed(String),
    /// The browser went away: nothing more to send.
    Gone,
}

struct Job {
    state: AppState,
    chat: ChatClient,
    user_id: String,
    title: String,
    instructions: String,
    sources: Vec<Source>,
}

impl Job {
    async fn send(&self, tx: &mpsc::Sender<Event>, event: Event) -> Result<(), Stop> {
        tx.send(event).await.map_err(|_| Stop::Gone)
    }

    /// Keeps one model call (a failure to record it is logged, not shown).
    async fn record(&self, prompt: &str, answer: &str) {
        let result = async {
            let mut pooled = self.state.db.conn().await?;
            assistant_queries::insert(&mut pooled.db(), &self.user_id, prompt, answer, now())
                .await
                .map_err(crate::db::DbError::from)
        }
        .await;
        if let Err(err) = result {
            tracing::warn!(%err, "could not record a report model call");
        }
    }

    async fn run(&self, tx: &mpsc::Sender<Event>) -> Result<(), Stop> {
        let total: usize = self
            .sources
            .iter()
            .map(|s| s.text.chars().count())
            .sum::<usize>()
            + self.instructions.chars().count();
        let texts: Vec<String> = if total <= GENERATION_BUDGET_CHARS {
            self.send(
                tx,
                event(
                    "progress",
                    json!({"step": 1, "of": 1, "label": "Writing the report"}),
                ),
            )
            .await?;
            self.sources.iter().map(|s| s.text.clone()).collect()
        } else {
            self.summaries(tx).await?
        };
        let prompt = report_prompt(&self.title, &self.instructions, &texts.join("\n"));
        let request = ChatRequest {
            system: REPORT_SYSTEM.into(),
            user: prompt,
            schema: None,
            max_tokens: REPORT_MAX_TOKENS,
            temperature: 0.3,
        };
        let mut stream = self
            .chat
            .stream(&request)
            .await
            .map_err(|err| Stop::Failed(provider_sentence(&err)))?;
        let mut written = String::new();
        while let Some(piece) = stream.next().await {
            match piece {
                Ok(delta) => {
                    written.push_str(&delta);
                    self.send(tx, event("text", json!({ "delta": delta })))
                        .await?;
                }
                Err(err) => {
                    self.record(&request.user, &written).await;
                    return Err(Stop::Failed(provider_sentence(&err)));
                }
            }
        }
        self.record(&request.user, &written).await;
        Ok(())
    }

    /// The map step: one summary per source, with progress; each clipped so that together
    /// they fit the budget.
    async fn summaries(&self, tx: &mpsc::Sender<Event>) -> Result<Vec<String>, Stop> {
        let of = self.sources.len() + 1;
        let tasks = self.sources.iter().filter(|s| s.kind == "task").count();
        let notes = self.sources.len() - tasks;
        let share = (GENERATION_BUDGET_CHARS / self.sources.len().max(1)).max(500);
        let mut out = Vec::with_capacity(self.sources.len());
        let (mut task_n, mut note_n) = (0, 0);
        for (i, source) in self.sources.iter().enumerate() {
            let label = if source.kind == "task" {
                task_n += 1;
                format!("Summarising task {task_n} of {tasks}")
            } else {
                note_n += 1;
                format!("Summarising voice note {note_n} of {notes}")
            };
            self.send(
                tx,
                event("progress", json!({"step": i + 1, "of": of, "label": label})),
            )
            .await?;
            let instructions = if self.instructions.is_empty() {
                DEFAULT_INSTRUCTIONS
            } else {
                self.instructions.as_str()
            };
            let request = ChatRequest {
                system: SUMMARY_SYSTEM.into(),
                user: format!(
                    "The leader's instructions for the report:\n{instructions}\n\nThe source ({}):\n\n{}",
                    source.kind,
                    clipped(&source.text, GENERATION_BUDGET_CHARS)
                ),
                schema: None,
                max_tokens: SUMMARY_MAX_TOKENS,
                temperature: 0.2,
            };
            let summary = self
                .chat
                .complete(&request)
                .await
                .map_err(|err| Stop::Failed(provider_sentence(&err)))?;
            self.record(&request.user, &summary).await;
            let heading = source.text.lines().next().unwrap_or_default();
            out.push(format!(
                "{heading} (summary)\n{}\n",
                clipped(summary.trim(), share)
            ));
        }
        self.send(
            tx,
            event(
                "progress",
                json!({"step": of, "of": of, "label": "Writing the report"}),
            ),
        )
        .await?;
        Ok(out)
    }
}
