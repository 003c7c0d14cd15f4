//! `report.list`: the caller's saved reports, most recently changed first.

use crate::models::reports;
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ReportListItem {
        pub id: String,
        pub title: String,
        pub created_at: JsDate,
        pub updated_at: JsDate,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<ReportListItem>> {
    let author = super::author(ctx)?;
    let mut pooled = ctx.conn().await?;
    let rows = reports::list(&mut pooled.db(), author).await?;
    Ok(rows
        .into_iter()
        .map(|r| ReportListItem {
            id: r.id,
            title: r.title,
            created_at: r.created_at.into(),
            updated_at: r.updated_at.into(),
        })
        .collect())
}
