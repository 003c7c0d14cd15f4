//! `feedback.withdraw`: takes back a held mark (docs/feedback-release.md) — its feedback,
//! sentiment and `markedAt` are cleared, so the submission waits in the Hub again — with
//! an audit row. A released mark is refused with [`RELEASED`]: pupils may have seen it.

use crate::models::audit::{self, AuditAction};
use crate::models::{marks, now};
use crate::rpc::feedback::mark::RELEASED;
use crate::rpc::feedback::scope;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct WithdrawInput {
        pub submission_id: String,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

rpc_type! {
    /// The submission whose mark was withdrawn (it waits for marking again).
    pub struct WithdrawnMark {
        pub submission_id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: WithdrawInput) -> RpcResult<WithdrawnMark> {
    let user = ctx.require_user()?;
    let scope = scope(ctx)?;
    let school_id = ctx.school_id()?.to_owned();
    let once = Once::new(ctx, &input.idempotency_key)?;
    let mut pooled = ctx.conn().await?;
    if let Some(first) = once.replay(&mut pooled.db()).await? {
        return Ok(first);
    }
    let id = input.submission_id;
    transaction!(&mut pooled.db(), |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        let Some(found) = marks::find_markable(c, &scope, &id).await? else {
            return Err(RpcError::new(ErrorCode::NotFound, "Submission not found"));
        };
        if found.marked_at.is_none() {
            return Err(RpcError::bad_request(
                "This submission has not been marked, so there is nothing to withdraw.",
            ));
        }
        if found.feedback_released_at.is_some()
            || !marks::withdraw_held(c, &id, now()).await?
        {
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
        let answer = WithdrawnMark {
            submission_id: id.clone(),
        };
        once.store(c, &answer).await?;
        Ok(answer)
    })
}
