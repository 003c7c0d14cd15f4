//! `feedback.mark`: records feedback and its sentiment on a received submission, sets
//! `markedAt`, writes the audit row and, when the assignment releases feedback now, sets
//! `feedbackReleasedAt` and queues the `feedback.email` job, in one transaction. Otherwise
//! the mark is held (docs/feedback-release.md): no e-mail, and marking it again edits it
//! (new text and sentiment, `markedAt` moved to now) until it is released; a released mark
//! is refused with [`RELEASED`].

use crate::models::audit::{self, AuditAction};
use crate::models::comment_bank;
use crate::models::{marks, now};
use crate::rpc::feedback::{scope, SentimentName};
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// The answer to changing or withdrawing feedback that pupils may already have seen.
pub const RELEASED: &str = "This feedback has been released and can no longer be changed.";

/// The longest feedback, in characters.
pub const MAX_FEEDBACK: usize = core_wasm::limits::MAX_FEEDBACK_CHARS;

rpc_type! {
    pub struct MarkInput {
        pub submission_id: String,
        pub feedback: String,
        pub sentiment: String,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

rpc_type! {
    pub struct MarkedSubmission {
        pub submission_id: String,
        pub marked_at: JsDate,
        pub feedback: String,
        pub feedback_sentiment: SentimentName,
        /// `null` while the feedback is held.
        pub released_at: Option<JsDate>,
    }
}

pub async fn handler(ctx: &Ctx, input: MarkInput) -> RpcResult<MarkedSubmission> {
    let user = ctx.require_user()?;
    let scope = scope(ctx)?;
    let school_id = ctx.school_id()?.to_owned();
    let once = Once::new(ctx, &input.idempotency_key)?;
    let mut pooled = ctx.conn().await?;
    if let Some(first) = once.replay(&mut pooled.db()).await? {
        return Ok(first);
    }
    let feedback = input.feedback.trim().to_owned();
    let mut errors = FieldErrors::default();
    if feedback.is_empty() {
        errors.add("feedback", "Write your feedback.");
    } else if feedback.chars().count() > MAX_FEEDBACK {
        errors.add(
            "feedback",
            core_wasm::limits::too_long_message(MAX_FEEDBACK),
        );
    }
    let sentiment = input.sentiment.parse().ok();
    if sentiment.is_none() {
        errors.add("sentiment", "Choose Neutral, Positive or Negative.");
    }
    errors.into_result()?;
    let Some(sentiment) = sentiment else {
        return Err(RpcError::bad_request(
            "Choose Neutral, Positive or Negative.",
        ));
    };
    let id = input.submission_id;
    let marked_at = now();
    transaction!(&mut pooled.db(), |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        let found = marks::find_markable(c, &scope, &id).await?;
        let Some(found) = found else {
            return Err(RpcError::new(ErrorCode::NotFound, "Submission not found"));
        };
        if found.marked_at.is_some() && found.feedback_released_at.is_some() {
            return Err(RpcError::bad_request(RELEASED));
        }
        if found.received_at.is_none() {
            return Err(RpcError::bad_request(
                "This submission has not been handed in yet.",
            ));
        }
        let released_at = found
            .release
            .released_at_marking(found.release_at, marked_at)
            .then_some(marked_at);
        let stored = if found.marked_at.is_some() {
            marks::edit_held(c, &id, &feedback, sentiment, marked_at, released_at).await?
        } else {
            marks::mark(c, &id, &feedback, sentiment, marked_at, released_at).await?
        };
        if !stored {
            // Released (or withdrawn) between the read and the write.
            return Err(RpcError::bad_request(RELEASED));
        }
        audit::record(
            c,
            &user.id,
            Some(&school_id),
            AuditAction::Update,
            "submission",
            &id,
        )
        .await?;
        // The three-times rule counts what a teacher writes for a pupil once: an edit of a
        // held mark is the same feedback, not another use of its phrases.
        if found.marked_at.is_none() {
            comment_bank::record_phrases(c, &school_id, &user.id, &feedback, marked_at).await?;
        }
        if released_at.is_some() {
            crate::jobs::feedback_send::SendFeedback::schedule(c, &id, marked_at).await?;
        }
        let marked = MarkedSubmission {
            submission_id: id.clone(),
            marked_at: marked_at.into(),
            feedback: feedback.clone(),
            feedback_sentiment: SentimentName(sentiment),
            released_at: released_at.map(JsDate::from),
        };
        once.store(c, &marked).await?;
        Ok(marked)
    })
}
