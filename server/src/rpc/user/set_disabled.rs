//! `user.setDisabled`: disables a user (their sessions end at once; their next request
//! finds no session and a sign-in answers AccountDisabled) or enables them again, which
//! takes a seat back, so it is refused when the seats are full. Nobody disables themselves.

use super::{audit_change, manager, manager_scope, target, ManagedUser};
use crate::models::audit::AuditAction;
use crate::models::sessions::delete_user_sessions;
use crate::models::user_directory;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::staffing;
use crate::transaction;

rpc_type! {
    pub struct SetDisabledInput {
        pub id: String,
        pub disabled: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: SetDisabledInput) -> RpcResult<ManagedUser> {
    let caller = manager(ctx)?.clone();
    let scope = manager_scope(ctx)?.map(str::to_owned);
    let config = &ctx.state.config;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        let row = target(c, &caller, scope.as_deref(), &input.id).await?;
        if row.id == caller.id && input.disabled {
            return Err(RpcError::forbidden("You cannot disable your own account."));
        }
        if input.disabled {
            user_directory::set_disabled(c, &row.id, true).await?;
            delete_user_sessions(c, &row.id).await?;
            audit_change(c, &caller, &row, AuditAction::Update, "disable").await?;
        } else if row.disabled {
            if let Some(school_id) = &row.school_id {
                user_directory::lock_school(c, school_id).await?;
                let seats = staffing::seats(c, config, school_id).await?;
                if !seats.fits(1) {
                    return Err(RpcError::new(ErrorCode::Forbidden, seats.full_message(1)));
                }
            }
            user_directory::set_disabled(c, &row.id, false).await?;
            audit_change(c, &caller, &row, AuditAction::Update, "enable").await?;
        }
        let row = user_directory::find(c, &row.id, None)
            .await?
            .ok_or_else(|| RpcError::internal("the user vanished"))?;
        Ok(ManagedUser::from(row))
    })
}
