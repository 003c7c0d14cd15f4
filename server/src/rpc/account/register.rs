//! `account.register`: a new account and the organisation it will run; a confirmation
//! e-mail follows, and confirming creates the organisation (docs/organisations.md).

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
        /// The new school's or business's name (absent: a field error, like empty).
        #[serde(default)]
        pub organisation_name: String,
        #[serde(default)]
        pub postcode: String,
        /// SCHOOL or BUSINESS.
        #[serde(default)]
        pub org_type: String,
    }
}

pub async fn handler(ctx: &Ctx, input: RegisterInput) -> RpcResult<Done> {
    let form = RegisterForm {
        forename: input.forename,
        surname: input.surname,
        email: input.email,
        password: input.password,
        organisation_name: input.organisation_name,
        postcode: input.postcode,
        org_type: input.org_type,
    };
    accounts::register(&ctx.state, form, ctx.client_address()).await?;
    Ok(Done::OK)
}
