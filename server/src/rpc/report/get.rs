//! `report.get`: one of the caller's reports, whole (NOT_FOUND for anyone else's).

use crate::models::reports;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ReportIdInput {
        pub id: String,
    }
}

rpc_type! {
    pub struct ReportDetail {
        pub id: String,
        pub title: String,
        pub instructions: String,
        /// Markdown.
        pub body: String,
        pub task_ids: Vec<String>,
        pub voice_note_ids: Vec<String>,
        pub created_at: JsDate,
        pub updated_at: JsDate,
    }
}

/// A JSON array of ids as kept in the row (anything else reads as none).
pub fn ids_of(json: &str) -> Vec<String> {
    serde_json::from_str(json).unwrap_or_default()
}

pub async fn handler(ctx: &Ctx, input: ReportIdInput) -> RpcResult<ReportDetail> {
    let author = super::author(ctx)?;
    let mut pooled = ctx.conn().await?;
    let report = reports::find(&mut pooled.db(), author, input.id.trim())
        .await?
        .ok_or_else(super::not_found)?;
    Ok(ReportDetail {
        task_ids: ids_of(&report.task_ids),
        voice_note_ids: ids_of(&report.voice_note_ids),
        id: report.id,
        title: report.title,
        instructions: report.instructions,
        body: report.body,
        created_at: report.created_at.into(),
        updated_at: report.updated_at.into(),
    })
}
