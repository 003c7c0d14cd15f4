//! `submission.*`: the pupil's public page at `/submissions/{id}/{token}` (no sign-in;
//! the link's token is the credential) and handing work in.
//!
//! Decisions (docs/submissions.md): work may be handed in again, replacing the text,
//! until it is marked; each hand-in sets `receivedAt` to its time. After the due date it
//! is still accepted and shown as late. A wrong, garbled or revoked link (the submission
//! or its notification deleted) is NOT_FOUND with one message, whatever was wrong.

pub mod get_deepgram_key;
pub mod public;
pub mod submit;

use chrono::NaiveDateTime;

use crate::db::DbConn;
use crate::models::submissions::{self, PublicSubmission};
use crate::rpc::feedback::SentimentName;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{ErrorCode, RpcError, RpcResult};

/// What a wrong, garbled or revoked link answers.
pub const LINK_INVALID: &str = "This link is invalid or has expired.";

/// Compares two tokens in time that depends only on their lengths.
pub fn token_matches(given: &str, stored: &str) -> bool {
    crate::crypto::constant_time_eq(given.as_bytes(), stored.as_bytes())
}

/// The submission behind a public link, if `token` is its token.
pub async fn find_by_link(
    conn: &mut DbConn<'_>,
    id: &str,
    token: &str,
) -> diesel::result::QueryResult<Option<PublicSubmission>> {
    // Ids and tokens are short ASCII; anything else cannot match and needs no query.
    if id.is_empty() || id.len() > 64 || token.is_empty() || token.len() > 128 {
        return Ok(None);
    }
    let found = submissions::find_public(conn, id).await?;
    Ok(found.filter(|s| token_matches(token, &s.token)))
}

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
        pub marked_at: Option<JsDate>,
        pub feedback: Option<String>,
        pub feedback_sentiment: Option<SentimentName>,
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
    let files = submissions::files(conn, &submission.id).await?;
    let marked = submission.marked_at.is_some();
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
        marked_at: submission.marked_at.map(JsDate::from),
        // Feedback shows only once marked.
        feedback: submission.feedback.filter(|_| marked),
        feedback_sentiment: submission
            .feedback_sentiment
            .filter(|_| marked)
            .map(SentimentName),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_only_when_equal() {
        assert!(token_matches("abc", "abc"));
        assert!(!token_matches("abd", "abc"));
        assert!(!token_matches("ab", "abc"));
        assert!(!token_matches("", "abc"));
    }
}
