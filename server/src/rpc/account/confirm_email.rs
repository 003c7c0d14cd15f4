//! `account.confirmEmail`: the e-mailed confirmation link's token proves the address; a
//! sign-up's organisation is created now (docs/organisations.md).

use crate::auth::accounts;
use crate::rpc::registry::True;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct ConfirmEmailInput {
        pub token: String,
    }
}

rpc_type! {
    pub struct ConfirmEmailAnswer {
        pub ok: True,
        /// The organisation the sign-up created, if it made one.
        pub organisation_name: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: ConfirmEmailInput) -> RpcResult<ConfirmEmailAnswer> {
    let organisation_name = accounts::confirm_email(&ctx.state, &input.token).await?;
    Ok(ConfirmEmailAnswer {
        ok: True,
        organisation_name,
    })
}
