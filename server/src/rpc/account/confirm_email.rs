//! `account.confirmEmail`: the e-mailed confirmation link's token proves the address.

use crate::auth::accounts;
use crate::rpc::registry::Done;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ConfirmEmailInput {
        pub token: String,
    }
}

pub async fn handler(ctx: &Ctx, input: ConfirmEmailInput) -> RpcResult<Done> {
    accounts::confirm_email(&ctx.state, &input.token).await?;
    Ok(Done::OK)
}
