//! `feedback.release_held` (payload `{"notificationId"}`): releases the held marks of one
//! assignment when its setting says they are due — ON_DATE once `feedback_release_at` has
//! come, or WHEN_MARKED after the teacher switched to it (docs/feedback-release.md). Queued
//! by `notification.create` / `notification.update` for the release date (key
//! `feedback.release_held:{notificationId}:{runAt µs}`), and at once when a teacher switches to
//! When marked. A queued job in the database, so a release survives a restart; the queue's
//! lease runs it once across processes, and [`release_now`] is an UPDATE of the rows still
//! held, so a second run (or a date moved meanwhile) releases nothing more.

use chrono::NaiveDateTime;
use diesel::result::QueryResult;
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::feedback_send::SendFeedback;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::notifications::FeedbackRelease;
use crate::models::{jobs as job_rows, marks, now};
use crate::state::AppState;
use crate::transaction;

/// Releases the held marks of notification `notification_id` that are due.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseFeedback {
    pub notification_id: String,
}

impl ReleaseFeedback {
    fn key(notification_id: &str, run_at: NaiveDateTime) -> String {
        format!(
            "feedback.release_held:{notification_id}:{}",
            run_at.and_utc().timestamp_micros()
        )
    }

    /// Queues the release of `notification_id` for `run_at`, in the caller's transaction.
    pub async fn schedule(
        conn: &mut DbConn<'_>,
        notification_id: &str,
        run_at: NaiveDateTime,
    ) -> QueryResult<Option<String>> {
        let job = ReleaseFeedback {
            notification_id: notification_id.to_owned(),
        };
        enqueue(conn, &job, run_at, Some(Self::key(notification_id, run_at))).await
    }

    /// Takes the still-queued release for `run_at` off the queue (the date moved or the
    /// setting changed). A job already run or running is left: it re-reads the setting.
    pub async fn unschedule(
        conn: &mut DbConn<'_>,
        notification_id: &str,
        run_at: NaiveDateTime,
    ) -> QueryResult<usize> {
        job_rows::delete_queued_by_key(conn, &Self::key(notification_id, run_at)).await
    }
}

/// Releases every held mark of `notification_id` at `at` and queues each one's
/// `feedback.email` job (one e-mail per recipient, as marking does), in the caller's
/// transaction. Returns how many marks it released. `feedback.release` (the procedure)
/// and this job both call it.
pub async fn release_now(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    at: NaiveDateTime,
) -> QueryResult<usize> {
    let released = marks::release_held(conn, notification_id, at).await?;
    for (submission_id, marked_at) in &released {
        SendFeedback::schedule(conn, submission_id, *marked_at).await?;
    }
    Ok(released.len())
}

impl BackgroundJob for ReleaseFeedback {
    const KIND: &'static str = "feedback.release_held";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let id = &self.notification_id;
        let released: usize = transaction!(&mut conn, |c| {
            let Some((release, release_at)) =
                marks::feedback_release_of(c, id).await?
            else {
                return Ok::<_, diesel::result::Error>(0); // deleted meanwhile
            };
            let at = now();
            let due = match release {
                FeedbackRelease::WhenMarked => true,
                FeedbackRelease::OnDate => release_at.is_some_and(|d| d <= at),
                FeedbackRelease::ByHand => false,
            };
            if !due {
                return Ok(0);
            }
            release_now(c, id, at).await
        })?;
        tracing::info!(notification = %self.notification_id, released, "feedback released");
        Ok(())
    }
}
