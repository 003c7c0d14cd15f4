//! The `idempotency_keys` table: the first answer to each (user, key) that the browser's
//! outbox sent, kept [`KEEP_FOR`] (docs/offline.md, "Exactly once on the server"). The
//! rules (what a replay gets) are `crate::rpc::idempotent`; this file only stores rows.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::idempotency_keys;
use crate::db::DbConn;
use crate::with_conn;

/// How long a key and its first answer are kept: the outbox replays within this time get
/// the first answer; the sweep (`jobs::idempotency_sweep`) deletes older rows.
pub const KEEP_FOR: Duration = Duration::days(7);

/// A stored key.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = idempotency_keys)]
pub struct StoredKey {
    pub procedure: String,
    pub request_hash: String,
    /// The first answer as superjson text; `None` while the first call is still running.
    pub response: Option<String>,
    pub created_at: NaiveDateTime,
}

/// A key to reserve: who sent it, for which procedure and which request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey<'a> {
    pub user_id: &'a str,
    pub key: &'a str,
    pub procedure: &'a str,
    pub request_hash: &'a str,
}

/// The row of (`user_id`, `key`), if any.
pub async fn find(conn: &mut DbConn<'_>, user_id: &str, key: &str) -> QueryResult<Option<StoredKey>> {
    with_conn!(conn, |c| idempotency_keys::table
        .find((user_id, key))
        .select(StoredKey::as_select())
        .first(c)
        .await
        .optional())
}

/// Inserts the key with no answer yet; false when the (user, key) row exists already.
/// Under PostgreSQL an insert racing another transaction's insert of the same key waits for
/// it to commit (then answers false) or roll back (then inserts): never a unique violation.
pub async fn reserve(conn: &mut DbConn<'_>, new: &NewKey<'_>, at: NaiveDateTime) -> QueryResult<bool> {
    let inserted = with_conn!(conn, |c| diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::user_id.eq(new.user_id),
            idempotency_keys::key.eq(new.key),
            idempotency_keys::procedure.eq(new.procedure),
            idempotency_keys::request_hash.eq(new.request_hash),
            idempotency_keys::created_at.eq(at),
        ))
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    Ok(inserted == 1)
}

/// Records the first answer of a reserved key.
pub async fn store_response(
    conn: &mut DbConn<'_>,
    user_id: &str,
    key: &str,
    response: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(idempotency_keys::table.find((user_id, key)))
        .set(idempotency_keys::response.eq(response))
        .execute(c)
        .await)?;
    Ok(())
}

/// Takes over a reservation still without an answer that was made at `reserved_at` (its
/// call died): true for exactly one caller, which now runs the request.
pub async fn take_over(
    conn: &mut DbConn<'_>,
    user_id: &str,
    key: &str,
    reserved_at: NaiveDateTime,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let updated = with_conn!(conn, |c| diesel::update(
        idempotency_keys::table
            .find((user_id, key))
            .filter(idempotency_keys::response.is_null())
            .filter(idempotency_keys::created_at.eq(reserved_at))
    )
    .set(idempotency_keys::created_at.eq(at))
    .execute(c)
    .await)?;
    Ok(updated == 1)
}

/// Deletes a reservation that has no answer (its call failed), so that a retry runs again.
pub async fn release(conn: &mut DbConn<'_>, user_id: &str, key: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        idempotency_keys::table
            .find((user_id, key))
            .filter(idempotency_keys::response.is_null())
    )
    .execute(c)
    .await)?;
    Ok(())
}

/// Deletes the key with its answer: what it answered is gone (an upload swept as
/// abandoned), so the next call under it runs anew.
pub async fn forget(conn: &mut DbConn<'_>, user_id: &str, key: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(idempotency_keys::table.find((user_id, key)))
        .execute(c)
        .await)?;
    Ok(())
}

/// Deletes the keys made before `before`; returns how many.
pub async fn delete_older_than(conn: &mut DbConn<'_>, before: NaiveDateTime) -> QueryResult<usize> {
    with_conn!(conn, |c| diesel::delete(
        idempotency_keys::table.filter(idempotency_keys::created_at.lt(before))
    )
    .execute(c)
    .await)
}

/// How many keys `user_id` has stored.
pub async fn count_for_user(conn: &mut DbConn<'_>, user_id: &str) -> QueryResult<i64> {
    with_conn!(conn, |c| idempotency_keys::table
        .filter(idempotency_keys::user_id.eq(user_id))
        .count()
        .get_result(c)
        .await)
}
