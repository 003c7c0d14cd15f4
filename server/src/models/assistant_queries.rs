//! The AI assistant's questions and answers (`assistant_queries`, the spec's AssistantQuery).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::assistant_queries;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::with_conn;

/// Keeps one question (`prompt`) of `user_id` and its answer, asked at `at`.
pub async fn insert(
    conn: &mut DbConn<'_>,
    user_id: &str,
    prompt: &str,
    answer: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(assistant_queries::table)
        .values((
            assistant_queries::id.eq(new_id()),
            assistant_queries::created_at.eq(at),
            assistant_queries::updated_at.eq(at),
            assistant_queries::query.eq(prompt),
            assistant_queries::response.eq(answer),
            assistant_queries::user_id.eq(user_id),
        ))
        .execute(c)
        .await)?;
    Ok(())
}
