//! `POST /api/tasks/{id}/autofill`: the chat model fills a task's answers from its content,
//! streamed to the browser as Server-Sent Events while the model writes (tRPC here does not
//! stream). Signed in (session cookie; 401 otherwise), same origin (403), a task the caller
//! may edit (`task_submissions::access`; 404 otherwise, also for other schools' ids), a chat
//! provider configured (412 with `rpc::ai::prompt::NOT_SET_UP`). Refusals before the stream
//! are JSON `{"error": "<sentence>"}` with that status.
//!
//! Once accepted, the answer is `text/event-stream` with these events (data is JSON):
//! * `answer` `{questionId, text, complete}`: a question's answer so far (the whole text
//!   each time, not a delta); `complete` once its value is closed.
//! * `done` `{answers: {questionId: text}, truncated}`: every question of the template,
//!   `""` where the content says nothing; `truncated` when content was cut to fit.
//! * `error` `{message}`: a sentence for the user; the stream then ends.
//!
//! Nothing is saved to the task: the user reviews the answers and saves the form. The call
//! is kept in `assistant_queries` (the questions and item names, and the answers or the
//! error) before `done` or `error` is sent. Closing the connection stops the model.

use std::collections::HashMap;
use std::time::Instant;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use futures_util::StreamExt;
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use crate::auth::session::current_user;
use crate::error::AppError;
use crate::models::task_context::{self, TaskContext};
use crate::models::templates::{self, QuestionRow};
use crate::models::task_submissions;
use crate::providers::chat::{extract_json, partial_string_values};
use crate::providers::ChatClient;
use crate::rpc::ai::prompt::{self, AutofillPrompt};
use crate::rpc::ai::record_query;
use crate::rpc::context::check_same_origin;
use crate::state::AppState;

/// Signed out, or a disabled account.
pub const SIGN_IN: &str = "Sign in to use AI autofill.";
/// A template without questions.
pub const NO_QUESTIONS: &str = "This task's template has no questions to fill in.";
/// A final answer with no JSON object in it.
pub const UNREADABLE: &str =
    "The AI service's answer could not be read as the form's answers. Please try again.";

/// The routes under `/api/tasks`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/{id}/autofill", post(autofill))
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

async fn autofill(State(state): State<AppState>, Path(task_id): Path<String>, headers: HeaderMap) -> Response {
    let secure = crate::auth::routes::is_secure(&state.config);
    let caller = match current_user(&state.db, &headers, secure).await {
        Ok(caller) => caller,
        Err(err) => return AppError::from(err).into_response(),
    };
    let Some(user) = caller.map(|c| c.user).filter(|u| !u.disabled) else {
        return refuse(StatusCode::UNAUTHORIZED, SIGN_IN);
    };
    if let Err(err) = check_same_origin(&headers, &state.config.public_url) {
        return refuse(StatusCode::FORBIDDEN, &err.message);
    }
    let Some(chat) = state.providers.chat.clone() else {
        return refuse(StatusCode::PRECONDITION_FAILED, prompt::NOT_SET_UP);
    };
    let Some(school_id) = user.school_id.clone() else {
        return AppError::NotFound.into_response();
    };
    let (context, questions) = match load(&state, &user.id, &school_id, &task_id).await {
        Ok(Some(found)) => found,
        Ok(None) => return AppError::NotFound.into_response(),
        Err(err) => return AppError::from(err).into_response(),
    };
    if questions.is_empty() {
        return refuse(StatusCode::BAD_REQUEST, NO_QUESTIONS);
    }
    let prompt = prompt::autofill(&context, &questions);
    let query = json!({
        "kind": "autofill",
        "taskId": task_id,
        "questions": questions.iter().map(|q| json!({"id": q.id, "text": q.text})).collect::<Vec<_>>(),
        "items": context.items.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
        "truncated": prompt.truncated,
    })
    .to_string();
    let (tx, rx) = mpsc::channel::<Event>(64);
    tokio::spawn(run(state, chat, user.id, query, prompt, tx));
    super::sse::response(rx)
}

/// The task's context and its template's questions, when the caller may edit the task.
async fn load(
    state: &AppState,
    user_id: &str,
    school_id: &str,
    task_id: &str,
) -> Result<Option<(TaskContext, Vec<QuestionRow>)>, crate::db::DbError> {
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    if task_submissions::access(&mut conn, user_id, school_id, task_id).await?.is_none() {
        return Ok(None);
    }
    let Some(context) = task_context::of_task(&mut conn, task_id).await? else {
        return Ok(None);
    };
    let questions = templates::questions_of(&mut conn, &context.template_id).await?;
    Ok(Some((context, questions)))
}

/// How a run ended.
enum Ending {
    /// Every question's final answer, by question id.
    Answers(Vec<(String, String)>),
    /// A sentence for the user.
    Failed(String),
    /// The browser went away: the answers shown so far.
    Stopped(Vec<(String, String)>),
}

/// Streams the model's answer into `tx`, keeps the call, then sends `done` or `error`.
async fn run(state: AppState, chat: ChatClient, user_id: String, query: String, prompt: AutofillPrompt, tx: mpsc::Sender<Event>) {
    let started = Instant::now();
    let ending = stream_answers(&chat, &prompt, &tx).await;
    let by_id = |answers: &[(String, String)]| -> Map<String, Value> {
        answers.iter().map(|(id, text)| (id.clone(), Value::String(text.clone()))).collect()
    };
    let response = match &ending {
        Ending::Answers(answers) => json!({ "answers": by_id(answers) }),
        Ending::Failed(message) => json!({ "error": message }),
        Ending::Stopped(answers) => json!({ "stopped": true, "answers": by_id(answers) }),
    };
    record_query(&state, &user_id, &query, &response.to_string()).await;
    tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "autofill finished");
    let last = match ending {
        Ending::Answers(answers) => Event::default()
            .event("done")
            .data(json!({ "answers": by_id(&answers), "truncated": prompt.truncated }).to_string()),
        Ending::Failed(message) => Event::default().event("error").data(json!({ "message": message }).to_string()),
        Ending::Stopped(_) => return,
    };
    let _ = tx.send(last).await;
}

fn answer_event(question_id: &str, text: &str, complete: bool) -> Event {
    Event::default()
        .event("answer")
        .data(json!({ "questionId": question_id, "text": text, "complete": complete }).to_string())
}

/// Reads the model's stream, sending each answer as it grows; the final answers once the
/// whole JSON has come.
async fn stream_answers(chat: &ChatClient, prompt: &AutofillPrompt, tx: &mpsc::Sender<Event>) -> Ending {
    let id_of: HashMap<&str, &str> = prompt.keys.iter().map(|(k, id)| (k.as_str(), id.as_str())).collect();
    // What the browser has been sent, by key.
    let mut shown: HashMap<String, (String, bool)> = HashMap::new();
    let partial = |shown: &HashMap<String, (String, bool)>| -> Vec<(String, String)> {
        prompt
            .keys
            .iter()
            .filter_map(|(key, id)| shown.get(key).map(|(text, _)| (id.clone(), text.clone())))
            .collect()
    };
    let mut pieces = tokio::select! {
        started = chat.stream(&prompt.request) => match started {
            Ok(pieces) => pieces,
            Err(err) => {
                tracing::warn!(%err, "autofill: the chat provider refused");
                return Ending::Failed(prompt::user_message(&err));
            }
        },
        _ = tx.closed() => return Ending::Stopped(Vec::new()),
    };
    let mut text = String::new();
    loop {
        let piece = tokio::select! {
            piece = pieces.next() => piece,
            _ = tx.closed() => return Ending::Stopped(partial(&shown)),
        };
        match piece {
            None => break,
            Some(Err(err)) => {
                tracing::warn!(%err, "autofill: the chat stream failed");
                return Ending::Failed(prompt::user_message(&err));
            }
            Some(Ok(piece)) => text.push_str(&piece),
        }
        let open: Vec<&str> = prompt
            .keys
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !shown.get(*k).is_some_and(|(_, complete)| *complete))
            .collect();
        for (key, value, complete) in partial_string_values(&text, &open) {
            if shown.get(&key).is_some_and(|(v, c)| *v == value && *c == complete) {
                continue;
            }
            if tx.send(answer_event(id_of[key.as_str()], &value, complete)).await.is_err() {
                return Ending::Stopped(partial(&shown));
            }
            shown.insert(key, (value, complete));
        }
    }
    let answers = match extract_json(&text) {
        Some(json) => prompt::answers_from(&json, &prompt.keys),
        // A one-question form answered in plain words is still its answer.
        None if prompt.keys.len() == 1 && !text.trim().is_empty() && !text.contains('{') => {
            vec![(prompt.keys[0].1.clone(), text.trim().to_owned())]
        }
        None => {
            tracing::warn!(answer = %text.chars().take(300).collect::<String>(), "autofill: no JSON in the answer");
            return Ending::Failed(UNREADABLE.to_owned());
        }
    };
    for ((key, _), (id, final_text)) in prompt.keys.iter().zip(&answers) {
        if shown.get(key).is_some_and(|(v, c)| v == final_text && *c) {
            continue;
        }
        if tx.send(answer_event(id, final_text, true)).await.is_err() {
            return Ending::Stopped(partial(&shown));
        }
        shown.insert(key.clone(), (final_text.clone(), true));
    }
    Ending::Answers(answers)
}
