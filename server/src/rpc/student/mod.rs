//! `student.*`: a pupil's profile — details, groups and classes, the timeline of their
//! submissions and feedback, and staff comments. Every call is scoped to the caller's
//! school (`ctx.school_id()`): another school's pupil is NOT_FOUND. Reading a profile
//! and adding or deleting a comment each write an audit row.

pub mod add_comment;
pub mod comments;
pub mod delete_comment;
pub mod get;
pub mod timeline;

use crate::models::comments::StudentComment;
use crate::models::students;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

rpc_type! {
    pub struct StudentIdInput {
        pub id: String,
    }
}

rpc_type! {
    /// A staff comment on a pupil.
    pub struct StudentCommentView {
        pub id: String,
        pub comment: String,
        pub created_at: JsDate,
        pub author_id: String,
        pub author_name: String,
        /// The caller wrote it (and so may delete it).
        pub mine: bool,
    }
}

pub(crate) fn student_not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Pupil not found")
}

/// Checks that pupil `id` belongs to the caller's school; returns the school id.
pub(crate) async fn require_student(
    ctx: &Ctx,
    conn: &mut crate::db::DbConn<'_>,
    id: &str,
) -> RpcResult<String> {
    let school_id = ctx.school_id()?.to_owned();
    students::find_in_school(conn, &school_id, id)
        .await?
        .ok_or_else(student_not_found)?;
    Ok(school_id)
}

pub(crate) fn comment_view(comment: StudentComment, caller: &str) -> StudentCommentView {
    StudentCommentView {
        mine: comment.user_id == caller,
        author_name: format!("{} {}", comment.author_forename, comment.author_surname),
        id: comment.id,
        comment: comment.comment,
        created_at: comment.created_at.into(),
        author_id: comment.user_id,
    }
}
