//! The `jobs` table: queueing rows, claiming them safely from any number of workers,
//! leases, and recording outcomes. The typed side (which job is which, their payloads and
//! handlers) is `crate::jobs`; this file only stores and moves rows. See
//! `docs/jobs-and-mail.md`.

use std::time::Duration;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::jobs;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::{now, TimeKey};
use crate::{before_time, with_conn};

/// The states of `jobs.status`.
pub mod status {
    pub const QUEUED: &str = "QUEUED";
    pub const RUNNING: &str = "RUNNING";
    pub const DONE: &str = "DONE";
    pub const FAILED: &str = "FAILED";
}

/// A job row to queue, to run at `run_at` (or as soon as a worker is free after it).
/// Application code builds it from a typed job (`crate::jobs::NewJob::of`, or
/// `crate::jobs::enqueue`), so kind and payload always come from the job's own type; the raw
/// fields are the stored form (tests use them to write rows as any version wrote them).
#[derive(Debug, Clone)]
pub struct NewJob {
    /// What to do, e.g. `notification.send`: a job type's `KIND`; workers look the handler
    /// up by it.
    pub kind: String,
    /// The job's typed payload, as JSON.
    pub payload: serde_json::Value,
    pub run_at: NaiveDateTime,
    /// A job with a key that is already queued is not queued again (the insert is skipped):
    /// this is what makes "send this once" safe to ask for twice.
    pub idempotency_key: Option<String>,
}

/// A job as a worker holds it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = jobs)]
pub struct Job {
    pub id: String,
    pub kind: String,
    pub payload: String,
    pub status: String,
    pub run_at: NaiveDateTime,
    /// Counts this run: 1 on the first claim.
    pub attempts: i32,
    pub max_attempts: i32,
    pub locked_at: Option<NaiveDateTime>,
    pub locked_by: Option<String>,
    pub last_error: Option<String>,
    pub finished_at: Option<NaiveDateTime>,
    pub idempotency_key: Option<String>,
}

#[derive(Insertable)]
#[diesel(table_name = jobs)]
struct JobRow {
    id: String,
    kind: String,
    payload: String,
    run_at: NaiveDateTime,
    idempotency_key: Option<String>,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

/// Queues `job`; returns its id, or `None` when a job with the same idempotency key exists.
pub async fn insert(conn: &mut DbConn<'_>, job: &NewJob) -> QueryResult<Option<String>> {
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

/// Queues many jobs at once (skipping keys already queued); returns how many were new.
/// Multi-row INSERTs ([`crate::batch_insert!`]): queueing thousands of e-mails stays well under a second.
pub async fn insert_many(conn: &mut DbConn<'_>, batch: &[NewJob]) -> QueryResult<usize> {
    let at = now();
    let rows: Vec<JobRow> = batch
        .iter()
        .map(|job| JobRow {
            id: new_id(),
            kind: job.kind.clone(),
            payload: job.payload.to_string(),
            run_at: job.run_at,
            idempotency_key: job.idempotency_key.clone(),
            created_at: at,
            updated_at: at,
        })
        .collect();
    crate::batch_insert!(conn, jobs::table, rows, columns = 7, |q| q
        .on_conflict_do_nothing())
}

/// The delay before retry number `attempts` (1 after the first failure): `base · 2^(attempts-1)`,
/// at most one hour. With the default base of 30 s: 30 s, 1 min, 2 min, 4 min, …
pub fn backoff(base: Duration, attempts: i32) -> Duration {
    let exponent = attempts.saturating_sub(1).clamp(0, 20) as u32;
    base.saturating_mul(2u32.saturating_pow(exponent))
        .min(Duration::from_secs(3600))
}

fn chrono_duration(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

/// The filter "ready to run": queued and due, or running under a lease that has expired
/// (its worker died) and not yet out of attempts.
macro_rules! ready {
    ($at:expr, $cutoff:expr) => {
        jobs::status
            .eq(status::QUEUED)
            .and(jobs::run_at.le($at))
            .or(jobs::status
                .eq(status::RUNNING)
                .and(jobs::locked_at.lt($cutoff))
                .and(jobs::attempts.lt(jobs::max_attempts)))
    };
}

/// Claims one ready job for `worker`, or `None` when nothing is ready. Safe with any number
/// of workers in any number of processes: PostgreSQL locks the candidate row with
/// `FOR UPDATE SKIP LOCKED`; SQLite updates the candidate only if it is still ready and
/// tries the next when another worker got there first.
pub async fn claim(
    conn: &mut DbConn<'_>,
    worker: &str,
    lease: Duration,
) -> QueryResult<Option<Job>> {
    let at = now();
    let cutoff = at - chrono_duration(lease);
    match conn {
        DbConn::Postgres(ref mut pg) => {
            use diesel_async::AsyncConnection as _;
            let pg: &mut diesel_async::AsyncPgConnection = pg;
            pg.transaction(async |c| {
                let id: Option<String> = jobs::table
                    .filter(ready!(at, cutoff))
                    .order(jobs::run_at.asc())
                    .select(jobs::id)
                    .limit(1)
                    .for_update()
                    .skip_locked()
                    .first(c)
                    .await
                    .optional()?;
                let Some(id) = id else { return Ok(None) };
                diesel::update(jobs::table.find(&id))
                    .set((
                        jobs::status.eq(status::RUNNING),
                        jobs::locked_at.eq(at),
                        jobs::locked_by.eq(worker),
                        jobs::attempts.eq(jobs::attempts + 1),
                        jobs::updated_at.eq(at),
                    ))
                    .returning(Job::as_returning())
                    .get_result(c)
                    .await
                    .optional()
            })
            .await
        }
        DbConn::Sqlite(ref mut sq) => {
            let c: &mut crate::db::SqliteConn = sq;
            let candidates: Vec<String> = jobs::table
                .filter(ready!(at, cutoff))
                .order(jobs::run_at.asc())
                .select(jobs::id)
                .limit(8)
                .load(c)
                .await?;
            for id in candidates {
                let claimed = diesel::update(jobs::table.find(&id).filter(ready!(at, cutoff)))
                    .set((
                        jobs::status.eq(status::RUNNING),
                        jobs::locked_at.eq(at),
                        jobs::locked_by.eq(worker),
                        jobs::attempts.eq(jobs::attempts + 1),
                        jobs::updated_at.eq(at),
                    ))
                    .returning(Job::as_returning())
                    .get_result(c)
                    .await
                    .optional()?;
                if claimed.is_some() {
                    return Ok(claimed);
                }
            }
            Ok(None)
        }
    }
}

/// Marks a job `worker` holds as done. Returns false when the job was no longer ours (its
/// lease ran out and another worker claimed it).
pub async fn complete(conn: &mut DbConn<'_>, id: &str, worker: &str) -> QueryResult<bool> {
    let at = now();
    let n = with_conn!(conn, |c| diesel::update(
        jobs::table
            .find(id)
            .filter(jobs::status.eq(status::RUNNING))
            .filter(jobs::locked_by.eq(worker))
    )
    .set((
        jobs::status.eq(status::DONE),
        jobs::finished_at.eq(at),
        jobs::locked_at.eq(None::<NaiveDateTime>),
        jobs::last_error.eq(None::<String>),
        jobs::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Records a failed run: back to `QUEUED` after the backoff (or after `wait`, when the
/// provider said how long: a 429's `Retry-After`), or `FAILED` when the job is out of
/// attempts or `permanent` says retrying cannot help.
pub async fn fail(
    conn: &mut DbConn<'_>,
    job: &Job,
    worker: &str,
    error: &str,
    permanent: bool,
    backoff_base: Duration,
    wait: Option<Duration>,
) -> QueryResult<()> {
    let at = now();
    let error: String = error.chars().take(2000).collect();
    let target = jobs::table
        .find(&job.id)
        .filter(jobs::status.eq(status::RUNNING))
        .filter(jobs::locked_by.eq(worker));
    if permanent || job.attempts >= job.max_attempts {
        with_conn!(conn, |c| diesel::update(target)
            .set((
                jobs::status.eq(status::FAILED),
                jobs::finished_at.eq(at),
                jobs::locked_at.eq(None::<NaiveDateTime>),
                jobs::last_error.eq(&error),
                jobs::updated_at.eq(at),
            ))
            .execute(c)
            .await)?;
    } else {
        let delay = wait.unwrap_or_else(|| backoff(backoff_base, job.attempts));
        let run_at = at + chrono_duration(delay);
        with_conn!(conn, |c| diesel::update(target)
            .set((
                jobs::status.eq(status::QUEUED),
                jobs::run_at.eq(run_at),
                jobs::locked_at.eq(None::<NaiveDateTime>),
                jobs::locked_by.eq(None::<String>),
                jobs::last_error.eq(&error),
                jobs::updated_at.eq(at),
            ))
            .execute(c)
            .await)?;
    }
    Ok(())
}

/// Fails the jobs that a dead worker left `RUNNING` after their last attempt: they would
/// otherwise never leave `RUNNING`. Returns how many.
pub async fn fail_abandoned(conn: &mut DbConn<'_>, lease: Duration) -> QueryResult<usize> {
    let at = now();
    let cutoff = at - chrono_duration(lease);
    with_conn!(conn, |c| diesel::update(
        jobs::table
            .filter(jobs::status.eq(status::RUNNING))
            .filter(jobs::locked_at.lt(cutoff))
            .filter(jobs::attempts.ge(jobs::max_attempts))
    )
    .set((
        jobs::status.eq(status::FAILED),
        jobs::finished_at.eq(at),
        jobs::locked_at.eq(None::<NaiveDateTime>),
        jobs::last_error.eq("abandoned: its worker stopped during the last attempt"),
        jobs::updated_at.eq(at),
    ))
    .execute(c)
    .await)
}

/// Hands a job `worker` holds back to the queue at once, as if this run had not happened:
/// `QUEUED`, due now, unlocked, its attempt not counted. Used at shutdown for a run that was
/// stopped part-way, so that another process (or this one restarted) takes it immediately
/// instead of after the lease. Returns false when the job was no longer ours.
pub async fn release(conn: &mut DbConn<'_>, id: &str, worker: &str) -> QueryResult<bool> {
    let at = now();
    let n = with_conn!(conn, |c| diesel::update(
        jobs::table
            .find(id)
            .filter(jobs::status.eq(status::RUNNING))
            .filter(jobs::locked_by.eq(worker))
    )
    .set((
        jobs::status.eq(status::QUEUED),
        jobs::run_at.eq(at),
        jobs::locked_at.eq(None::<NaiveDateTime>),
        jobs::locked_by.eq(None::<String>),
        jobs::attempts.eq(jobs::attempts - 1),
        jobs::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Extends the lease of a job `worker` still runs (long jobs call this so that they are not
/// taken for abandoned).
pub async fn renew_lease(conn: &mut DbConn<'_>, id: &str, worker: &str) -> QueryResult<bool> {
    let at = now();
    let n = with_conn!(conn, |c| diesel::update(
        jobs::table
            .find(id)
            .filter(jobs::status.eq(status::RUNNING))
            .filter(jobs::locked_by.eq(worker))
    )
    .set(jobs::locked_at.eq(at))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// One job by id (tests and the operator view).
pub async fn find(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<Job>> {
    with_conn!(conn, |c| jobs::table
        .find(id)
        .select(Job::as_select())
        .first(c)
        .await
        .optional())
}

/// One job by idempotency key.
pub async fn find_by_key(conn: &mut DbConn<'_>, key: &str) -> QueryResult<Option<Job>> {
    with_conn!(conn, |c| jobs::table
        .filter(jobs::idempotency_key.eq(key))
        .select(Job::as_select())
        .first(c)
        .await
        .optional())
}

/// The status of the job with this idempotency key (QUEUED, RUNNING, DONE, FAILED).
pub async fn status_by_key(conn: &mut DbConn<'_>, key: &str) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| jobs::table
        .filter(jobs::idempotency_key.eq(key))
        .select(jobs::status)
        .first(c)
        .await
        .optional())
}

/// The statuses of the jobs with these idempotency keys, as `(key, status)`.
pub async fn statuses_by_keys(
    conn: &mut DbConn<'_>,
    keys: &[String],
) -> QueryResult<Vec<(Option<String>, String)>> {
    with_conn!(conn, |c| jobs::table
        .filter(jobs::idempotency_key.eq_any(keys))
        .select((jobs::idempotency_key, jobs::status))
        .load(c)
        .await)
}

/// Deletes the job with this key if it is still `QUEUED`; returns how many rows went.
pub async fn delete_queued_by_key(conn: &mut DbConn<'_>, key: &str) -> QueryResult<usize> {
    with_conn!(conn, |c| diesel::delete(
        jobs::table
            .filter(jobs::idempotency_key.eq(key))
            .filter(jobs::status.eq(status::QUEUED))
    )
    .execute(c)
    .await)
}

/// How many jobs of one kind are in one state (the operator view's table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindCount {
    pub kind: String,
    pub status: String,
    pub count: i64,
}

/// Counts by kind and state, ordered by kind then state.
pub async fn counts_by_kind(conn: &mut DbConn<'_>) -> QueryResult<Vec<KindCount>> {
    let rows: Vec<(String, String, i64)> = with_conn!(conn, |c| jobs::table
        .group_by((jobs::kind, jobs::status))
        .select((jobs::kind, jobs::status, diesel::dsl::count_star()))
        .order((jobs::kind.asc(), jobs::status.asc()))
        .load(c)
        .await)?;
    Ok(rows
        .into_iter()
        .map(|(kind, status, count)| KindCount { kind, status, count })
        .collect())
}

/// A failed job as the operator view lists it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = jobs)]
pub struct FailedJob {
    pub id: String,
    pub kind: String,
    pub payload: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A page of the failed jobs, most recently failed first (by `updated_at`, then id, both
/// descending): at most `limit` after `after` (from the newest without). Each page is one
/// range read of `jobs (status, updated_at, id)`.
pub async fn failed_page(
    conn: &mut DbConn<'_>,
    after: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<Vec<FailedJob>> {
    with_conn!(conn, |c| {
        let mut query = jobs::table.filter(jobs::status.eq(status::FAILED)).into_boxed();
        if let Some(key) = after {
            query = query.filter(before_time!(jobs::updated_at, jobs::id, key));
        }
        query
            .order((jobs::updated_at.desc(), jobs::id.desc()))
            .limit(limit)
            .select(FailedJob::as_select())
            .load(c)
            .await
    })
}

/// Puts a failed job back in the queue, due now, with a fresh set of attempts (its last
/// error stays until the next run). Returns false when no failed job has this id.
pub async fn retry_failed(conn: &mut DbConn<'_>, id: &str) -> QueryResult<bool> {
    let at = now();
    let n = with_conn!(conn, |c| diesel::update(
        jobs::table.find(id).filter(jobs::status.eq(status::FAILED))
    )
    .set((
        jobs::status.eq(status::QUEUED),
        jobs::run_at.eq(at),
        jobs::attempts.eq(0),
        jobs::locked_at.eq(None::<NaiveDateTime>),
        jobs::locked_by.eq(None::<String>),
        jobs::finished_at.eq(None::<NaiveDateTime>),
        jobs::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Deletes a failed job. Returns false when no failed job has this id.
pub async fn discard_failed(conn: &mut DbConn<'_>, id: &str) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::delete(
        jobs::table.find(id).filter(jobs::status.eq(status::FAILED))
    )
    .execute(c)
    .await)?;
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_an_hour() {
        let base = Duration::from_secs(30);
        assert_eq!(backoff(base, 1), Duration::from_secs(30));
        assert_eq!(backoff(base, 2), Duration::from_secs(60));
        assert_eq!(backoff(base, 4), Duration::from_secs(240));
        assert_eq!(backoff(base, 8), Duration::from_secs(3600));
        assert_eq!(backoff(base, 1000), Duration::from_secs(3600));
    }
}

/// One kind's waiting jobs, for the metrics (`crate::metrics`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindQueue {
    pub kind: String,
    /// Jobs `QUEUED`, due or not.
    pub queued: i64,
    /// The `run_at` of the oldest job due at `now` and still waiting, if any.
    pub oldest_due: Option<NaiveDateTime>,
}

/// Per kind with jobs waiting: how many, and since when the oldest due one waits.
pub async fn queue_by_kind(conn: &mut DbConn<'_>, now: NaiveDateTime) -> QueryResult<Vec<KindQueue>> {
    let counts: Vec<(String, i64)> = with_conn!(conn, |c| jobs::table
        .filter(jobs::status.eq(status::QUEUED))
        .group_by(jobs::kind)
        .select((jobs::kind, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    let due: Vec<(String, Option<NaiveDateTime>)> = with_conn!(conn, |c| jobs::table
        .filter(jobs::status.eq(status::QUEUED))
        .filter(jobs::run_at.le(now))
        .group_by(jobs::kind)
        .select((jobs::kind, diesel::dsl::min(jobs::run_at)))
        .load(c)
        .await)?;
    Ok(counts
        .into_iter()
        .map(|(kind, queued)| {
            let oldest_due = due.iter().find(|(k, _)| *k == kind).and_then(|(_, at)| *at);
            KindQueue { kind, queued, oldest_due }
        })
        .collect())
}
