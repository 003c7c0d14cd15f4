//! Stripe's REST API (stripe.md §0): form-encoded bodies with bracketed keys,
//! `Authorization: Bearer <secret key>`, an `Idempotency-Key` on every POST, JSON answers and
//! Stripe's error objects mapped to [`StripeError`]. Only what billing needs: a customer per
//! school, a customer session for the pricing table, a billing portal session, and a
//! subscription read back. Also the webhook's signature check (stripe.md §4.1), a pure
//! function so the route and its tests share it. Settings: `config::stripe`, docs/billing.md.

use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use crate::config::StripeConfig;
use crate::metrics::SendTimed as _;
use crate::crypto::{constant_time_eq, hmac_sha256};

/// Every Stripe call is one small request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// How old a webhook's signed timestamp may be (stripe-node's `DEFAULT_TOLERANCE`).
pub const WEBHOOK_TOLERANCE_SECONDS: i64 = 300;

/// Why a Stripe call failed. `Display` is for the log (never carries the key).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StripeError {
    /// Stripe answered with its error object (`{"error":{"type","code","message","param"}}`).
    #[error("Stripe answered {status} ({kind}{}): {message}", code.as_deref().map(|c| format!(", {c}")).unwrap_or_default())]
    Api {
        status: u16,
        /// `invalid_request_error`, `api_error`, `card_error`, `idempotency_error`, ...
        kind: String,
        code: Option<String>,
        message: String,
        param: Option<String>,
    },
    /// No connection, or it broke before an answer.
    #[error("could not reach Stripe: {0}")]
    Unreachable(String),
    /// No answer within [`REQUEST_TIMEOUT`].
    #[error("Stripe did not answer in time")]
    TimedOut,
    /// A success status with a body of no shape we know.
    #[error("Stripe's answer could not be read: {0}")]
    Malformed(String),
}

impl StripeError {
    fn from_reqwest(err: reqwest::Error) -> StripeError {
        match super::ProviderError::from_reqwest(err) {
            super::ProviderError::TimedOut => StripeError::TimedOut,
            other => StripeError::Unreachable(other.to_string()),
        }
    }

    /// Whether trying again later may succeed (network trouble, 429, 5xx).
    pub fn is_transient(&self) -> bool {
        match self {
            StripeError::Api { status, .. } => *status == 429 || *status >= 500,
            StripeError::Unreachable(_) | StripeError::TimedOut => true,
            StripeError::Malformed(_) => false,
        }
    }
}

/// A client for the configured Stripe account, reused for every call.
#[derive(Clone)]
pub struct StripeClient {
    http: reqwest::Client,
    api_url: String,
    secret_key: String,
}

impl std::fmt::Debug for StripeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeClient")
            .field("api_url", &self.api_url)
            .field("secret_key", &"<set>")
            .finish()
    }
}

/// `POST /v1/customers`'s answer (the fields used).
#[derive(Debug, Clone, Deserialize)]
pub struct Customer {
    pub id: String,
}

/// `POST /v1/customer_sessions`'s answer: the secret the pricing table takes. Short-lived:
/// never stored or logged.
#[derive(Clone, Deserialize)]
pub struct CustomerSession {
    pub client_secret: String,
    #[serde(default)]
    pub expires_at: Option<i64>,
}

impl std::fmt::Debug for CustomerSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomerSession")
            .field("client_secret", &"<secret>")
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// `POST /v1/billing_portal/sessions`'s answer: where to send the browser.
#[derive(Debug, Clone, Deserialize)]
pub struct PortalSession {
    pub url: String,
}

/// A subscription as billing reads it (stripe.md §4.3).
#[derive(Debug, Clone, Deserialize)]
pub struct Subscription {
    pub id: String,
    /// `cus_…` (a string unless expanded).
    #[serde(deserialize_with = "id_or_object")]
    pub customer: String,
    pub status: String,
    #[serde(default)]
    pub metadata: serde_json::Map<String, Value>,
    pub items: SubscriptionItems,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SubscriptionItems {
    #[serde(default)]
    pub data: Vec<SubscriptionItem>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SubscriptionItem {
    #[serde(default)]
    pub quantity: Option<i64>,
    pub price: Price,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Price {
    /// `prod_…` (a string unless expanded).
    #[serde(deserialize_with = "id_or_object")]
    pub product: String,
}

/// An expandable field: the id itself, or the expanded object's `id`.
fn id_or_object<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(id) => Ok(id),
        Value::Object(map) => match map.get("id") {
            Some(Value::String(id)) => Ok(id.clone()),
            _ => Err(serde::de::Error::custom("an expanded object without an id")),
        },
        _ => Err(serde::de::Error::custom("expected an id or an object")),
    }
}

impl Subscription {
    /// Whether the subscription gives its plan now: `active` or `trialing`, and `past_due`
    /// as a grace period while Stripe retries the payment (docs/billing.md).
    pub fn is_entitled(&self) -> bool {
        matches!(self.status.as_str(), "active" | "trialing" | "past_due")
    }

    /// The item that decides the plan: the first whose product is one of `known` (the
    /// configured plan products), else the first item.
    pub fn plan_item(&self, known: &[&str]) -> Option<&SubscriptionItem> {
        self.items
            .data
            .iter()
            .find(|item| known.contains(&item.price.product.as_str()))
            .or_else(|| self.items.data.first())
    }
}

impl StripeClient {
    pub fn new(config: &StripeConfig) -> Result<StripeClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(StripeClient {
            http,
            api_url: config.api_url.trim_end_matches('/').to_owned(),
            secret_key: config.secret_key.clone(),
        })
    }

    /// `POST /v1/customers` with the school's name, the admin's e-mail and
    /// `metadata[school_id]`. `idempotency_key` makes a retried call return the same customer.
    pub async fn create_customer(
        &self,
        email: &str,
        name: &str,
        school_id: &str,
        idempotency_key: &str,
    ) -> Result<Customer, StripeError> {
        let form = [
            ("email", email),
            ("name", name),
            ("metadata[school_id]", school_id),
        ];
        self.post("/v1/customers", &form, idempotency_key).await
    }

    /// `POST /v1/customer_sessions` enabling the pricing table for `customer`.
    pub async fn create_customer_session(
        &self,
        customer: &str,
    ) -> Result<CustomerSession, StripeError> {
        let form = [
            ("customer", customer),
            ("components[pricing_table][enabled]", "true"),
        ];
        self.post("/v1/customer_sessions", &form, &crate::ids::new_id())
            .await
    }

    /// `POST /v1/billing_portal/sessions` for `customer`, coming back to `return_url`.
    pub async fn create_portal_session(
        &self,
        customer: &str,
        return_url: &str,
    ) -> Result<PortalSession, StripeError> {
        let form = [("customer", customer), ("return_url", return_url)];
        self.post("/v1/billing_portal/sessions", &form, &crate::ids::new_id())
            .await
    }

    /// `GET /v1/subscriptions/{id}`.
    pub async fn retrieve_subscription(&self, id: &str) -> Result<Subscription, StripeError> {
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(StripeError::Malformed(format!("not a subscription id: {id:?}")));
        }
        let response = self
            .http
            .get(format!("{}/v1/subscriptions/{id}", self.api_url))
            .bearer_auth(&self.secret_key)
            .send_timed("stripe")
            .await
            .map_err(StripeError::from_reqwest)?;
        read(response).await
    }

    async fn post<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        form: &[(&str, &str)],
        idempotency_key: &str,
    ) -> Result<T, StripeError> {
        let response = self
            .http
            .post(format!("{}{path}", self.api_url))
            .bearer_auth(&self.secret_key)
            .header("Idempotency-Key", idempotency_key)
            .form(form)
            .send_timed("stripe")
            .await
            .map_err(StripeError::from_reqwest)?;
        read(response).await
    }
}

/// A success body as `T`, or Stripe's error object as [`StripeError::Api`].
async fn read<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
) -> Result<T, StripeError> {
    let status = response.status();
    let body = response.bytes().await.map_err(StripeError::from_reqwest)?;
    if status.is_success() {
        return serde_json::from_slice(&body).map_err(|e| StripeError::Malformed(e.to_string()));
    }
    #[derive(Deserialize)]
    struct Envelope {
        error: ErrorObject,
    }
    #[derive(Deserialize)]
    struct ErrorObject {
        #[serde(rename = "type", default)]
        kind: Option<String>,
        #[serde(default)]
        code: Option<String>,
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        param: Option<String>,
    }
    let parsed: Option<ErrorObject> = serde_json::from_slice::<Envelope>(&body)
        .ok()
        .map(|e| e.error);
    let text: String = String::from_utf8_lossy(&body).chars().take(300).collect();
    Err(match parsed {
        Some(e) => StripeError::Api {
            status: status.as_u16(),
            kind: e.kind.unwrap_or_else(|| "api_error".into()),
            code: e.code,
            message: e.message.unwrap_or_default(),
            param: e.param,
        },
        None => StripeError::Api {
            status: status.as_u16(),
            kind: "api_error".into(),
            code: None,
            message: text,
            param: None,
        },
    })
}

// ---------------------------------------------------------------------------------------
// Webhook signatures (stripe.md §4.1)

/// Whether `header` (`Stripe-Signature`) signs `body` with one of `secrets` at a time no
/// older than [`WEBHOOK_TOLERANCE_SECONDS`] before `now` (unix seconds). Only `v1` entries
/// count (several are allowed); each is compared in constant time.
pub fn verify_signature(header: &str, body: &[u8], secrets: &[String], now: i64) -> bool {
    let mut timestamp: Option<&str> = None;
    let mut signatures: Vec<[u8; 32]> = Vec::new();
    for part in header.split(',') {
        let Some((key, value)) = part.trim().split_once('=') else {
            continue;
        };
        match key {
            "t" => timestamp = Some(value),
            "v1" => {
                let mut bytes = [0u8; 32];
                if hex::decode_to_slice(value, &mut bytes).is_ok() {
                    signatures.push(bytes);
                }
            }
            _ => {}
        }
    }
    let Some(t) = timestamp else {
        return false;
    };
    let Ok(seconds) = t.parse::<i64>() else {
        return false;
    };
    if signatures.is_empty() || now.saturating_sub(seconds) > WEBHOOK_TOLERANCE_SECONDS {
        return false;
    }
    let mut message = Vec::with_capacity(t.len() + 1 + body.len());
    message.extend_from_slice(t.as_bytes());
    message.push(b'.');
    message.extend_from_slice(body);
    let mut valid = false;
    for secret in secrets {
        let expected = hmac_sha256(secret.as_bytes(), &message);
        for signature in &signatures {
            // No early exit: every pair is compared, each in constant time.
            valid |= constant_time_eq(&expected, signature);
        }
    }
    valid
}

/// The `Stripe-Signature` header for `body` at `t` with `secret` (tests and the load
/// program sign events the way Stripe does).
pub fn sign(body: &[u8], secret: &str, t: i64) -> String {
    let mut message = format!("{t}.").into_bytes();
    message.extend_from_slice(body);
    format!("t={t},v1={}", hex::encode(hmac_sha256(secret.as_bytes(), &message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_5f3c9b2e7a1d4e8f9a0b1c2d3e4f5a6b";
    const PAYLOAD: &str =
        r#"{"id":"evt_1PZz","object":"event","type":"customer.subscription.updated"}"#;
    const HEADER: &str =
        "t=1717000000,v1=547e98a45e0778c353e9cd8b0f6b07f5d9c2fa2d9762540bc08f253ab394d5c2";

    #[test]
    fn the_reference_vector_signs_and_verifies() {
        assert_eq!(sign(PAYLOAD.as_bytes(), SECRET, 1_717_000_000), HEADER);
        let secrets = vec![SECRET.to_owned()];
        assert!(verify_signature(HEADER, PAYLOAD.as_bytes(), &secrets, 1_717_000_100));
        // Too old for the current clock, as stripe-node says.
        assert!(!verify_signature(HEADER, PAYLOAD.as_bytes(), &secrets, 1_717_000_301));
    }

    #[test]
    fn malformed_headers_fail() {
        let secrets = vec![SECRET.to_owned()];
        for header in ["", "t=", "v1=00", "t=abc,v1=00", "t=1717000000", "t=1717000000,v0=547e98"] {
            assert!(!verify_signature(header, PAYLOAD.as_bytes(), &secrets, 1_717_000_000));
        }
        assert!(!verify_signature(HEADER, PAYLOAD.as_bytes(), &[], 1_717_000_000));
    }
}
