//! `POST /api/stripe/webhook`: Stripe's events (docs/billing.md). The raw body's
//! `Stripe-Signature` is checked first (v1, 300 s tolerance, any of the configured secrets);
//! anything else is a bare 400 that says nothing about why. A verified event is stored once
//! by its id and its job queued in the same transaction (`jobs::stripe_event`), and Stripe
//! gets its 200 straight away; a redelivered event answers 200 and changes nothing.
//! No same-origin check: Stripe's servers are the caller, and the signature is the proof.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::error::AppError;
use crate::jobs::stripe_event::{self, created_at, HANDLED};
use crate::models::billing;
use crate::providers::stripe::verify_signature;
use crate::state::AppState;
use crate::transaction;

/// The longest event id stored (Stripe's are about 30 characters).
const MAX_ID_LEN: usize = 255;

/// The routes under `/api/stripe`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/webhook", post(webhook))
}

/// The one answer for every refused event.
fn refused() -> Response {
    (StatusCode::BAD_REQUEST, "Bad request").into_response()
}

#[derive(Deserialize)]
struct Envelope {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    created: i64,
}

async fn webhook(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let Some(stripe) = state.config.stripe.as_ref() else {
        return refused();
    };
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let now = chrono::Utc::now().timestamp();
    if !verify_signature(signature, &body, &stripe.webhook_secrets, now) {
        return refused();
    }
    let Ok(text) = std::str::from_utf8(&body) else {
        return refused();
    };
    let Ok(event) = serde_json::from_str::<Envelope>(text) else {
        return refused();
    };
    let Some(created) = created_at(event.created) else {
        return refused();
    };
    if event.id.is_empty()
        || event.id.len() > MAX_ID_LEN
        || text.contains('\0')
        || event.kind.len() > MAX_ID_LEN
    {
        return refused();
    }
    let mut pooled = match state.db.conn().await {
        Ok(pooled) => pooled,
        // Stripe retries anything but a 2xx: a busy database only delays the event.
        Err(err) => return AppError::from(err).into_response(),
    };
    let mut conn = pooled.db();
    let stored: Result<bool, diesel::result::Error> = transaction!(&mut conn, |c| {
        let new = billing::insert_event(c, &event.id, &event.kind, created, text).await?;
        if new {
            if HANDLED.contains(&event.kind.as_str()) {
                stripe_event::queue(c, &event.id).await?;
            } else {
                billing::mark_processed(c, &event.id).await?;
            }
        }
        Ok(new)
    });
    match stored {
        Ok(new) => {
            tracing::info!(event = %event.id, kind = %event.kind, duplicate = !new, "stripe webhook");
            Json(json!({ "received": true })).into_response()
        }
        Err(err) => AppError::from(err).into_response(),
    }
}
