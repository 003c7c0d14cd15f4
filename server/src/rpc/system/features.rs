//! `system.features`: which optional features this server is set up for, so the app can say
//! plainly when AI photo analysis, live dictation or autofill is not available (signed-in users).

use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct Features {
        /// `notification.analyseImage` has a vision provider.
        pub photo_analysis: bool,
        /// `submission.getDeepgramKey` has a speech provider.
        pub dictation: bool,
        /// Autofill and AI Formatting of a task's answers have a chat provider.
        pub chat: bool,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Features> {
    ctx.require_user()?;
    let providers = &ctx.state.providers;
    Ok(Features {
        photo_analysis: providers.vision.is_some(),
        dictation: providers.speech.is_some(),
        chat: providers.chat.is_some(),
    })
}
