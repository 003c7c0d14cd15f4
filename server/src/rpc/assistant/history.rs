//! `assistant.history`: the caller's questions to the assistant and its answers, newest
//! first (the latest 50), and whether their school keeps them at all.

use crate::models::{assistant_queries, organisations};
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// How many questions the panel lists.
pub const HISTORY_LIMIT: i64 = 50;

rpc_type! {
    pub struct AssistantHistoryItem {
        pub id: String,
        pub created_at: JsDate,
        pub question: String,
        pub answer: Option<String>,
        /// The page it was asked on.
        pub context: Option<String>,
    }
}

rpc_type! {
    pub struct AssistantHistory {
        /// False when the caller's school has switched the history off.
        pub enabled: bool,
        pub items: Vec<AssistantHistoryItem>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<AssistantHistory> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let enabled = match user.school_id.as_deref() {
        Some(school_id) => organisations::assistant_history_on(&mut conn, school_id).await?,
        None => true,
    };
    let rows = assistant_queries::assistant_history(&mut conn, &user.id, HISTORY_LIMIT).await?;
    Ok(AssistantHistory {
        enabled,
        items: rows
            .into_iter()
            .map(|row| AssistantHistoryItem {
                id: row.id,
                created_at: row.created_at.into(),
                question: row.query,
                answer: row.response,
                context: row
                    .filter_id
                    .and_then(|f| f.strip_prefix(assistant_queries::ASSISTANT).map(str::to_owned))
                    .filter(|c| !c.is_empty()),
            })
            .collect(),
    })
}
