//! `microsoft.status`: whether Microsoft 365 is set up on this server and whether the caller
//! has connected their account, so the content step offers 'Connect Microsoft account' or
//! says plainly what is missing. The tokens never leave the server.

use super::staff;
use crate::microsoft_graph::{self, MICROSOFT_NOT_SET_UP};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};

rpc_type! {
    pub struct MicrosoftStatus {
        /// The server has a Microsoft app registration.
        pub configured: bool,
        /// The caller has connected an account with Graph access.
        pub connected: bool,
        /// Without configuration: what to set.
        pub setup: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<MicrosoftStatus> {
    let user = staff(ctx)?;
    let configured = ctx.state.providers.microsoft.is_some();
    let connected = configured
        && microsoft_graph::is_connected(&ctx.state, &user.id)
            .await
            .map_err(|err| RpcError::internal(err.to_string()))?;
    Ok(MicrosoftStatus {
        configured,
        connected,
        setup: (!configured).then(|| MICROSOFT_NOT_SET_UP.to_owned()),
    })
}
