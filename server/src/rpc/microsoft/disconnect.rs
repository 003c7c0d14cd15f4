//! `microsoft.disconnect`: forgets the caller's Graph tokens at once (the sealed access and
//! refresh tokens are deleted; a Sign in with Microsoft link stays). Answers whether any
//! were held.

use super::staff;
use crate::microsoft_graph;
use crate::rpc::registry::NoInput;
use crate::rpc::{Ctx, RpcError, RpcResult};

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<bool> {
    let user = staff(ctx)?;
    microsoft_graph::disconnect(&ctx.state, &user.id)
        .await
        .map_err(|err| RpcError::internal(err.to_string()))
}
