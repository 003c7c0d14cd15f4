//! `report.delete`: deletes one of the caller's reports (NOT_FOUND for anyone else's).

use super::get::ReportIdInput;
use crate::models::reports;
use crate::rpc::registry::Done;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, input: ReportIdInput) -> RpcResult<Done> {
    let author = super::author(ctx)?;
    let mut pooled = ctx.conn().await?;
    if reports::delete(&mut pooled.db(), author, input.id.trim()).await? {
        Ok(Done::OK)
    } else {
        Err(super::not_found())
    }
}
