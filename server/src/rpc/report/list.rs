//! `report.list`: the caller's saved reports, most recently changed first (then by id),
//! [`PAGE`] at a time after a stable cursor (docs/scaling.md "Paged lists"). No payload
//! answers the first page.

use crate::models::reports;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{cursor, Ctx, RpcResult};

/// Reports per page: the saved reports sit under the generator's form, so a page stays
/// short enough to keep the form in view; a leader writes a few a term (12 a school in
/// the thousand-school data), so most never see a second page.
pub const PAGE: i64 = 20;

rpc_type! {
    pub struct ReportListInput {
        /// `nextCursor` of the page before; none for the first page.
        pub cursor: Option<String>,
    }
}

rpc_type! {
    pub struct ReportListItem {
        pub id: String,
        pub title: String,
        pub created_at: JsDate,
        pub updated_at: JsDate,
    }
}

rpc_type! {
    pub struct ReportPage {
        pub reports: Vec<ReportListItem>,
        /// Every saved report of the caller.
        pub total: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: Option<ReportListInput>) -> RpcResult<ReportPage> {
    let author = super::author(ctx)?;
    let after = cursor::time_key("cursor", input.and_then(|i| i.cursor).as_deref())?;
    let mut pooled = ctx.conn().await?;
    // One more than a page tells whether another follows.
    let (mut rows, total) = reports::list_page(&mut pooled.db(), author, after.as_ref(), PAGE + 1).await?;
    let next_cursor = if rows.len() as i64 > PAGE {
        rows.truncate(PAGE as usize);
        rows.last().map(|r| cursor::of_time(r.updated_at, &r.id))
    } else {
        None
    };
    Ok(ReportPage {
        reports: rows
            .into_iter()
            .map(|r| ReportListItem {
                id: r.id,
                title: r.title,
                created_at: r.created_at.into(),
                updated_at: r.updated_at.into(),
            })
            .collect(),
        total,
        next_cursor,
    })
}
