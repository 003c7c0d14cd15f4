//! `feedback.email` (payload `{"submissionId"}`, queued when a submission is marked): queues
//! one `email.feedback` job to the pupil, and one to the parent when the notification went
//! to parents and the school and the parent's switches allow it. One job per message keeps
//! the exactly-once argument of `jobs::email`.

use core_wasm::FeedbackSentiment;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde::Deserialize;
use serde_json::json;

use crate::app::AppState;
use crate::db::schema::{notifications, students, submissions};
use crate::db::DbConn;
use crate::jobs::email::{parents_allowed, Shown, FEEDBACK_KIND};
use crate::jobs::notification_send::{address, school_rules, Audience};
use crate::jobs::registry::payload;
use crate::jobs::{enqueue_many, Job, JobError, NewJob};
use crate::models::{email_preferences, now};
use crate::{transaction, with_conn};

pub const KIND: &str = "feedback.email";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload {
    submission_id: String,
}

/// A marked submission with what its e-mail shows.
#[derive(Debug, Clone)]
pub struct Marked {
    pub notification: Shown,
    pub token: String,
    pub feedback: String,
    pub sentiment: Option<FeedbackSentiment>,
    pub marked_at: chrono::NaiveDateTime,
    pub forename: String,
    pub pupil_email: Option<String>,
    pub parent_email: Option<String>,
}

impl Marked {
    pub fn sentiment_label(&self) -> &'static str {
        match self.sentiment {
            Some(FeedbackSentiment::Positive) => "Positive",
            Some(FeedbackSentiment::Negative) => "Needs work",
            _ => "Neutral",
        }
    }
}

type MarkedRow = (
    Shown,
    String,
    Option<String>,
    Option<FeedbackSentiment>,
    Option<chrono::NaiveDateTime>,
    String,
    Option<String>,
    Option<String>,
);

/// The submission, if it exists and is marked.
pub async fn find_marked(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> QueryResult<Option<Marked>> {
    let row: Option<MarkedRow> = with_conn!(conn, |c| submissions::table
        .inner_join(notifications::table)
        .inner_join(students::table)
        .filter(submissions::id.eq(submission_id))
        .select((
            Shown::as_select(),
            submissions::token,
            submissions::feedback,
            submissions::feedback_sentiment,
            submissions::marked_at,
            students::forename,
            students::email,
            students::parent_email,
        ))
        .first(c)
        .await
        .optional())?;
    Ok(row.and_then(
        |(
            notification,
            token,
            feedback,
            sentiment,
            marked_at,
            forename,
            pupil_email,
            parent_email,
        )| {
            Some(Marked {
                notification,
                token,
                feedback: feedback.unwrap_or_default(),
                sentiment,
                marked_at: marked_at?,
                forename,
                pupil_email,
                parent_email,
            })
        },
    ))
}

pub async fn run(state: &AppState, job: &Job) -> Result<(), JobError> {
    let input: Payload = payload(job)?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let queued: usize = transaction!(&mut conn, |c| queue_feedback(c, &input.submission_id).await)?;
    tracing::debug!(submission = %input.submission_id, queued, "feedback e-mail queued");
    Ok(())
}

async fn queue_feedback(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> Result<usize, diesel::result::Error> {
    let Some(marked) = find_marked(conn, submission_id).await? else {
        return Ok(0);
    };
    let n = &marked.notification;
    let mut targets = Vec::new();
    if let Some(to) = address(marked.pupil_email.as_deref()) {
        targets.push((Audience::Pupil, to));
    }
    if n.send_to_parent && parents_allowed(conn, &n.school_id, n.kind).await? {
        if let Some(to) = address(marked.parent_email.as_deref()) {
            targets.push((Audience::Parent, to));
        }
    }
    let frequency = school_rules(conn, &n.school_id)
        .await?
        .map(|r| r.notifications_frequency)
        .unwrap_or(core_wasm::NotificationFrequency::Immediately);
    let addresses: Vec<String> = targets.iter().map(|(_, to)| to.clone()).collect();
    let preferences = email_preferences::ensure_for(conn, &addresses, frequency).await?;
    let marked_at = marked.marked_at.format("%Y-%m-%dT%H:%M:%S%.6f");
    let jobs: Vec<NewJob> = targets
        .into_iter()
        .filter(|(_, to)| preferences.get(to).is_some_and(|p| p.allows(n.kind)))
        .map(|(audience, to)| NewJob {
            kind: FEEDBACK_KIND.into(),
            payload: json!({ "submissionId": submission_id, "audience": audience.as_str(), "to": to }),
            run_at: now(),
            idempotency_key: Some(format!(
                "email:feedback:{submission_id}:{marked_at}:{}",
                audience.as_str()
            )),
        })
        .collect();
    enqueue_many(conn, &jobs).await
}
