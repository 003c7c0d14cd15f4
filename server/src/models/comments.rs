//! Staff comments on pupils (`student_comments`), with their authors' names.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{student_comments, students, users};
use crate::db::DbConn;
use crate::with_conn;

/// A staff comment on a pupil, with its author's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentComment {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub user_id: String,
    pub author_forename: String,
    pub author_surname: String,
    pub comment: String,
}

/// A pupil's comments, newest first.
pub async fn comments(conn: &mut DbConn<'_>, student_id: &str) -> QueryResult<Vec<StudentComment>> {
    let rows: Vec<(String, NaiveDateTime, String, String, String, String)> =
        with_conn!(conn, |c| student_comments::table
            .inner_join(users::table)
            .filter(student_comments::student_id.eq(student_id))
            .order((
                student_comments::created_at.desc(),
                student_comments::id.desc()
            ))
            .select((
                student_comments::id,
                student_comments::created_at,
                student_comments::user_id,
                users::forename,
                users::surname,
                student_comments::comment,
            ))
            .load(c)
            .await)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, created_at, user_id, author_forename, author_surname, comment)| StudentComment {
                id,
                created_at,
                user_id,
                author_forename,
                author_surname,
                comment,
            },
        )
        .collect())
}

pub async fn insert_comment(
    conn: &mut DbConn<'_>,
    id: &str,
    user_id: &str,
    student_id: &str,
    comment: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(student_comments::table)
        .values((
            student_comments::id.eq(id),
            student_comments::created_at.eq(at),
            student_comments::updated_at.eq(at),
            student_comments::user_id.eq(user_id),
            student_comments::student_id.eq(student_id),
            student_comments::comment.eq(comment),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// The comment `id` if its pupil belongs to `school_id`: (author's user id, student id).
pub async fn find_comment_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| student_comments::table
        .inner_join(students::table)
        .filter(student_comments::id.eq(id))
        .filter(students::school_id.eq(school_id))
        .select((student_comments::user_id, student_comments::student_id))
        .first(c)
        .await
        .optional())
}

pub async fn delete_comment(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        student_comments::table.filter(student_comments::id.eq(id))
    )
    .execute(c)
    .await)?;
    Ok(())
}
