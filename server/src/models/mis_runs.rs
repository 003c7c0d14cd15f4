//! The MIS sync runs (`mis_sync_runs`, docs/mis-sync.md): one RUNNING run per school (a
//! partial unique index), its heartbeat and progress, its counts, problems and error.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::mis_sync_runs;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::now;
use crate::with_conn;

/// The states of `mis_sync_runs.status`.
pub mod run_status {
    pub const RUNNING: &str = "RUNNING";
    pub const DONE: &str = "DONE";
    pub const FAILED: &str = "FAILED";
}

/// A sync run as the health view shows it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = mis_sync_runs)]
pub struct SyncRun {
    pub id: String,
    pub school_id: String,
    pub source: String,
    pub kind: String,
    pub status: String,
    pub started_at: NaiveDateTime,
    pub heartbeat_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub progress: String,
    pub added: i32,
    pub updated: i32,
    pub archived: i32,
    /// JSON array of strings.
    pub problems: String,
    pub error: Option<String>,
}

/// Starts a run of `kind` for the school, unless one is running (then `None`): the partial
/// unique index `(school_id) WHERE status = 'RUNNING'` decides between processes. A RUNNING
/// run whose heartbeat is older than `stale_before` is first failed as abandoned.
pub async fn start_run(
    conn: &mut DbConn<'_>,
    school_id: &str,
    source: &str,
    kind: &str,
    stale_before: NaiveDateTime,
) -> QueryResult<Option<String>> {
    let at = now();
    with_conn!(conn, |c| diesel::update(
        mis_sync_runs::table
            .filter(mis_sync_runs::school_id.eq(school_id))
            .filter(mis_sync_runs::status.eq(run_status::RUNNING))
            .filter(mis_sync_runs::heartbeat_at.lt(stale_before))
    )
    .set((
        mis_sync_runs::status.eq(run_status::FAILED),
        mis_sync_runs::finished_at.eq(at),
        mis_sync_runs::error.eq("abandoned: the process running it stopped"),
    ))
    .execute(c)
    .await)?;
    let id = new_id();
    let n = with_conn!(conn, |c| diesel::insert_into(mis_sync_runs::table)
        .values((
            mis_sync_runs::id.eq(&id),
            mis_sync_runs::school_id.eq(school_id),
            mis_sync_runs::source.eq(source),
            mis_sync_runs::kind.eq(kind),
            mis_sync_runs::status.eq(run_status::RUNNING),
            mis_sync_runs::started_at.eq(at),
            mis_sync_runs::heartbeat_at.eq(at),
            mis_sync_runs::progress.eq("Starting"),
        ))
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    Ok((n == 1).then_some(id))
}

/// Records progress (and keeps the run's heartbeat fresh).
pub async fn set_progress(conn: &mut DbConn<'_>, run_id: &str, progress: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(mis_sync_runs::table.find(run_id))
        .set((
            mis_sync_runs::progress.eq(progress),
            mis_sync_runs::heartbeat_at.eq(now()),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// What a finished run records.
#[derive(Debug, Clone, Default)]
pub struct RunResult {
    pub added: i32,
    pub updated: i32,
    pub archived: i32,
    pub problems: Vec<String>,
    /// `Some`: the run failed with this message (and changed nothing).
    pub error: Option<String>,
}

pub async fn finish_run(conn: &mut DbConn<'_>, run_id: &str, result: &RunResult) -> QueryResult<()> {
    let at = now();
    let status = if result.error.is_some() {
        run_status::FAILED
    } else {
        run_status::DONE
    };
    let problems = serde_json::to_string(&result.problems).unwrap_or_else(|_| "[]".into());
    let progress = if result.error.is_some() { "Failed" } else { "Finished" };
    with_conn!(conn, |c| diesel::update(mis_sync_runs::table.find(run_id))
        .set((
            mis_sync_runs::status.eq(status),
            mis_sync_runs::finished_at.eq(at),
            mis_sync_runs::heartbeat_at.eq(at),
            mis_sync_runs::progress.eq(progress),
            mis_sync_runs::added.eq(result.added),
            mis_sync_runs::updated.eq(result.updated),
            mis_sync_runs::archived.eq(result.archived),
            mis_sync_runs::problems.eq(problems),
            mis_sync_runs::error.eq(&result.error),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// The school's latest runs, newest first.
pub async fn recent_runs(
    conn: &mut DbConn<'_>,
    school_id: &str,
    limit: i64,
) -> QueryResult<Vec<SyncRun>> {
    with_conn!(conn, |c| mis_sync_runs::table
        .filter(mis_sync_runs::school_id.eq(school_id))
        .order((mis_sync_runs::started_at.desc(), mis_sync_runs::id.desc()))
        .limit(limit)
        .select(SyncRun::as_select())
        .load(c)
        .await)
}

/// When the school's last successful run (of `kind`, or of any kind) started: a delta asks
/// for what changed since then.
pub async fn last_done(
    conn: &mut DbConn<'_>,
    school_id: &str,
    kind: Option<&str>,
) -> QueryResult<Option<NaiveDateTime>> {
    with_conn!(conn, |c| {
        let mut query = mis_sync_runs::table
            .filter(mis_sync_runs::school_id.eq(school_id))
            .filter(mis_sync_runs::status.eq(run_status::DONE))
            .into_boxed();
        if let Some(kind) = kind {
            query = query.filter(mis_sync_runs::kind.eq(kind));
        }
        query
            .order(mis_sync_runs::started_at.desc())
            .select(mis_sync_runs::started_at)
            .first::<NaiveDateTime>(c)
            .await
            .optional()
    })
}
