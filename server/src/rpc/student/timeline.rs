//! `student.timeline`: a pupil's submissions with their assignment, dates, feedback and
//! sentiment, newest first (every notification of the school, whoever sent it). Held
//! feedback (docs/feedback-release.md) is left out until it is released: the profile is
//! read by staff who did not mark it and shown beside the pupil; `feedbackHeld` says a mark
//! is waiting.

use crate::models::submissions;
use crate::rpc::feedback::SentimentName;
use crate::rpc::student::{require_student, StudentIdInput};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct TimelineEntry {
        pub submission_id: String,
        pub notification_id: String,
        pub notification_title: String,
        pub send_date: Option<JsDate>,
        pub submission_due_date: Option<JsDate>,
        pub received_at: Option<JsDate>,
        pub late: bool,
        pub marked_at: Option<JsDate>,
        pub feedback: Option<String>,
        pub feedback_sentiment: Option<SentimentName>,
        /// Marked, with the feedback held until its teacher releases it.
        pub feedback_held: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: StudentIdInput) -> RpcResult<Vec<TimelineEntry>> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let school_id = require_student(ctx, &mut conn, &input.id).await?;
    let rows = submissions::timeline(&mut conn, &school_id, &input.id).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let held = row.marked_at.is_some() && row.feedback_released_at.is_none();
            TimelineEntry {
            late: matches!((row.received_at, row.submission_due_date), (Some(r), Some(d)) if r > d),
            submission_id: row.submission_id,
            notification_id: row.notification_id,
            notification_title: row.notification_title,
            send_date: row.send_date.map(JsDate::from),
            submission_due_date: row.submission_due_date.map(JsDate::from),
            received_at: row.received_at.map(JsDate::from),
            marked_at: row.marked_at.map(JsDate::from),
            feedback: row.feedback.filter(|_| !held),
            feedback_sentiment: row.feedback_sentiment.filter(|_| !held).map(SentimentName),
            feedback_held: held,
        }})
        .collect())
}
