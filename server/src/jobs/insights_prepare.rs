//! `insights.prepare` `{}`: works out every trust's first Insights answers of the day before
//! it starts (`rpc::insights::prepare`, docs/insights.md "Prepared before the day starts"), at
//! [`PREPARE_AT`] each day. Scheduled like `files.expire`: `serve` queues the next run at
//! start, and each run queues the one of the next day (one job per day: key
//! `insights.prepare:{day}`), so restarts and several processes share one chain. Running twice
//! is harmless: the answers are written again.

use chrono::{Duration, NaiveDateTime, NaiveTime};
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::now;
use crate::rpc::insights::prepare::prepare_trusts;
use crate::state::AppState;

/// Prepares the trusts' answers and queues the next day's run. No payload: stored as `{}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrepareInsights {}

/// The stored kind (also the prefix of the runs' keys).
pub const KIND: &str = <PrepareInsights as BackgroundJob>::KIND;

/// When the run of each day is due (UTC, as the default range's "today" is): before staff
/// start (05:00 in British Summer Time), after the night's MIS syncs and late marking.
pub const PREPARE_AT: NaiveTime = match NaiveTime::from_hms_opt(4, 0, 0) {
    Some(time) => time,
    None => panic!("04:00 is a time"),
};

/// The first [`PREPARE_AT`] after `at`.
pub fn next_run(at: NaiveDateTime) -> NaiveDateTime {
    let today = at.date().and_time(PREPARE_AT);
    if today > at {
        today
    } else {
        today + Duration::days(1)
    }
}

/// Queues the run after `at`, once per day.
pub async fn schedule(conn: &mut DbConn<'_>, at: NaiveDateTime) -> diesel::result::QueryResult<()> {
    let run_at = next_run(at);
    let key = format!("{KIND}:{}", run_at.format("%Y-%m-%d"));
    enqueue(conn, &PrepareInsights {}, run_at, Some(key)).await?;
    Ok(())
}

impl BackgroundJob for PrepareInsights {
    const KIND: &'static str = "insights.prepare";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let at = now();
        let prepared = prepare_trusts(&state.db, at)
            .await
            .map_err(|err| JobError::Retry(err.detail.unwrap_or(err.message)))?;
        tracing::info!(trusts = prepared.trusts, answers = prepared.answers, "trusts' Insights prepared");
        let mut pooled = state.db.conn().await?;
        schedule(&mut pooled.db(), at).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_due_at_the_next_four_in_the_morning() {
        let at = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap();
        assert_eq!(next_run(at("2026-11-29 19:30:00")), at("2026-11-30 04:00:00"));
        assert_eq!(next_run(at("2026-11-30 03:59:59")), at("2026-11-30 04:00:00"));
        assert_eq!(next_run(at("2026-11-30 04:00:00")), at("2026-12-01 04:00:00"), "a run at 04:00 queues the next day's");
    }
}
