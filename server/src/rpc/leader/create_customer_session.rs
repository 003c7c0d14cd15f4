//! `leader.createCustomerSession` → `{clientSecret, clientReferenceId}` for the Upgrade dialog's pricing table
//! (admins and org admins). The school's Stripe customer is created on first use (named
//! after the school, with the caller's e-mail and `metadata[school_id]`) and stored; the
//! secret is short-lived and never stored (stripe.md §1.1).

use crate::models::billing;
use crate::rpc::leader::billing::{require_billing, stripe_failure};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};

rpc_type! {
    pub struct CustomerSessionOutput {
        /// `customer-session-client-secret` of `<stripe-pricing-table>`.
        pub client_secret: String,
        /// `client-reference-id`: the school, copied to the Checkout Session so the
        /// `checkout.session.completed` event names it.
        pub client_reference_id: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<CustomerSessionOutput> {
    let (user, client) = require_billing(ctx)?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let school = billing::school(&mut pooled.db(), school_id)
        .await?
        .ok_or_else(|| RpcError::forbidden("No school"))?;
    drop(pooled);
    let customer = match school.stripe_customer_id {
        Some(customer) => customer,
        None => {
            // The same key for every first call of this school: concurrent first calls get
            // one customer from Stripe, not several.
            let key = format!("customer-{school_id}");
            let created = client
                .create_customer(&user.email, &school.name, school_id, &key)
                .await
                .map_err(stripe_failure)?;
            let mut pooled = ctx.conn().await?;
            billing::set_customer_if_absent(&mut pooled.db(), school_id, &created.id)
                .await?
                .unwrap_or(created.id)
        }
    };
    let session = client
        .create_customer_session(&customer)
        .await
        .map_err(stripe_failure)?;
    Ok(CustomerSessionOutput {
        client_secret: session.client_secret,
        client_reference_id: school_id.to_owned(),
    })
}
