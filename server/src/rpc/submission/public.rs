//! `submission.public`: the assignment and the pupil's work, read through the public link.

use crate::rpc::submission::{
    find_by_link, link_invalid, view, PublicSubmissionView, SubmissionLink,
};
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, input: SubmissionLink) -> RpcResult<PublicSubmissionView> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let submission = find_by_link(&mut conn, &input.id, &input.token)
        .await?
        .ok_or_else(link_invalid)?;
    view(&mut conn, submission, &input.token).await
}
