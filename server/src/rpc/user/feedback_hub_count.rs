//! `user.feedbackHubCount`: submissions waiting for the caller's feedback (the badge).

use crate::models::notifications;
use crate::rpc::registry::NoInput;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<i64> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    Ok(notifications::feedback_hub_count(&mut pooled.db(), &user.id).await?)
}
