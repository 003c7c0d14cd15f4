//! `stripe.event` `{eventId}`: applies one stored Stripe webhook event (docs/billing.md).
//! `POST /api/stripe/webhook` verifies and stores the event, then queues this job in the
//! same transaction (keyed by the event id), so a redelivered event is neither stored nor
//! applied twice.
//!
//! - `checkout.session.completed`: `client_reference_id` names the school; its `customer`
//!   becomes the school's customer when it has none, and the subscription is read back from
//!   Stripe and applied.
//! - `customer.subscription.created` / `.updated` / `.deleted`: the school whose customer it
//!   is (or `metadata.school_id`) gets the subscription id, the plan item's product and its
//!   quantity as seats; deleted, or not paid for (`status` other than active, trialing,
//!   past_due), clears the product (Basic). An event older than the school's
//!   `subscription_last_updated_at` changes nothing (Stripe's delivery is unordered). An
//!   event of the same second as that state cannot be ordered by `created` (whole
//!   seconds), so the subscription is read back from Stripe and its current state applied;
//!   without billing configured, the later arrival wins.
//! - anything else is recorded and ignored.

use chrono::{DateTime, NaiveDateTime};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::billing::{self, SubscriptionState};
use crate::providers::stripe::{StripeError, Subscription};
use crate::state::AppState;
use crate::transaction;

/// The event types this job changes anything for.
pub const HANDLED: [&str; 4] = [
    "checkout.session.completed",
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyStripeEvent {
    pub event_id: String,
}

/// Queues the event's job (once per event id), in the caller's transaction.
pub async fn queue(conn: &mut DbConn<'_>, event_id: &str) -> diesel::result::QueryResult<()> {
    let key = format!("{}:{event_id}", ApplyStripeEvent::KIND);
    let job = ApplyStripeEvent {
        event_id: event_id.to_owned(),
    };
    enqueue(conn, &job, crate::models::now(), Some(key)).await?;
    Ok(())
}

impl BackgroundJob for ApplyStripeEvent {
    const KIND: &'static str = "stripe.event";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let Some(event) = billing::find_event(&mut conn, &self.event_id).await? else {
            return Err(JobError::Permanent(format!("no stored event {}", self.event_id)));
        };
        if event.processed_at.is_some() {
            return Ok(());
        }
        let body: Value = serde_json::from_str(&event.payload)
            .map_err(|e| JobError::Permanent(format!("stored event is not JSON: {e}")))?;
        let object = &body["data"]["object"];
        let change = match event.kind.as_str() {
            "checkout.session.completed" => checkout_completed(state, &mut conn, object, event.created).await?,
            "customer.subscription.created" | "customer.subscription.updated" => {
                let subscription = read_subscription(object)?;
                subscription_change(state, &mut conn, &subscription, false, event.created).await?
            }
            "customer.subscription.deleted" => {
                let subscription = read_subscription(object)?;
                subscription_change(state, &mut conn, &subscription, true, event.created).await?
            }
            _ => None,
        };
        let event_id = event.id.clone();
        let applied: Result<bool, diesel::result::Error> = transaction!(&mut conn, |c| {
            let applied = match &change {
                Some((school_id, state)) => billing::apply_subscription(c, school_id, state).await?,
                None => false,
            };
            billing::mark_processed(c, &event_id).await?;
            Ok(applied)
        });
        let applied = applied?;
        if change.is_some() && !applied {
            tracing::info!(event = %event.id, kind = %event.kind, "older than the school's subscription state: ignored");
        }
        Ok(())
    }
}

fn read_subscription(object: &Value) -> Result<Subscription, JobError> {
    serde_json::from_value(object.clone())
        .map_err(|e| JobError::Permanent(format!("not a subscription object: {e}")))
}

fn stripe_error(err: StripeError) -> JobError {
    if err.is_transient() {
        JobError::Retry(err.to_string())
    } else {
        JobError::Permanent(err.to_string())
    }
}

/// `checkout.session.completed`: links the school named by `client_reference_id` to the
/// customer, then reads the subscription back (the current state, so it is written as of
/// now at the latest of the event's time and the school's last update).
async fn checkout_completed(
    state: &AppState,
    conn: &mut DbConn<'_>,
    object: &Value,
    created: NaiveDateTime,
) -> Result<Option<(String, SubscriptionState)>, JobError> {
    if object["mode"].as_str() != Some("subscription") {
        return Ok(None);
    }
    let (Some(school_id), Some(customer)) = (
        object["client_reference_id"].as_str(),
        id_of(&object["customer"]),
    ) else {
        tracing::warn!("checkout.session.completed without a school or a customer: ignored");
        return Ok(None);
    };
    let Some(school) = billing::school(conn, school_id).await? else {
        tracing::warn!(%school_id, "checkout.session.completed for an unknown school: ignored");
        return Ok(None);
    };
    billing::set_customer_if_absent(conn, &school.id, &customer).await?;
    let Some(subscription_id) = id_of(&object["subscription"]) else {
        return Ok(None);
    };
    let Some(client) = state.providers.stripe.as_ref() else {
        return Ok(None);
    };
    let subscription = client
        .retrieve_subscription(&subscription_id)
        .await
        .map_err(stripe_error)?;
    let at = school
        .subscription_last_updated_at
        .map_or(created, |last| last.max(created));
    Ok(Some((
        school.id,
        state_of(state, &subscription, false, at),
    )))
}

/// `customer.subscription.*`: the school of the subscription's customer (or of its
/// `metadata.school_id`) and the state to write.
async fn subscription_change(
    state: &AppState,
    conn: &mut DbConn<'_>,
    subscription: &Subscription,
    deleted: bool,
    created: NaiveDateTime,
) -> Result<Option<(String, SubscriptionState)>, JobError> {
    let school = match billing::school_of_customer(conn, &subscription.customer).await? {
        Some(school) => Some(school),
        None => match subscription.metadata.get("school_id").and_then(Value::as_str) {
            Some(id) => billing::school(conn, id).await?,
            None => None,
        },
    };
    let Some(school) = school else {
        // The checkout's event (which links the customer) may not have been applied yet.
        return Err(JobError::Retry(format!(
            "no school has the Stripe customer {} yet",
            subscription.customer
        )));
    };
    if school.subscription_last_updated_at == Some(created) {
        if let Some(client) = state.providers.stripe.as_ref() {
            // Two events of one second: which is newer is unknown, so ask Stripe for now.
            return match client.retrieve_subscription(&subscription.id).await {
                Ok(current) => Ok(Some((school.id, state_of(state, &current, false, created)))),
                Err(StripeError::Api { status: 404, .. }) => {
                    Ok(Some((school.id, state_of(state, subscription, true, created))))
                }
                Err(err) => Err(stripe_error(err)),
            };
        }
    }
    Ok(Some((school.id, state_of(state, subscription, deleted, created))))
}

/// What a subscription means for its school.
fn state_of(
    state: &AppState,
    subscription: &Subscription,
    deleted: bool,
    at: NaiveDateTime,
) -> SubscriptionState {
    let products = &state.config.products;
    let known: Vec<&str> = [&products.pro, &products.enterprise, &products.basic]
        .into_iter()
        .filter_map(|p| p.as_deref())
        .collect();
    let item = (!deleted && subscription.is_entitled())
        .then(|| subscription.plan_item(&known))
        .flatten();
    SubscriptionState {
        customer_id: subscription.customer.clone(),
        subscription_id: (!deleted).then(|| subscription.id.clone()),
        product_id: item.map(|i| i.price.product.clone()),
        seats: item
            .and_then(|i| i.quantity)
            .map(|q| q.clamp(0, i64::from(i32::MAX)) as i32),
        at,
    }
}

/// An expandable field's id (a string, or an object with `id`).
fn id_of(value: &Value) -> Option<String> {
    match value {
        Value::String(id) if !id.is_empty() => Some(id.clone()),
        Value::Object(map) => map.get("id").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

/// The event's `created` (unix seconds) as a time, if it is one.
pub fn created_at(seconds: i64) -> Option<NaiveDateTime> {
    DateTime::from_timestamp(seconds, 0).map(|t| t.naive_utc())
}
