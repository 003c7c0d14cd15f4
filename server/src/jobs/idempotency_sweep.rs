//! `idempotency.sweep` `{}`: deletes the outbox's idempotency keys older than
//! [`KEEP_FOR`] (7 days). Queued, once per day, by each answer stored with a key
//! ([`schedule`], idempotency key `idempotency.sweep:{day}`), to run the day after that
//! answer's keeping time ends; so the table is swept whenever it holds something to sweep,
//! and never otherwise. Running twice is harmless.

use chrono::{Duration, NaiveDateTime};
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::idempotency::{self, KEEP_FOR};
use crate::models::now;
use crate::state::AppState;

/// Deletes the keys past their keeping time. No payload: stored as `{}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepIdempotencyKeys {}

/// Queues the sweep that removes a key stored at `stored_at`: at the start of the day after
/// its keeping time ends, once per day whatever the number of keys.
pub async fn schedule(
    conn: &mut DbConn<'_>,
    stored_at: NaiveDateTime,
) -> diesel::result::QueryResult<()> {
    let day = (stored_at + KEEP_FOR).date() + Duration::days(1);
    let run_at = day.and_hms_opt(0, 0, 0).unwrap_or(stored_at + KEEP_FOR);
    let key = format!(
        "{}:{}",
        <SweepIdempotencyKeys as BackgroundJob>::KIND,
        day.format("%Y-%m-%d")
    );
    enqueue(conn, &SweepIdempotencyKeys {}, run_at, Some(key)).await?;
    Ok(())
}

/// Deletes the keys stored before `at - KEEP_FOR`; returns how many.
pub async fn sweep(state: &AppState, at: NaiveDateTime) -> Result<usize, JobError> {
    let mut pooled = state.db.conn().await?;
    Ok(idempotency::delete_older_than(&mut pooled.db(), at - KEEP_FOR).await?)
}

impl BackgroundJob for SweepIdempotencyKeys {
    const KIND: &'static str = "idempotency.sweep";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let deleted = sweep(state, now()).await?;
        if deleted > 0 {
            tracing::info!(deleted, "idempotency keys swept");
        }
        Ok(())
    }
}
