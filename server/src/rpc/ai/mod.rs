//! `ai.*`: the chat model's help with a task's answers. `formatAnswer` tidies one answer
//! (a tRPC mutation); autofill streams, so it is the HTTP route `POST
//! /api/tasks/{id}/autofill` (`http::autofill`), which shares this module's prompts and
//! helpers. Every call is kept in `assistant_queries`; nothing the AI writes is saved
//! until the user saves the form.

pub mod format_answer;
pub mod prompt;

use crate::models::{assistant_queries, now};
use crate::rpc::registry::{procedure, Procedure};
use crate::state::AppState;

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![procedure!(Mutation "ai.formatAnswer" => format_answer)]
}

/// Keeps one call (the spec's AssistantQuery). The user already has the answer: a failure
/// here is logged, not shown.
pub async fn record_query(state: &AppState, user_id: &str, query: &str, response: &str) {
    let result = async {
        let mut pooled = state.db.conn().await?;
        assistant_queries::insert(&mut pooled.db(), user_id, query, response, now()).await?;
        Ok::<(), crate::db::DbError>(())
    }
    .await;
    if let Err(err) = result {
        tracing::error!(%err, "could not record the assistant query");
    }
}
