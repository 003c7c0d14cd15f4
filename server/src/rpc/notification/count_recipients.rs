//! `notification.countRecipients`: how many pupils of the caller's school the filters
//! select now — the live count the editor shows before sending.

use crate::models::recipients::{count_recipients, Filters};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct CountRecipients {
        pub filters: Filters,
    }
}

rpc_type! {
    pub struct RecipientCount {
        pub pupils: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: CountRecipients) -> RpcResult<RecipientCount> {
    ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let pupils = count_recipients(&mut pooled.db(), school_id, &input.filters).await?;
    Ok(RecipientCount { pupils })
}
