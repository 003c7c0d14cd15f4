//! `task.removeCollaborator`: the owner stops sharing a task with a colleague (on any plan,
//! so a user back on Basic can still tidy up). Answers the collaborators now.

use super::add_collaborator::CollaboratorInput;
use super::colleagues::OWNER_SHARES;
use super::{collaborator_views, require_owner, PersonView};
use crate::models::task_submissions;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, input: CollaboratorInput) -> RpcResult<Vec<PersonView>> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let task = require_owner(ctx, &mut conn, &input.id, OWNER_SHARES).await?;
    task_submissions::remove_collaborator(&mut conn, &task.id, &input.user_id).await?;
    collaborator_views(&mut conn, &task.id).await
}
