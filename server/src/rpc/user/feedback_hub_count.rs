//! `user.feedbackHubCount`: submissions waiting for the caller's feedback (the badge). It
//! counts exactly what `feedback.list` lists (`submissions::MarkerScope`).

use crate::models::notifications;
use crate::models::submissions::MarkerScope;
use crate::rpc::registry::NoInput;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<i64> {
    let user = ctx.require_user()?;
    let Some(scope) = MarkerScope::for_user(user) else {
        return Ok(0); // no school (superadmins): nothing to mark
    };
    let mut pooled = ctx.conn().await?;
    Ok(notifications::feedback_hub_count(&mut pooled.db(), &scope).await?)
}
