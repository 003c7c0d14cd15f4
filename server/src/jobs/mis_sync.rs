//! `mis.sync` `{schoolId, kind}`: one MIS sync of one school (`crate::mis::sync`), full or
//! delta. Scheduled like digests, by idempotency keys on clock slots: each run first queues
//! the school's next delta (`mis.sync:{school}:DELTA:{slot}`, slots every
//! `VOICEMARK_SYNC_DELTA_MINUTES` from midnight) and next nightly full sync
//! (`mis.sync:{school}:FULL:{date}` at `VOICEMARK_SYNC_FULL_HOUR`), so however many runs
//! there were, one chain continues. 'Sync now' and the CLI queue `…:NOW:{minute}`. Two
//! runs of one school never overlap: the run lock in `mis_sync_runs` turns the second into
//! a no-op. A 429 waits its `Retry-After`; network trouble and 5xx retry with backoff; a
//! refused token or secret, or an unknown school, fail at once. Wonde and Groupcall
//! Xporter schools run the same job (the school's source decides).

use chrono::{Duration, NaiveDateTime};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::mis::sync::{self, SyncError};
use crate::mis::SyncKind;
use crate::models::now;
use crate::providers::wonde::WondeError;
use crate::providers::xporter::XporterError;
use crate::state::AppState;

/// Sync the school `school_id` now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncMis {
    pub school_id: String,
    pub kind: SyncKind,
}

/// The stored kind (also the prefix of the jobs' keys).
pub const KIND: &str = <SyncMis as BackgroundJob>::KIND;

impl BackgroundJob for SyncMis {
    const KIND: &'static str = "mis.sync";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        {
            let mut pooled = state.db.conn().await?;
            schedule_next(&mut pooled.db(), &state.config, &self.school_id, now()).await?;
        }
        match sync::run(state, &self.school_id, self.kind).await {
            Ok(report) => {
                if let Some(report) = report {
                    tracing::info!(
                        school = %self.school_id,
                        kind = report.kind.as_str(),
                        added = report.applied.added,
                        updated = report.applied.updated,
                        archived = report.applied.archived,
                        "MIS sync finished"
                    );
                }
                Ok(())
            }
            Err(SyncError::Wonde(WondeError::RateLimited { retry_after })) => {
                Err(JobError::RetryAfter {
                    message: format!("Wonde asked to wait {} s", retry_after.as_secs()),
                    after: retry_after,
                })
            }
            Err(SyncError::Xporter(XporterError::RateLimited { retry_after })) => {
                Err(JobError::RetryAfter {
                    message: format!("Groupcall Xporter asked to wait {} s", retry_after.as_secs()),
                    after: retry_after,
                })
            }
            Err(SyncError::Wonde(err)) if err.is_transient() => Err(JobError::Retry(err.to_string())),
            Err(SyncError::Xporter(err)) if err.is_transient() => Err(JobError::Retry(err.to_string())),
            Err(SyncError::Db(err)) => Err(JobError::Retry(format!("database: {err}"))),
            Err(err) => Err(JobError::Permanent(err.to_string())),
        }
    }
}

/// Queues a sync of the school to run at once ('Sync now', connecting, the CLI); a second
/// request within the same minute is the same job.
pub async fn queue_now(
    conn: &mut DbConn<'_>,
    school_id: &str,
    kind: SyncKind,
) -> diesel::result::QueryResult<Option<String>> {
    let at = now();
    let key = format!("{KIND}:{school_id}:NOW:{}", at.format("%Y-%m-%dT%H:%M"));
    enqueue(
        conn,
        &SyncMis {
            school_id: school_id.to_owned(),
            kind,
        },
        at,
        Some(key),
    )
    .await
}

/// The next delta slot after `at`: the next multiple of `minutes` since midnight.
pub fn next_delta_slot(at: NaiveDateTime, minutes: u32) -> NaiveDateTime {
    let minutes = i64::from(minutes.max(1));
    let midnight = at.date().and_hms_opt(0, 0, 0).unwrap_or(at);
    let since = (at - midnight).num_minutes();
    midnight + Duration::minutes((since / minutes + 1) * minutes)
}

/// The next nightly full sync after `at`, at `hour` UTC.
pub fn next_full_slot(at: NaiveDateTime, hour: u32) -> NaiveDateTime {
    let today = at
        .date()
        .and_hms_opt(hour.min(23), 0, 0)
        .unwrap_or(at);
    if today > at {
        today
    } else {
        today + Duration::days(1)
    }
}

/// Queues the school's next delta and next full sync (each once per slot).
pub async fn schedule_next(
    conn: &mut DbConn<'_>,
    config: &Config,
    school_id: &str,
    at: NaiveDateTime,
) -> diesel::result::QueryResult<()> {
    let delta = next_delta_slot(at, config.mis.delta_minutes);
    let full = next_full_slot(at, config.mis.full_sync_hour);
    // A delta in the full sync's slot would only repeat it.
    if delta != full {
        let key = format!("{KIND}:{school_id}:DELTA:{}", delta.format("%Y-%m-%dT%H:%M"));
        let job = SyncMis {
            school_id: school_id.to_owned(),
            kind: SyncKind::Delta,
        };
        enqueue(conn, &job, delta, Some(key)).await?;
    }
    let key = format!("{KIND}:{school_id}:FULL:{}", full.format("%Y-%m-%d"));
    let job = SyncMis {
        school_id: school_id.to_owned(),
        kind: SyncKind::Full,
    };
    enqueue(conn, &job, full, Some(key)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn slots_follow_the_clock_so_chains_converge() {
        assert_eq!(next_delta_slot(at("2026-11-24 09:07:13"), 60), at("2026-11-24 10:00:00"));
        assert_eq!(next_delta_slot(at("2026-11-24 09:59:59"), 60), at("2026-11-24 10:00:00"));
        assert_eq!(next_delta_slot(at("2026-11-24 09:10:00"), 15), at("2026-11-24 09:15:00"));
        assert_eq!(next_delta_slot(at("2026-11-24 23:30:00"), 60), at("2026-11-25 00:00:00"));
        assert_eq!(next_full_slot(at("2026-11-24 01:00:00"), 2), at("2026-11-24 02:00:00"));
        assert_eq!(next_full_slot(at("2026-11-24 02:00:00"), 2), at("2026-11-25 02:00:00"));
    }
}
