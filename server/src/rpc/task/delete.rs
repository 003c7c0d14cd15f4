//! `task.delete`: the owner deletes a task with its answers, collaborators and content;
//! a collaborator is refused (FORBIDDEN).

use super::{require_owner, TaskId};
use crate::models::task_submissions;
use crate::rpc::registry::Done;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, input: TaskId) -> RpcResult<Done> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let task = require_owner(
        ctx,
        &mut conn,
        &input.id,
        "Only the task's owner can delete it.",
    )
    .await?;
    task_submissions::delete(&mut conn, &task.id).await?;
    Ok(Done::OK)
}
