//! `assistant.deleteQuery`: deletes one of the caller's own questions to the assistant
//! (NOT_FOUND for anyone else's, or for another AI call's record).

use crate::models::assistant_queries;
use crate::rpc::registry::Done;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

rpc_type! {
    pub struct AssistantQueryId {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: AssistantQueryId) -> RpcResult<Done> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    if !assistant_queries::delete_own(&mut pooled.db(), &user.id, &input.id).await? {
        return Err(RpcError::new(ErrorCode::NotFound, "Question not found."));
    }
    Ok(Done::OK)
}
