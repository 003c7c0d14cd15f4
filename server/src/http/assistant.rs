//! `POST /api/assistant`: the header's AI assistant answers one question, streamed as
//! Server-Sent Events while the model writes (tRPC here does not stream). Signed in with a
//! school (401/403), same origin (403), a chat model configured (412), a question of 1 to
//! 2,000 characters (400). Refusals before the stream are JSON `{"error": "<sentence>"}`.
//!
//! The body is `{question, context, conversation}`: `context` is the page the panel was
//! opened on (kept as the query's `filterId`), `conversation` the messages an earlier `done`
//! gave for this conversation (re-checked: `assistant::conversation_from`).
//!
//! Once accepted, the answer is `text/event-stream` with these events (data is JSON):
//! * `status` `{text}`: a tool is running ("Looking up who has handed in…");
//! * `text` `{delta}`: the next piece of the answer;
//! * `draft` `{type, title, body, students: [{id, name}], sendToPupil, sendToParent}`: a
//!   message or assignment for the editor (`/notifications/create?assistant=1`); never sent;
//! * `done` `{id, answer, conversation}`: the kept query's id (`null` when the school keeps
//!   no history) and the conversation so far, to send back as it is with a follow-up;
//! * `error` `{message}`: a sentence for the user; the stream then ends.
//!
//! The question and answer are kept (`assistant_queries`, `filter_id` = `assistant:` + the
//! page) before `done`, unless the school has switched the history off. A failed or
//! stopped question is not kept. Closing the connection stops the model.

use std::time::Instant;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::reports::{caller, refusal};
use crate::assistant::{self, Failure, Output, MAX_QUESTION_CHARS};
use crate::auth::session::SessionUser;
use crate::models::{assistant_queries, now, organisations};
use crate::providers::ChatClient;
use crate::rpc::context::check_same_origin;
use crate::rpc::Ctx;
use crate::state::AppState;

/// Shown when no chat model is configured.
pub const NOT_SET_UP: &str =
    "The AI assistant is not switched on for your school yet. Ask your administrator.";
/// An empty question.
pub const EMPTY: &str = "Type or say a question.";
/// A question over the limit.
pub const TOO_LONG: &str = "Ask in at most 2,000 characters.";
/// The largest request body (the conversation carries earlier tool results).
const MAX_BODY_BYTES: usize = 256 * 1024;

#[derive(Debug, Deserialize)]
struct AskInput {
    question: String,
    #[serde(default)]
    context: String,
    #[serde(default)]
    conversation: Vec<Value>,
}

/// The routes under `/api/assistant`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/", post(ask))
}

fn event(name: &str, data: Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// The page as kept: a path of at most 200 characters, else `/`.
fn page_of(context: &str) -> String {
    let context = context.trim();
    if context.starts_with('/') && context.chars().count() <= 200 && !context.chars().any(char::is_control) {
        context.to_owned()
    } else {
        "/".to_owned()
    }
}

async fn ask(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    if check_same_origin(&headers, &state.config.public_url).is_err() {
        return refusal(StatusCode::FORBIDDEN, "Cross-site request refused", None);
    }
    let session = match caller(&state, &headers).await {
        Ok(session) => session,
        Err(refused) => return refused,
    };
    let Some(chat) = state.providers.chat.clone() else {
        return refusal(StatusCode::PRECONDITION_FAILED, NOT_SET_UP, None);
    };
    if body.len() > MAX_BODY_BYTES {
        return refusal(StatusCode::PAYLOAD_TOO_LARGE, "The request is too large.", None);
    }
    let Ok(input) = serde_json::from_slice::<AskInput>(&body) else {
        return refusal(StatusCode::BAD_REQUEST, "The request could not be read.", None);
    };
    let question = input.question.trim().to_owned();
    if question.is_empty() {
        return refusal(StatusCode::BAD_REQUEST, EMPTY, Some(json!({ "question": EMPTY })));
    }
    if question.chars().count() > MAX_QUESTION_CHARS {
        return refusal(StatusCode::BAD_REQUEST, TOO_LONG, Some(json!({ "question": TOO_LONG })));
    }
    let page = page_of(&input.context);
    let conversation = assistant::conversation_from(&input.conversation);
    let (tx, rx) = mpsc::channel::<Event>(64);
    tokio::spawn(run(state, headers, session, chat, question, page, conversation, tx));
    super::sse::response(rx)
}

/// Answers the question into `tx`, keeps it, then sends `done` or `error`.
#[allow(clippy::too_many_arguments)]
async fn run(
    state: AppState,
    headers: HeaderMap,
    session: SessionUser,
    chat: ChatClient,
    question: String,
    page: String,
    conversation: Vec<Value>,
    tx: mpsc::Sender<Event>,
) {
    let started = Instant::now();
    let user_id = session.user.id.clone();
    let school_id = session.user.school_id.clone().unwrap_or_default();
    let system = assistant::system_prompt(
        &format!("{} {}", session.user.forename, session.user.surname),
        &page,
    );
    let ctx = Ctx::new(state.clone(), headers, Some(session));
    // The run's outputs become events as they come.
    let (out_tx, mut out_rx) = mpsc::channel::<Output>(64);
    let forward = {
        let tx = tx.clone();
        tokio::spawn(async move {
            let mut first_text = None;
            while let Some(output) = out_rx.recv().await {
                let event = match output {
                    Output::Status(text) => event("status", json!({ "text": text })),
                    Output::Text(delta) => {
                        first_text.get_or_insert_with(|| started.elapsed());
                        event("text", json!({ "delta": delta }))
                    }
                    Output::Draft(draft) => event("draft", draft),
                };
                if tx.send(event).await.is_err() {
                    break;
                }
            }
            first_text
        })
    };
    let result = assistant::answer(&ctx, &chat, system, conversation, &question, &out_tx).await;
    drop(out_tx);
    let first_text = forward.await.ok().flatten();
    let last = match result {
        Ok(answer) => {
            let id = keep(&state, &user_id, &school_id, &page, &question, &answer.text).await;
            tracing::info!(
                first_text_ms = first_text.map(|d| d.as_millis() as u64),
                elapsed_ms = started.elapsed().as_millis() as u64,
                "assistant answered"
            );
            event(
                "done",
                json!({ "id": id, "answer": answer.text, "conversation": answer.conversation }),
            )
        }
        Err(Failure::Stopped) => return,
        Err(failure) => {
            tracing::warn!(?failure, "assistant: no answer");
            event("error", json!({ "message": failure.message() }))
        }
    };
    let _ = tx.send(last).await;
}

/// Keeps the question and answer unless the school keeps no history; answers the row's id.
/// The user already has the answer: a failure here is logged, not shown.
async fn keep(
    state: &AppState,
    user_id: &str,
    school_id: &str,
    page: &str,
    question: &str,
    answer: &str,
) -> Option<String> {
    let result = async {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        if !organisations::assistant_history_on(&mut conn, school_id).await? {
            return Ok(None);
        }
        let filter = format!("{}{page}", assistant_queries::ASSISTANT);
        let id = assistant_queries::insert_with_filter(&mut conn, user_id, Some(&filter), question, answer, now()).await?;
        Ok::<_, crate::db::DbError>(Some(id))
    }
    .await;
    result.unwrap_or_else(|err| {
        tracing::error!(%err, "could not keep the assistant's answer");
        None
    })
}

#[cfg(test)]
mod tests {
    use super::page_of;

    #[test]
    fn the_page_kept_is_a_short_path() {
        assert_eq!(page_of("/notifications/abc/details"), "/notifications/abc/details");
        assert_eq!(page_of("https://evil.test/"), "/");
        assert_eq!(page_of(&format!("/{}", "a".repeat(300))), "/");
        assert_eq!(page_of("/a\nb"), "/");
    }
}
