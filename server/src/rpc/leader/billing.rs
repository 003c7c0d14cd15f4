//! What the billing procedures share (docs/billing.md): the Stripe client when billing is
//! on, a clear PRECONDITION_FAILED naming the settings when it is off, and Stripe's failures
//! turned into sentences (the detail goes to the log).

use core_wasm::UserRole;

use crate::models::users::User;
use crate::providers::stripe::{StripeClient, StripeError};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// Who may buy or manage the school's subscription (superadmins always pass).
pub const BILLING_ROLES: [UserRole; 2] = [UserRole::Admin, UserRole::OrgAdmin];

/// The message when billing is not configured.
pub const BILLING_OFF: &str = "Card payments are not switched on yet. To move your school to Pro, \
send us a message from Support and we will switch it for you.";

/// The caller (an admin of a school) and the Stripe client, or why not.
pub fn require_billing(ctx: &Ctx) -> RpcResult<(&User, &StripeClient)> {
    let user = ctx.require_role(&BILLING_ROLES)?;
    let client = ctx
        .state
        .providers
        .stripe
        .as_ref()
        .ok_or_else(|| RpcError::new(ErrorCode::PreconditionFailed, BILLING_OFF))?;
    Ok((user, client))
}

/// A Stripe failure as the user reads it.
pub fn stripe_failure(err: StripeError) -> RpcError {
    let detail = err.to_string();
    let (code, message) = match &err {
        StripeError::Api { status: 401, .. } => (
            ErrorCode::PreconditionFailed,
            // The operator's fix (the Stripe secret key) is in the log and on /setup.
            "Card payments are not working just now: the payment provider refused this \
             server's set-up. Please write to Support."
                .to_owned(),
        ),
        StripeError::Api { status, message, .. } if *status < 500 && *status != 429 => (
            ErrorCode::ServiceUnavailable,
            format!("The payment provider refused the request: {message}"),
        ),
        _ => (
            ErrorCode::ServiceUnavailable,
            "The payment provider is not answering just now. Please try again in a minute."
                .to_owned(),
        ),
    };
    RpcError {
        code,
        message,
        fields: None,
        detail: Some(detail),
    }
}
