//! `system.support`: where people write for help (`VOICEMARK_SUPPORT_EMAIL`). Public: the
//! sign-in page shows it in the AccountDisabled text after a disabled user was signed out,
//! so it cannot sit behind a session like `system.features`.

use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct Support {
        /// The support address, as configured (default `support@voicemark.app`).
        pub email: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Support> {
    Ok(Support {
        email: ctx.state.config.support_email.clone(),
    })
}
