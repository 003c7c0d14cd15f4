//! `feedback.release`: releases every held mark of one assignment at once
//! (docs/feedback-release.md). In one transaction it sets `feedbackReleasedAt` on each and
//! queues the same `feedback.email` job marking queues (one e-mail per recipient); it
//! answers how many it released (0 when nothing was held: pressing twice is harmless). Only
//! those who may mark the assignment (`MarkerScope`) may release it; anyone else gets
//! NOT_FOUND.

use crate::jobs::feedback_release::release_now;
use crate::models::audit::{self, AuditAction};
use crate::models::{marks, now};
use crate::rpc::feedback::scope;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct ReleaseInput {
        pub notification_id: String,
    }
}

rpc_type! {
    pub struct ReleasedFeedback {
        /// Marks released by this call.
        pub released: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: ReleaseInput) -> RpcResult<ReleasedFeedback> {
    let user = ctx.require_user()?;
    let scope = scope(ctx)?;
    let school_id = ctx.school_id()?.to_owned();
    let mut pooled = ctx.conn().await?;
    let id = input.notification_id;
    transaction!(&mut pooled.db(), |c| {
        if marks::markable_notification(c, &scope, &id)
            .await?
            .is_none()
        {
            return Err(RpcError::new(ErrorCode::NotFound, "Assignment not found."));
        }
        let released = release_now(c, &id, now()).await?;
        if released > 0 {
            audit::record(
                c,
                &user.id,
                Some(&school_id),
                AuditAction::Update,
                "notification",
                &id,
            )
            .await?;
        }
        Ok(ReleasedFeedback {
            released: released as i64,
        })
    })
}
