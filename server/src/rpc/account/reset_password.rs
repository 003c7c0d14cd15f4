//! `account.resetPassword`: a new password through the e-mailed link's token.

use crate::auth::accounts;
use crate::rpc::registry::Done;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ResetPasswordInput {
        pub token: String,
        pub password: String,
    }
}

pub async fn handler(ctx: &Ctx, input: ResetPasswordInput) -> RpcResult<Done> {
    accounts::reset_password(
        &ctx.state,
        &input.token,
        &input.password,
        ctx.client_address(),
    )
    .await?;
    Ok(Done::OK)
}
