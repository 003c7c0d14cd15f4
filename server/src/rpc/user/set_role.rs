//! `user.setRole`: the role picker (spec section 5). A superadmin may give every role;
//! others only the roles without superadmin, org admin and MAT user; nobody gives a role
//! above their own, changes someone above their own, or changes their own role
//! (`core_wasm::roles::role_change_error`).

use core_wasm::roles::role_change_error;

use super::{audit_change, manager, manager_scope, parse_role, target, ManagedUser};
use crate::models::audit::AuditAction;
use crate::models::user_directory;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct SetRoleInput {
        pub id: String,
        /// TEACHER, ADMIN, ORG_ADMIN, MAT_USER or SUPERADMIN.
        pub role: String,
    }
}

pub async fn handler(ctx: &Ctx, input: SetRoleInput) -> RpcResult<ManagedUser> {
    let caller = manager(ctx)?.clone();
    let scope = manager_scope(ctx)?.map(str::to_owned);
    let role = parse_role("role", &input.role)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        let row = target(c, &caller, scope.as_deref(), &input.id).await?;
        if let Some(message) = role_change_error(caller.role, row.id == caller.id, row.role, role) {
            return Err(RpcError::forbidden(message));
        }
        user_directory::set_role(c, &row.id, role).await?;
        audit_change(c, &caller, &row, AuditAction::Update, &format!("role {}", role.as_str())).await?;
        let row = user_directory::find(c, &row.id, None)
            .await?
            .ok_or_else(|| RpcError::internal("the user vanished"))?;
        Ok(ManagedUser::from(row))
    })
}
