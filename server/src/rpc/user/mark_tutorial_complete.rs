//! `user.markTutorialComplete`: the caller has seen the tutorial; it is not shown again.

use crate::models::users;
use crate::rpc::registry::{Done, True};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct MarkTutorialCompleteInput {
        pub complete: True,
    }
}

pub async fn handler(ctx: &Ctx, _input: MarkTutorialCompleteInput) -> RpcResult<Done> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    users::mark_tutorial_complete(&mut pooled.db(), &user.id).await?;
    Ok(Done::OK)
}
