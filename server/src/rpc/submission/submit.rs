//! `submission.submit`: the pupil hands in (or again, until marked) their text; files go
//! to `/api/submissions/{id}/{token}/files` first.

use crate::models::{now, stored_files, submissions};
use crate::rpc::submission::{find_by_link, link_invalid, view, PublicSubmissionView};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};

/// The longest text a pupil may hand in, in characters.
pub const MAX_CONTENT: usize = core_wasm::limits::MAX_SUBMISSION_CHARS;

rpc_type! {
    pub struct SubmitInput {
        pub id: String,
        pub token: String,
        pub content: String,
    }
}

pub async fn handler(ctx: &Ctx, input: SubmitInput) -> RpcResult<PublicSubmissionView> {
    let content = input.content.trim();
    if content.chars().count() > MAX_CONTENT {
        return Err(RpcError::field(
            "content",
            core_wasm::limits::too_long_message(MAX_CONTENT),
        ));
    }
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let submission = find_by_link(&mut conn, &input.id, &input.token)
        .await?
        .ok_or_else(link_invalid)?;
    if submission.marked_at.is_some() {
        // A held mark says nothing about the feedback (docs/feedback-release.md).
        return Err(RpcError::bad_request(
            if submission.feedback_released_at.is_some() {
                "This work has already been marked, so it cannot be changed."
            } else {
                "Your teacher is marking this work, so it cannot be changed."
            },
        ));
    }
    if content.is_empty()
        && stored_files::of_submission(&mut conn, &submission.id)
            .await?
            .is_empty()
    {
        return Err(RpcError::field(
            "content",
            "Write your answer or add a file before handing in.",
        ));
    }
    let stored = (!content.is_empty()).then_some(content);
    if !submissions::hand_in(&mut conn, &submission.id, stored, now()).await? {
        return Err(RpcError::bad_request(
            "This work has already been marked, so it cannot be changed.",
        ));
    }
    let submission = find_by_link(&mut conn, &input.id, &input.token)
        .await?
        .ok_or_else(link_invalid)?;
    view(&mut conn, submission, &input.token).await
}
