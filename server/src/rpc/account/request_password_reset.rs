//! `account.requestPasswordReset`: e-mails a reset link (the answer never says whether the
//! address has an account).

use crate::auth::accounts;
use crate::rpc::registry::Done;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct RequestPasswordResetInput {
        pub email: String,
    }
}

pub async fn handler(ctx: &Ctx, input: RequestPasswordResetInput) -> RpcResult<Done> {
    accounts::request_password_reset(&ctx.state, &input.email, ctx.client_address()).await?;
    Ok(Done::OK)
}
