//! `student.deleteComment`: only a comment's author may delete it (FORBIDDEN for anyone
//! else at the school; NOT_FOUND outside it); audited as a DELETE.

use crate::models::audit::{self, AuditAction};
use crate::models::comments;
use crate::rpc::registry::Done;
use crate::rpc::student::StudentIdInput;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

pub async fn handler(ctx: &Ctx, input: StudentIdInput) -> RpcResult<Done> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?.to_owned();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (author, _student) = comments::find_comment_in_school(&mut conn, &school_id, &input.id)
        .await?
        .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "Comment not found"))?;
    if author != user.id {
        return Err(RpcError::forbidden(
            "Only the author can delete this comment.",
        ));
    }
    transaction!(&mut conn, |c| {
        comments::delete_comment(c, &input.id).await?;
        audit::record(
            c,
            &user.id,
            Some(&school_id),
            AuditAction::Delete,
            "student_comment",
            &input.id,
        )
        .await?;
        Ok::<_, RpcError>(())
    })?;
    Ok(Done::OK)
}
