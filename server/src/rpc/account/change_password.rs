//! `user.changePassword`: the signed-in caller replaces their password, proving the current one;
//! their other sessions end, this one stays.

use crate::auth::accounts;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ChangePasswordInput {
        pub current_password: String,
        pub new_password: String,
    }
}

rpc_type! {
    pub struct PasswordChanged {
        pub changed_at: JsDate,
    }
}

pub async fn handler(ctx: &Ctx, input: ChangePasswordInput) -> RpcResult<PasswordChanged> {
    let user = ctx.require_user()?;
    let session = ctx.session_token_hash().unwrap_or_default();
    let changed_at = accounts::change_password(
        &ctx.state,
        &user.id,
        session,
        &input.current_password,
        &input.new_password,
    )
    .await?;
    Ok(PasswordChanged {
        changed_at: changed_at.into(),
    })
}
