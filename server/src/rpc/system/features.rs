//! `system.features`: which optional features this server is set up for, so the app can say
//! plainly when AI photo analysis, live dictation, autofill or card payments are not available (signed-in users).

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
        /// Card payments through Stripe are set up (docs/billing.md): the Upgrade dialog
        /// shows the pricing table and 'Manage subscription' opens the billing portal.
        pub billing: Option<BillingFeature>,
    }
}

rpc_type! {
    /// What the Upgrade dialog needs to embed the pricing table (all public by design).
    pub struct BillingFeature {
        pub publishable_key: String,
        pub pricing_table_id: String,
        /// Where `pricing-table.js` is loaded from.
        pub pricing_table_script_url: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Features> {
    ctx.require_user()?;
    let providers = &ctx.state.providers;
    Ok(Features {
        photo_analysis: providers.vision.is_some(),
        dictation: providers.speech.is_some(),
        chat: providers.chat.is_some(),
        billing: billing(ctx),
    })
}

/// Billing is on when the secret key, the publishable key and the pricing table are all set.
fn billing(ctx: &Ctx) -> Option<BillingFeature> {
    let stripe = ctx.state.config.stripe.as_ref()?;
    Some(BillingFeature {
        publishable_key: stripe.publishable_key.clone()?,
        pricing_table_id: stripe.pricing_table_id.clone()?,
        pricing_table_script_url: stripe.pricing_table_script_url.clone(),
    })
}
