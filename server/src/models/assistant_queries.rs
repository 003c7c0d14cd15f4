//! The AI's questions and answers (`assistant_queries`, the spec's AssistantQuery). Every AI
//! call is kept here (autofill, reports, photo analysis, the assistant); the header's
//! assistant marks its own rows with a `filter_id` starting [`ASSISTANT`] followed by the
//! page it was asked on, and its history lists only those.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{assistant_queries, users};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::with_conn;

/// The `filter_id` prefix of the assistant's rows: `assistant:` + the page (`/notifications`).
pub const ASSISTANT: &str = "assistant:";

/// Keeps one question (`prompt`) of `user_id` and its answer, asked at `at`.
pub async fn insert(
    conn: &mut DbConn<'_>,
    user_id: &str,
    prompt: &str,
    answer: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    insert_with_filter(conn, user_id, None, prompt, answer, at).await?;
    Ok(())
}

/// Keeps one question with its context (`filter_id`); answers the new row's id.
pub async fn insert_with_filter(
    conn: &mut DbConn<'_>,
    user_id: &str,
    filter_id: Option<&str>,
    prompt: &str,
    answer: &str,
    at: NaiveDateTime,
) -> QueryResult<String> {
    let id = new_id();
    with_conn!(conn, |c| diesel::insert_into(assistant_queries::table)
        .values((
            assistant_queries::id.eq(&id),
            assistant_queries::created_at.eq(at),
            assistant_queries::updated_at.eq(at),
            assistant_queries::filter_id.eq(filter_id),
            assistant_queries::query.eq(prompt),
            assistant_queries::response.eq(answer),
            assistant_queries::user_id.eq(user_id),
        ))
        .execute(c)
        .await)?;
    Ok(id)
}

/// One of the assistant's kept questions.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = assistant_queries)]
pub struct AssistantQueryRow {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub filter_id: Option<String>,
    pub query: String,
    pub response: Option<String>,
}

/// The assistant's questions of `user_id`, newest first, at most `limit`.
pub async fn assistant_history(
    conn: &mut DbConn<'_>,
    user_id: &str,
    limit: i64,
) -> QueryResult<Vec<AssistantQueryRow>> {
    let prefix = format!("{ASSISTANT}%");
    with_conn!(conn, |c| assistant_queries::table
        .filter(assistant_queries::user_id.eq(user_id))
        .filter(assistant_queries::filter_id.like(&prefix))
        .order((assistant_queries::created_at.desc(), assistant_queries::id.desc()))
        .limit(limit)
        .select(AssistantQueryRow::as_select())
        .load(c)
        .await)
}

/// Deletes one of the assistant's questions of `user_id`; false when there is no such row
/// of theirs.
pub async fn delete_own(conn: &mut DbConn<'_>, user_id: &str, id: &str) -> QueryResult<bool> {
    let prefix = format!("{ASSISTANT}%");
    let deleted = with_conn!(conn, |c| diesel::delete(
        assistant_queries::table
            .filter(assistant_queries::id.eq(id))
            .filter(assistant_queries::user_id.eq(user_id))
            .filter(assistant_queries::filter_id.like(&prefix))
    )
    .execute(c)
    .await)?;
    Ok(deleted > 0)
}

/// Deletes the assistant's questions of every user whose school is `school_id` (the
/// history switched off); answers how many.
pub async fn delete_for_school(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<usize> {
    let prefix = format!("{ASSISTANT}%");
    with_conn!(conn, |c| diesel::delete(
        assistant_queries::table
            .filter(assistant_queries::filter_id.like(&prefix))
            .filter(
                assistant_queries::user_id.eq_any(
                    users::table
                        .filter(users::school_id.eq(school_id))
                        .select(users::id)
                )
            )
    )
    .execute(c)
    .await)
}
