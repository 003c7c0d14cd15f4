//! `task.colleagues`: whom the owner may share a task with: the enabled users of the same
//! school other than the owner, by name, each marked when already a collaborator.

use super::{full_name, require_owner, TaskId};
use crate::models::task_submissions;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// Why only the owner may manage sharing.
pub const OWNER_SHARES: &str = "Only the task's owner can share it.";

rpc_type! {
    /// A colleague of the owner's school.
    pub struct ColleagueView {
        pub id: String,
        pub name: String,
        pub email: String,
        pub collaborator: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: TaskId) -> RpcResult<Vec<ColleagueView>> {
    let (_, school_id) = super::caller(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let task = require_owner(ctx, &mut conn, &input.id, OWNER_SHARES).await?;
    let current = task_submissions::collaborators_of(&mut conn, &task.id).await?;
    Ok(
        task_submissions::colleagues(&mut conn, school_id, &task.user_id)
            .await?
            .into_iter()
            .map(|(id, forename, surname, email)| ColleagueView {
                collaborator: current.iter().any(|(c, ..)| *c == id),
                name: full_name(&forename, &surname),
                id,
                email,
            })
            .collect(),
    )
}
