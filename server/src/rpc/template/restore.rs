//! `template.restore`: brings an archived template back to the list and to task creation.

use super::{editable, TemplateId};
use crate::models::templates;
use crate::rpc::{Ctx, RpcResult};

use super::save::SavedTemplate;

pub async fn handler(ctx: &Ctx, input: TemplateId) -> RpcResult<SavedTemplate> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (row, _) = editable(ctx, &mut conn, &input.id).await?;
    templates::set_archived(&mut conn, &row.id, false).await?;
    Ok(SavedTemplate { id: row.id })
}
