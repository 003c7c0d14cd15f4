//! `submission.public`: the assignment and the pupil's work, read through the public link.

use crate::models::deliveries;
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
    // The pupil followed the link in their e-mail: Opened on the Reach tab (docs/reach.md).
    if let Err(error) =
        deliveries::mark_opened_by_pupil(&mut conn, &submission.id, crate::models::now()).await
    {
        tracing::warn!(%error, "opening not recorded");
    }
    view(&mut conn, submission, &input.token).await
}
