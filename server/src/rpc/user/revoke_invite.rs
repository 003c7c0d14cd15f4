//! `user.revokeInvite`: withdraws an invitation: the pending user is removed (with their
//! links), so the seat and the address are free again. Someone who has already set a
//! password is disabled instead (`user.setDisabled`).

use super::resend_invite::UserIdInput;
use super::{audit_change, manager, manager_scope, target};
use crate::models::audit::AuditAction;
use crate::models::user_directory;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

pub async fn handler(ctx: &Ctx, input: UserIdInput) -> RpcResult<bool> {
    let caller = manager(ctx)?.clone();
    let scope = manager_scope(ctx)?.map(str::to_owned);
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        let row = target(c, &caller, scope.as_deref(), &input.id).await?;
        if row.activated || !user_directory::delete_pending(c, &row.id).await? {
            return Err(RpcError::bad_request(
                "This person has already joined: disable them instead.",
            ));
        }
        audit_change(c, &caller, &row, AuditAction::Delete, "revoke invite").await?;
        Ok(true)
    })
}
