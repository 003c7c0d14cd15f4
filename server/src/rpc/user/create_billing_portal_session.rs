//! `user.createBillingPortalSession {returnPath}` → `{url}`: 'Manage subscription' opens
//! Stripe's billing portal for the school's customer, created on click (the URL is
//! short-lived), coming back to `public URL + returnPath` (stripe.md §3). Admins and org
//! admins only: the portal changes what the whole school pays.

use crate::models::billing;
use crate::rpc::leader::billing::{require_billing, stripe_failure};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The longest return path accepted.
const MAX_PATH: usize = 500;

rpc_type! {
    pub struct BillingPortalInput {
        /// Where the portal's "Return" leads: a path of this site, e.g. `/leaders/tasks`.
        pub return_path: String,
    }
}

rpc_type! {
    pub struct BillingPortalOutput {
        pub url: String,
    }
}

pub async fn handler(ctx: &Ctx, input: BillingPortalInput) -> RpcResult<BillingPortalOutput> {
    let (_user, client) = require_billing(ctx)?;
    let path = input.return_path.trim();
    if !path.starts_with('/')
        || path.starts_with("//")
        || path.len() > MAX_PATH
        || path.chars().any(|c| c.is_control() || c == '\\')
    {
        return Err(RpcError::field("returnPath", "Must be a path of this site, starting with /."));
    }
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let customer = billing::school(&mut pooled.db(), school_id)
        .await?
        .and_then(|s| s.stripe_customer_id)
        .ok_or_else(|| {
            RpcError::new(
                ErrorCode::PreconditionFailed,
                "Your school has no subscription with the payment provider yet: choose a plan under Upgrade to Pro first.",
            )
        })?;
    drop(pooled);
    let return_url = format!("{}{path}", ctx.state.config.public_url.trim_end_matches('/'));
    let session = client
        .create_portal_session(&customer, &return_url)
        .await
        .map_err(stripe_failure)?;
    Ok(BillingPortalOutput { url: session.url })
}
