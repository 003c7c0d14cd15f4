//! The `insight_answers` table: a trust's Insights answers by the hash of their key, as
//! JSON, shared by every process on the database (docs/insights.md "Worked out ahead").
//! What is kept and when it is given is `rpc::insights::trust_answer`; this file only
//! stores rows.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::insight_answers;
use crate::db::DbConn;
use crate::with_conn;

/// How long a row is kept: older ones are deleted as answers are written.
pub const KEEP_FOR: Duration = Duration::days(1);

/// A kept answer.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = insight_answers)]
pub struct StoredAnswer {
    pub body: String,
    pub worked_out_at: NaiveDateTime,
}

/// The answer kept under `key_hash` if it was worked out after `since`: an older one's body
/// (a trust's pupils to look at are some 900 KB) is not read at all.
pub async fn find(conn: &mut DbConn<'_>, key_hash: &str, since: NaiveDateTime) -> QueryResult<Option<StoredAnswer>> {
    with_conn!(conn, |c| insight_answers::table
        .find(key_hash)
        .filter(insight_answers::worked_out_at.gt(since))
        .select(StoredAnswer::as_select())
        .first(c)
        .await
        .optional())
}

/// Keeps `body` under `key_hash`, replacing the answer kept before (two processes' readings
/// of one question racing: the last written stays, both about as new), and deletes the rows
/// older than [`KEEP_FOR`].
pub async fn keep(conn: &mut DbConn<'_>, key_hash: &str, body: &str, worked_out_at: NaiveDateTime) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(insight_answers::table)
        .values((
            insight_answers::key_hash.eq(key_hash),
            insight_answers::body.eq(body),
            insight_answers::worked_out_at.eq(worked_out_at),
        ))
        .on_conflict(insight_answers::key_hash)
        .do_update()
        .set((insight_answers::body.eq(body), insight_answers::worked_out_at.eq(worked_out_at)))
        .execute(c)
        .await)?;
    with_conn!(conn, |c| diesel::delete(insight_answers::table.filter(insight_answers::worked_out_at.lt(worked_out_at - KEEP_FOR)))
        .execute(c)
        .await)?;
    Ok(())
}
