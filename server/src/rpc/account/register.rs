//! `account.register`: a new account; a confirmation e-mail follows.

use crate::auth::accounts::{self, RegisterForm};
use crate::rpc::registry::Done;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct RegisterInput {
        pub forename: String,
        pub surname: String,
        pub email: String,
        pub password: String,
    }
}

pub async fn handler(ctx: &Ctx, input: RegisterInput) -> RpcResult<Done> {
    let form = RegisterForm {
        forename: input.forename,
        surname: input.surname,
        email: input.email,
        password: input.password,
    };
    accounts::register(&ctx.state, form, ctx.client_address()).await?;
    Ok(Done::OK)
}
