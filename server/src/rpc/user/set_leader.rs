//! `user.setLeader`: sets or clears a user's `leader` flag (who may switch between the
//! pupil and leaders areas, spec section 6).

use super::{audit_change, manager, manager_scope, target, ManagedUser};
use crate::models::audit::AuditAction;
use crate::models::user_directory;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct SetLeaderInput {
        pub id: String,
        pub leader: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: SetLeaderInput) -> RpcResult<ManagedUser> {
    let caller = manager(ctx)?.clone();
    let scope = manager_scope(ctx)?.map(str::to_owned);
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        let row = target(c, &caller, scope.as_deref(), &input.id).await?;
        user_directory::set_leader(c, &row.id, input.leader).await?;
        let detail = if input.leader { "leader on" } else { "leader off" };
        audit_change(c, &caller, &row, AuditAction::Update, detail).await?;
        let row = user_directory::find(c, &row.id, None)
            .await?
            .ok_or_else(|| RpcError::internal("the user vanished"))?;
        Ok(ManagedUser::from(row))
    })
}
