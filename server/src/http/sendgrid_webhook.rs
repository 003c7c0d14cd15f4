//! `POST /api/webhooks/sendgrid`: SendGrid's Event Webhook (docs/bounces.md). Only signed
//! posts are read: the Signed Event Webhook's ECDSA P-256 signature
//! (`X-Twilio-Email-Event-Webhook-Signature`, base64 DER) over the
//! `X-Twilio-Email-Event-Webhook-Timestamp` header's value followed by the raw body, checked
//! with the verification key from `VOICEMARK_SENDGRID_WEBHOOK_PUBLIC_KEY` (base64 DER
//! SubjectPublicKeyInfo, as SendGrid's Mail Settings show it). Unsigned or badly signed
//! posts get 403 and change nothing; without a key the route answers 404 (the server does
//! not take SendGrid events at all). No same-origin check: SendGrid's servers are the
//! caller, and the signature is the proof.
//!
//! Events read: `bounce` with `type` `bounce` (hard: the address is refused and the delivery
//! Bounced) or `blocked` (Bounced with the reason, the address not refused), and `dropped`
//! with reason `Bounced Address` (as a hard bounce). The delivery is the `voicemark_delivery`
//! custom argument every notification e-mail carries (`X-SMTPAPI` unique_args); without it,
//! the deliveries sent to that address in the last 7 days and not yet bounced. Everything
//! else is acknowledged and ignored. A replayed post changes nothing more: a bounced
//! delivery keeps its first reason.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use base64::Engine;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use serde::Deserialize;

use crate::error::AppError;
use crate::mail::SENDGRID_DELIVERY_ARG;
use crate::models::bounces::{self, Bounce};
use crate::state::AppState;
use crate::transaction;

pub const SIGNATURE_HEADER: &str = "x-twilio-email-event-webhook-signature";
pub const TIMESTAMP_HEADER: &str = "x-twilio-email-event-webhook-timestamp";

/// The routes under `/api/webhooks`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/sendgrid", post(webhook))
}

/// Whether `signature` (base64 DER) signs `timestamp` + `body` under `public_key` (base64
/// DER SubjectPublicKeyInfo, P-256).
pub fn verify(public_key: &str, signature: &str, timestamp: &str, body: &[u8]) -> bool {
    let b64 = base64::engine::general_purpose::STANDARD;
    let Ok(der) = b64.decode(public_key.trim()) else {
        return false;
    };
    let Ok(key) = VerifyingKey::from_public_key_der(&der) else {
        return false;
    };
    let Ok(sig) = b64.decode(signature.trim()) else {
        return false;
    };
    let Ok(sig) = Signature::from_der(&sig) else {
        return false;
    };
    // Some signers emit the high-S form; it is the same signature.
    let sig = sig.normalize_s().unwrap_or(sig);
    let mut signed = Vec::with_capacity(timestamp.len() + body.len());
    signed.extend_from_slice(timestamp.as_bytes());
    signed.extend_from_slice(body);
    key.verify(&signed, &sig).is_ok()
}

#[derive(Debug, Deserialize)]
struct Event {
    #[serde(default)]
    email: String,
    #[serde(default)]
    event: String,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    timestamp: Option<i64>,
    /// SendGrid posts custom arguments as fields of the event.
    #[serde(default, rename = "voicemark_delivery")]
    delivery: Option<String>,
    /// Older posts nest them.
    #[serde(default)]
    unique_args: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Event {
    /// The bounce this event reports, if it is one.
    fn bounce(&self, now: chrono::NaiveDateTime) -> Option<Bounce> {
        let hard = match (self.event.as_str(), self.kind.as_deref()) {
            ("bounce", Some("blocked")) => false,
            ("bounce", _) => true,
            ("dropped", _) if self.reason.as_deref() == Some("Bounced Address") => true,
            _ => return None,
        };
        if !self.email.contains('@') {
            return None;
        }
        let reason = match (self.status.as_deref(), self.reason.as_deref()) {
            (_, Some(r)) if !r.trim().is_empty() => r.trim().to_owned(),
            (Some(s), _) => s.to_owned(),
            _ => "Bounced (SendGrid gave no reason)".to_owned(),
        };
        let delivery_id = self.delivery.clone().or_else(|| {
            self.unique_args
                .as_ref()
                .and_then(|a| a.get(SENDGRID_DELIVERY_ARG))
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        });
        let at = self
            .timestamp
            .and_then(|t| chrono::DateTime::from_timestamp(t, 0))
            .map(|t| t.naive_utc())
            .filter(|t| *t <= now)
            .unwrap_or(now);
        Some(Bounce {
            address: self.email.clone(),
            delivery_id,
            hard,
            reason: reason.chars().take(1000).collect(),
            at,
        })
    }
}

async fn webhook(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let Some(key) = state.config.bounces.sendgrid_public_key.as_deref() else {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let (signature, timestamp) = (header(SIGNATURE_HEADER), header(TIMESTAMP_HEADER));
    if signature.is_empty() || timestamp.is_empty() || !verify(key, signature, timestamp, &body)
    {
        tracing::warn!("sendgrid webhook: refused a post without a valid signature");
        return (StatusCode::FORBIDDEN, "Forbidden").into_response();
    }
    let Ok(events) = serde_json::from_slice::<Vec<serde_json::Value>>(&body) else {
        return (StatusCode::BAD_REQUEST, "Bad request").into_response();
    };
    let now = crate::models::now();
    let reported: Vec<Bounce> = events
        .into_iter()
        .filter_map(|e| serde_json::from_value::<Event>(e).ok())
        .filter_map(|e| e.bounce(now))
        .collect();
    if reported.is_empty() {
        return StatusCode::OK.into_response();
    }
    let mut pooled = match state.db.conn().await {
        Ok(pooled) => pooled,
        // SendGrid retries anything but a 2xx: a busy database only delays the events.
        Err(err) => return AppError::from(err).into_response(),
    };
    let mut conn = pooled.db();
    let recorded: Result<(usize, usize), diesel::result::Error> = transaction!(&mut conn, |c| {
        let (mut bounced, mut refused) = (0, 0);
        for bounce in &reported {
            let r = bounces::record(c, bounce).await?;
            bounced += r.bounced;
            refused += usize::from(r.refused);
        }
        Ok((bounced, refused))
    });
    match recorded {
        Ok((bounced, refused)) => {
            tracing::info!(events = reported.len(), bounced, refused, "sendgrid webhook");
            StatusCode::OK.into_response()
        }
        Err(err) => AppError::from(err).into_response(),
    }
}
