//! `feedback.email` (payload `{"submissionId"}`, queued when a submission's feedback is
//! released: at marking, or by `feedback.release`): queues
//! one `email.feedback` job to the pupil, and one to the parent when `jobs::audience` allows
//! it. One job per message keeps the exactly-once argument of `email_notification`.

use chrono::NaiveDateTime;
use core_wasm::NotificationFrequency;
use diesel::result::QueryResult;
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::audience;
use crate::jobs::email_feedback::FeedbackEmail;
use crate::jobs::{enqueue, enqueue_many, BackgroundJob, Job, JobError, NewJob};
use crate::models::{now, submissions};
use crate::state::AppState;
use crate::transaction;

/// Queues the feedback e-mails of marked submission `submission_id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendFeedback {
    pub submission_id: String,
}

impl SendFeedback {
    /// Queues the job for a marking at `marked_at`, in the caller's transaction (key
    /// `feedback:{submissionId}:{markedAt µs}`: each marking once).
    pub async fn schedule(
        conn: &mut DbConn<'_>,
        submission_id: &str,
        marked_at: NaiveDateTime,
    ) -> QueryResult<Option<String>> {
        let key = format!(
            "feedback:{submission_id}:{}",
            marked_at.and_utc().timestamp_micros()
        );
        let job = SendFeedback {
            submission_id: submission_id.to_owned(),
        };
        enqueue(conn, &job, marked_at, Some(key)).await
    }
}

impl BackgroundJob for SendFeedback {
    const KIND: &'static str = "feedback.email";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let id = &self.submission_id;
        let queued: usize = transaction!(&mut conn, |c| queue_feedback(c, id).await)?;
        tracing::debug!(submission = %self.submission_id, queued, "feedback e-mail queued");
        Ok(())
    }
}

async fn queue_feedback(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> Result<usize, diesel::result::Error> {
    let Some(marked) = submissions::find_feedback_for_email(conn, submission_id).await? else {
        return Ok(0);
    };
    let Some(marked_at) = marked.marked_at else {
        return Ok(0);
    };
    // Held feedback is never e-mailed; its release queues this job again.
    if marked.feedback_released_at.is_none() {
        return Ok(0);
    }
    let n = &marked.notification;
    let rules = audience::school_rules(conn, &n.school_id).await?;
    let targets = audience::feedback_targets(&marked, rules.as_ref());
    let frequency = rules.map_or(NotificationFrequency::Immediately, |r| {
        r.notifications_frequency
    });
    let preferences =
        audience::preferences(conn, targets.iter().map(|(_, to)| to), frequency).await?;
    let jobs: Vec<NewJob> = targets
        .into_iter()
        .filter(|(_, to)| preferences.get(to).is_some_and(|p| p.allows(n.kind)))
        .map(|(audience, to)| {
            let email = FeedbackEmail {
                submission_id: submission_id.to_owned(),
                audience,
                to,
            };
            NewJob::of(&email, now(), Some(email.key(marked_at)))
        })
        .collect();
    enqueue_many(conn, &jobs).await
}
