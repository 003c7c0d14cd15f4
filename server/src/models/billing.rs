//! Billing's SQL (docs/billing.md): the Stripe webhook events received (`stripe_events`,
//! one row per event id) and a school's subscription columns (`schools.stripe_*`, `seats`,
//! `subscription_last_updated_at`).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{schools, stripe_events};
use crate::db::DbConn;
use crate::models::now;
use crate::with_conn;

/// A stored webhook event.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = stripe_events)]
pub struct StripeEvent {
    pub id: String,
    #[diesel(column_name = type_)]
    pub kind: String,
    pub created: NaiveDateTime,
    pub payload: String,
    pub received_at: NaiveDateTime,
    pub processed_at: Option<NaiveDateTime>,
}

/// Stores an event unless one with its id is already there; `true` when it was new.
pub async fn insert_event(
    conn: &mut DbConn<'_>,
    id: &str,
    kind: &str,
    created: NaiveDateTime,
    payload: &str,
) -> QueryResult<bool> {
    let inserted = with_conn!(conn, |c| diesel::insert_into(stripe_events::table)
        .values((
            stripe_events::id.eq(id),
            stripe_events::type_.eq(kind),
            stripe_events::created.eq(created),
            stripe_events::payload.eq(payload),
            stripe_events::received_at.eq(now()),
        ))
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    Ok(inserted == 1)
}

pub async fn find_event(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<StripeEvent>> {
    with_conn!(conn, |c| stripe_events::table
        .find(id)
        .select(StripeEvent::as_select())
        .first(c)
        .await
        .optional())
}

/// Records that the event was applied (or deliberately skipped).
pub async fn mark_processed(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(stripe_events::table.find(id))
        .set(stripe_events::processed_at.eq(Some(now())))
        .execute(c)
        .await)?;
    Ok(())
}

/// A school as billing needs it.
#[derive(Debug, Clone, Queryable)]
pub struct BillingSchool {
    pub id: String,
    pub name: String,
    pub stripe_customer_id: Option<String>,
    pub subscription_last_updated_at: Option<NaiveDateTime>,
}

fn billing_columns() -> (
    schools::id,
    schools::name,
    schools::stripe_customer_id,
    schools::subscription_last_updated_at,
) {
    (
        schools::id,
        schools::name,
        schools::stripe_customer_id,
        schools::subscription_last_updated_at,
    )
}

pub async fn school(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Option<BillingSchool>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(billing_columns())
        .first(c)
        .await
        .optional())
}

/// The school whose Stripe customer is `customer_id`.
pub async fn school_of_customer(
    conn: &mut DbConn<'_>,
    customer_id: &str,
) -> QueryResult<Option<BillingSchool>> {
    with_conn!(conn, |c| schools::table
        .filter(schools::stripe_customer_id.eq(customer_id))
        .select(billing_columns())
        .first(c)
        .await
        .optional())
}

/// Stores the school's customer when it has none yet; returns the customer it has now
/// (the first one stored wins a race).
pub async fn set_customer_if_absent(
    conn: &mut DbConn<'_>,
    school_id: &str,
    customer_id: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| diesel::update(
        schools::table
            .find(school_id)
            .filter(schools::stripe_customer_id.is_null())
    )
    .set((
        schools::stripe_customer_id.eq(customer_id),
        schools::updated_at.eq(now()),
    ))
    .execute(c)
    .await)?;
    Ok(school(conn, school_id).await?.and_then(|s| s.stripe_customer_id))
}

/// A subscription's effect on its school.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionState {
    pub customer_id: String,
    /// `None` once the subscription is gone.
    pub subscription_id: Option<String>,
    /// `None`: Basic (deleted, or not paid for).
    pub product_id: Option<String>,
    pub seats: Option<i32>,
    /// The Stripe time of this state (the event's `created`).
    pub at: NaiveDateTime,
}

/// Writes `state` to the school unless the school holds a newer one
/// (`subscription_last_updated_at > state.at`: an event that arrived out of order).
/// Returns whether it was written.
pub async fn apply_subscription(
    conn: &mut DbConn<'_>,
    school_id: &str,
    state: &SubscriptionState,
) -> QueryResult<bool> {
    let updated = with_conn!(conn, |c| diesel::update(
        schools::table.find(school_id).filter(
            schools::subscription_last_updated_at
                .is_null()
                .or(schools::subscription_last_updated_at.le(state.at))
        )
    )
    .set((
        schools::stripe_customer_id.eq(&state.customer_id),
        schools::stripe_subscription_id.eq(&state.subscription_id),
        schools::stripe_product_id.eq(&state.product_id),
        schools::seats.eq(state.seats),
        schools::subscription_last_updated_at.eq(state.at),
        schools::updated_at.eq(now()),
    ))
    .execute(c)
    .await)?;
    Ok(updated == 1)
}

/// The school's subscription columns: (customer, subscription, product, seats, last update).
pub type SubscriptionColumns = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i32>,
    Option<NaiveDateTime>,
);

pub async fn subscription_of(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<SubscriptionColumns>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((
            schools::stripe_customer_id,
            schools::stripe_subscription_id,
            schools::stripe_product_id,
            schools::seats,
            schools::subscription_last_updated_at,
        ))
        .first(c)
        .await
        .optional())
}

/// The school's product id and seats (what `plans::school_plan` decides from).
pub async fn product_and_seats(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<(Option<String>, Option<i32>)>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((schools::stripe_product_id, schools::seats))
        .first(c)
        .await
        .optional())
}
