//! `system.time`: the server's clock next to the client's (public; proves Dates round-trip).

use chrono::Utc;

use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct SystemTimeInput {
        pub client_time: JsDate,
    }
}

rpc_type! {
    pub struct SystemTimeOutput {
        pub client_time: JsDate,
        pub server_time: JsDate,
    }
}

pub async fn handler(_ctx: &Ctx, input: SystemTimeInput) -> RpcResult<SystemTimeOutput> {
    Ok(SystemTimeOutput {
        client_time: input.client_time,
        server_time: JsDate(Utc::now()),
    })
}
