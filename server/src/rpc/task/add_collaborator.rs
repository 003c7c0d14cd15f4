//! `task.addCollaborator`: the owner, on Pro, shares a task with a colleague of the same
//! school (NOT_FOUND for anyone else); Basic is FORBIDDEN with the upgrade message.
//! Answers the collaborators now.

use core_wasm::plan::{Plan, COLLABORATE_NEEDS_PRO_MESSAGE};

use super::colleagues::OWNER_SHARES;
use super::{collaborator_views, plan_of, require_owner, PersonView};
use crate::models::{now, task_submissions};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

rpc_type! {
    /// `{id, userId}`: a task and a colleague.
    pub struct CollaboratorInput {
        pub id: String,
        pub user_id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: CollaboratorInput) -> RpcResult<Vec<PersonView>> {
    let (user, school_id) = super::caller(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let task = require_owner(ctx, &mut conn, &input.id, OWNER_SHARES).await?;
    if plan_of(ctx, &mut conn, user).await? != Plan::Pro {
        return Err(RpcError::forbidden(COLLABORATE_NEEDS_PRO_MESSAGE));
    }
    let colleagues = task_submissions::colleagues(&mut conn, school_id, &task.user_id).await?;
    if !colleagues.iter().any(|(id, ..)| *id == input.user_id) {
        return Err(RpcError::new(
            ErrorCode::NotFound,
            "This colleague is not at your school.",
        ));
    }
    task_submissions::add_collaborator(&mut conn, &task.id, &input.user_id, now()).await?;
    collaborator_views(&mut conn, &task.id).await
}
