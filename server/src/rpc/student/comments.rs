//! `student.comments`: staff comments on a pupil, newest first.

use crate::models::comments;
use crate::rpc::student::{comment_view, require_student, StudentCommentView, StudentIdInput};
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, input: StudentIdInput) -> RpcResult<Vec<StudentCommentView>> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    require_student(ctx, &mut conn, &input.id).await?;
    Ok(comments::comments(&mut conn, &input.id)
        .await?
        .into_iter()
        .map(|comment| comment_view(comment, &user.id))
        .collect())
}
