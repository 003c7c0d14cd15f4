//! `submission.*`: the pupil's public page at `/submissions/{id}/{token}` (no sign-in;
//! the link's token is the credential) and handing work in.
//!
//! Decisions (docs/submissions.md): work may be handed in again, replacing the text,
//! until it is marked (held feedback included); each hand-in sets `receivedAt` to its time. After the due date it
//! is still accepted and shown as late. A wrong, garbled or revoked link (the submission
//! or its notification deleted) is NOT_FOUND with one message, whatever was wrong.

pub mod get_deepgram_key;
pub mod public;
pub mod submit;

use chrono::NaiveDateTime;

use crate::db::DbConn;
use crate::models::stored_files;
use crate::models::submissions::PublicSubmission;
use crate::rpc::feedback::SentimentName;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{ErrorCode, RpcError, RpcResult};

pub use crate::models::submissions::{find_by_link, LINK_INVALID};

pub(crate) fn link_invalid() -> RpcError {
    RpcError::new(ErrorCode::NotFound, LINK_INVALID)
}

rpc_type! {
    /// The link's two parts.
    pub struct SubmissionLink {
        pub id: String,
        pub token: String,
    }
}

rpc_type! {
    pub struct PublicAssignment {
        pub title: String,
        pub custom_title: Option<String>,
        /// Rich text, sanitised by the server when the notification was saved.
        pub body: String,
        pub submission_due_date: Option<JsDate>,
        pub school_name: String,
    }
}

rpc_type! {
    pub struct PublicFile {
        pub id: String,
        pub filename: String,
        pub content_type: String,
        pub size_bytes: i64,
        /// Where the file downloads from (the link's own path).
        pub url: String,
    }
}

rpc_type! {
    /// What the pupil's page shows.
    pub struct PublicSubmissionView {
        pub id: String,
        pub assignment: PublicAssignment,
        pub pupil_forename: String,
        pub content: Option<String>,
        pub files: Vec<PublicFile>,
        pub received_at: Option<JsDate>,
        /// Handed in after the due date.
        pub late: bool,
        /// When it was marked, once the feedback is released (`null` while it is held).
        pub marked_at: Option<JsDate>,
        pub feedback: Option<String>,
        pub feedback_sentiment: Option<SentimentName>,
        /// Marked, with the feedback held until the teacher releases it: the work can no
        /// longer change, and the page says the feedback will come.
        pub feedback_pending: bool,
    }
}

fn is_late(received: Option<NaiveDateTime>, due: Option<NaiveDateTime>) -> bool {
    matches!((received, due), (Some(r), Some(d)) if r > d)
}

/// The page's view of `submission`, with its files.
pub async fn view(
    conn: &mut DbConn<'_>,
    submission: PublicSubmission,
    token: &str,
) -> RpcResult<PublicSubmissionView> {
    let files = stored_files::of_submission(conn, &submission.id).await?;
    // Held feedback (docs/feedback-release.md) is not the pupil's or parents' to see yet.
    let marked = submission.marked_at.is_some() && submission.feedback_released_at.is_some();
    let feedback_pending = submission.marked_at.is_some() && !marked;
    Ok(PublicSubmissionView {
        files: files
            .into_iter()
            .map(|f| PublicFile {
                url: format!("/api/submissions/{}/{token}/files/{}", submission.id, f.id),
                id: f.id,
                filename: f.filename,
                content_type: f.content_type,
                size_bytes: f.size_bytes.unwrap_or(0),
            })
            .collect(),
        late: is_late(submission.received_at, submission.submission_due_date),
        assignment: PublicAssignment {
            title: submission.title,
            custom_title: submission.custom_title,
            body: submission.body,
            submission_due_date: submission.submission_due_date.map(JsDate::from),
            school_name: submission.school_name,
        },
        id: submission.id,
        pupil_forename: submission.student_forename,
        content: submission.content,
        received_at: submission.received_at.map(JsDate::from),
        marked_at: submission.marked_at.filter(|_| marked).map(JsDate::from),
        feedback_pending,
        // Feedback shows only once marked and released.
        feedback: submission.feedback.filter(|_| marked),
        feedback_sentiment: submission
            .feedback_sentiment
            .filter(|_| marked)
            .map(SentimentName),
    })
}
