//! `student.addComment`: a member of staff comments on a pupil of their school (1 to 2,000
//! characters); audited as a CREATE.

use crate::ids::new_id;
use crate::models::audit::{self, AuditAction};
use crate::models::{comments, now};
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::student::{comment_view, require_student, StudentCommentView};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

/// The longest comment, in characters.
pub const MAX_COMMENT: usize = core_wasm::limits::MAX_COMMENT_CHARS;

rpc_type! {
    pub struct AddCommentInput {
        pub student_id: String,
        pub comment: String,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

pub async fn handler(ctx: &Ctx, input: AddCommentInput) -> RpcResult<StudentCommentView> {
    let user = ctx.require_user()?;
    let once = Once::new(ctx, &input.idempotency_key)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if let Some(first) = once.replay(&mut conn).await? {
        return Ok(first);
    }
    let comment = input.comment.trim().to_owned();
    if comment.is_empty() {
        return Err(RpcError::field("comment", "Write a comment."));
    }
    if comment.chars().count() > MAX_COMMENT {
        return Err(RpcError::field(
            "comment",
            core_wasm::limits::too_long_message(MAX_COMMENT),
        ));
    }
    let school_id = require_student(ctx, &mut conn, &input.student_id).await?;
    let id = new_id();
    let at = now();
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        comments::insert_comment(c, &id, &user.id, &input.student_id, &comment, at).await?;
        audit::record(
            c,
            &user.id,
            Some(&school_id),
            AuditAction::Create,
            "student_comment",
            &id,
        )
        .await?;
        let view = comment_view(
            comments::StudentComment {
                id: id.clone(),
                created_at: at,
                user_id: user.id.clone(),
                author_forename: user.forename.clone(),
                author_surname: user.surname.clone(),
                comment: comment.clone(),
            },
            &user.id,
        );
        once.store(c, &view).await?;
        Ok::<_, RpcError>(view)
    })
}
