//! `user.resendInvite`: a new invitation link for a pending user (every earlier link is
//! spent) and the e-mail carrying it.

use super::{audit_change, manager, manager_scope, target, ManagedUser};
use crate::models::audit::AuditAction;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::staffing;
use crate::transaction;

rpc_type! {
    pub struct UserIdInput {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: UserIdInput) -> RpcResult<ManagedUser> {
    let caller = manager(ctx)?.clone();
    let scope = manager_scope(ctx)?.map(str::to_owned);
    let config = &ctx.state.config;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        let row = target(c, &caller, scope.as_deref(), &input.id).await?;
        if row.activated {
            return Err(RpcError::bad_request(
                "This person has already set their password.",
            ));
        }
        if row.disabled {
            return Err(RpcError::bad_request(
                "This person is disabled: enable them before sending the invitation again.",
            ));
        }
        let school = match &row.school_id {
            Some(id) => staffing::school_name(c, id).await?,
            None => "Voicemark".to_owned(),
        };
        staffing::send_invite(c, config, &row.id, &row.email, &row.forename, &school).await?;
        audit_change(c, &caller, &row, AuditAction::Update, "resend invite").await?;
        Ok(ManagedUser::from(row))
    })
}
