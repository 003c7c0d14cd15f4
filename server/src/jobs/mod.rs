//! Durable background jobs, kept in the `jobs` table of the same database (no extra
//! service). Work is enqueued inside the transaction that makes it necessary, so a job
//! exists exactly when its cause was committed.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::jobs;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::now;
use crate::with_conn;

/// A job to run at `run_at` (or as soon as a worker is free after it).
#[derive(Debug, Clone)]
pub struct NewJob {
    /// What to do, e.g. `notification.send`; workers look the handler up by it.
    pub kind: String,
    /// The handler's input, as JSON.
    pub payload: serde_json::Value,
    pub run_at: NaiveDateTime,
    /// A job with a key that is already queued is not queued again (the insert is skipped):
    /// this is what makes "send this once" safe to ask for twice.
    pub idempotency_key: Option<String>,
}

/// Queues `job`; returns its id, or `None` when a job with the same idempotency key exists.
pub async fn enqueue(conn: &mut DbConn<'_>, job: &NewJob) -> QueryResult<Option<String>> {
    let id = new_id();
    let at = now();
    let inserted = with_conn!(conn, |c| diesel::insert_into(jobs::table)
        .values((
            jobs::id.eq(&id),
            jobs::kind.eq(&job.kind),
            jobs::payload.eq(job.payload.to_string()),
            jobs::run_at.eq(job.run_at),
            jobs::idempotency_key.eq(&job.idempotency_key),
            jobs::created_at.eq(at),
            jobs::updated_at.eq(at),
        ))
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    Ok((inserted == 1).then_some(id))
}
