//! Stripe's settings (`VOICEMARK_STRIPE_*`): docs/billing.md. Billing is on only when the
//! secret key is set; without it the upgrade controls say how to get Pro instead.

use super::{http_base_url, ConfigError};

/// Stripe: the REST API (customers, customer sessions, billing portal, subscriptions),
/// the pricing table shown in the Upgrade dialog and the signed webhook.
#[derive(Clone)]
pub struct StripeConfig {
    /// `VOICEMARK_STRIPE_SECRET_KEY`: the Bearer key for the REST API.
    pub secret_key: String,
    /// `VOICEMARK_STRIPE_PUBLISHABLE_KEY`: given to the pricing table (public by design).
    pub publishable_key: Option<String>,
    /// `VOICEMARK_STRIPE_PRICING_TABLE_ID`.
    pub pricing_table_id: Option<String>,
    /// `VOICEMARK_STRIPE_WEBHOOK_SECRET`: one or more `whsec_...` secrets, comma-separated
    /// (several while a secret is rotated); `POST /api/stripe/webhook` refuses every event
    /// when none is set.
    pub webhook_secrets: Vec<String>,
    /// `VOICEMARK_STRIPE_API_URL`, default `https://api.stripe.com` (a proxy or a test server).
    pub api_url: String,
    /// `VOICEMARK_STRIPE_PRICING_TABLE_SCRIPT_URL`, default
    /// `https://js.stripe.com/v3/pricing-table.js` (tests serve a local stand-in).
    pub pricing_table_script_url: String,
}

/// The payment product of each plan (`VOICEMARK_STRIPE_PRODUCT_BASIC`, `_PRO`,
/// `_ENTERPRISE`): read even without a secret key, since a school's plan is decided from its
/// product id (spec section 4) whether or not billing is on.
#[derive(Debug, Clone, Default)]
pub struct StripeProducts {
    pub basic: Option<String>,
    pub pro: Option<String>,
    pub enterprise: Option<String>,
}

impl std::fmt::Debug for StripeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeConfig")
            .field("secret_key", &"<set>")
            .field("publishable_key", &self.publishable_key)
            .field("pricing_table_id", &self.pricing_table_id)
            .field("webhook_secrets", &self.webhook_secrets.len())
            .field("api_url", &self.api_url)
            .field("pricing_table_script_url", &self.pricing_table_script_url)
            .finish()
    }
}

/// The Stripe settings; `None` (billing off) without a secret key.
pub(super) fn stripe_config(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<StripeConfig>, ConfigError> {
    let Some(secret_key) = get("VOICEMARK_STRIPE_SECRET_KEY").filter(|k| !k.trim().is_empty())
    else {
        return Ok(None);
    };
    Ok(Some(StripeConfig {
        secret_key: secret_key.trim().to_owned(),
        publishable_key: get("VOICEMARK_STRIPE_PUBLISHABLE_KEY"),
        pricing_table_id: get("VOICEMARK_STRIPE_PRICING_TABLE_ID"),
        webhook_secrets: get("VOICEMARK_STRIPE_WEBHOOK_SECRET")
            .map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        api_url: http_base_url(
            "VOICEMARK_STRIPE_API_URL",
            get("VOICEMARK_STRIPE_API_URL").unwrap_or_else(|| "https://api.stripe.com".into()),
        )?,
        pricing_table_script_url: get("VOICEMARK_STRIPE_PRICING_TABLE_SCRIPT_URL")
            .unwrap_or_else(|| "https://js.stripe.com/v3/pricing-table.js".into()),
    }))
}

/// The three plans' product ids.
pub(super) fn stripe_products(get: &impl Fn(&str) -> Option<String>) -> StripeProducts {
    let product = |name: &str| get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    StripeProducts {
        basic: product("VOICEMARK_STRIPE_PRODUCT_BASIC"),
        pro: product("VOICEMARK_STRIPE_PRODUCT_PRO"),
        enterprise: product("VOICEMARK_STRIPE_PRODUCT_ENTERPRISE"),
    }
}
