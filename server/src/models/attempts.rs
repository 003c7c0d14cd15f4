//! Attempt counters in the database (`attempts`, docs/scaling.md): the sign-in, reset,
//! register, sign-in link, password-change and other limits of `auth::rate_limit`, shared
//! by every server process on one PostgreSQL.
//!
//! One row per reserved attempt, `(limit_key, at)`. A reservation locks each of its keys
//! (`pg_advisory_xact_lock(hashtext(key))`, in sorted order so two reservations cannot wait
//! on each other), counts each key's rows within the window, and inserts one row per key
//! only when none is at its limit: all in one transaction, so of 40 parallel reservations
//! from any number of processes exactly `limit` succeed. Giving a slot back deletes the
//! key's latest row under the same lock. Rows older than the window are deleted with their
//! key's next reservation, and all of them now and then ([`prune`]). On SQLite (not used by
//! the server, which counts in memory there) the transaction's `BEGIN IMMEDIATE` does the
//! locking.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;

use crate::db::schema::attempts;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::{transaction, with_conn};

/// Locks `keys` (sorted, without repeats) until the transaction on `conn` ends (PostgreSQL;
/// nothing on SQLite, whose write transactions are serial).
async fn lock(conn: &mut DbConn<'_>, keys: &[&str]) -> QueryResult<()> {
    if let DbConn::Postgres(pg) = conn {
        for key in keys {
            diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
                .bind::<Text, _>(*key)
                .execute(&mut **pg)
                .await?;
        }
    }
    Ok(())
}

/// How many attempts `key` has after `since`.
async fn count_since(conn: &mut DbConn<'_>, key: &str, since: NaiveDateTime) -> QueryResult<i64> {
    with_conn!(conn, |c| attempts::table
        .filter(attempts::limit_key.eq(key))
        .filter(attempts::at.gt(since))
        .count()
        .get_result(c)
        .await)
}

/// Reserves one attempt at `at` for each `(key, limit)` unless any key already has `limit`
/// attempts after `since`; `false` (and nothing written) when one has.
pub async fn try_acquire_all(
    conn: &mut DbConn<'_>,
    keys: &[(&str, usize)],
    at: NaiveDateTime,
    since: NaiveDateTime,
) -> QueryResult<bool> {
    let mut names: Vec<&str> = keys.iter().map(|(key, _)| *key).collect();
    names.sort_unstable();
    names.dedup();
    transaction!(conn, |c| {
        lock(c, &names).await?;
        for (key, limit) in keys {
            let limit = i64::try_from(*limit).unwrap_or(i64::MAX);
            if count_since(c, key, since).await? >= limit {
                return Ok(false);
            }
        }
        for (key, _) in keys {
            with_conn!(c, |cc| diesel::insert_into(attempts::table)
                .values((
                    attempts::id.eq(new_id()),
                    attempts::limit_key.eq(*key),
                    attempts::at.eq(at),
                ))
                .execute(cc)
                .await)?;
        }
        with_conn!(c, |cc| diesel::delete(
            attempts::table
                .filter(attempts::limit_key.eq_any(names.clone()))
                .filter(attempts::at.le(since))
        )
        .execute(cc)
        .await)?;
        Ok::<bool, diesel::result::Error>(true)
    })
}

/// Gives back the latest attempt of `key` after `since` (the attempt it guarded succeeded).
pub async fn release(conn: &mut DbConn<'_>, key: &str, since: NaiveDateTime) -> QueryResult<()> {
    transaction!(conn, |c| {
        lock(c, &[key]).await?;
        let latest: Option<String> = with_conn!(c, |cc| attempts::table
            .filter(attempts::limit_key.eq(key))
            .filter(attempts::at.gt(since))
            .order((attempts::at.desc(), attempts::id.desc()))
            .select(attempts::id)
            .first(cc)
            .await
            .optional())?;
        if let Some(id) = latest {
            with_conn!(c, |cc| diesel::delete(attempts::table.find(id)).execute(cc).await)?;
        }
        Ok::<(), diesel::result::Error>(())
    })
}

/// Forgets every attempt of `key` (a successful sign-in clears the account's failures).
pub async fn clear(conn: &mut DbConn<'_>, key: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(attempts::table.filter(attempts::limit_key.eq(key)))
        .execute(c)
        .await)?;
    Ok(())
}

/// Deletes every attempt at or before `before` (outside every window); returns how many.
pub async fn prune(conn: &mut DbConn<'_>, before: NaiveDateTime) -> QueryResult<usize> {
    with_conn!(conn, |c| diesel::delete(attempts::table.filter(attempts::at.le(before)))
        .execute(c)
        .await)
}

/// How many attempts `key` has after `since` (tests, the operator's questions).
pub async fn count(conn: &mut DbConn<'_>, key: &str, since: NaiveDateTime) -> QueryResult<i64> {
    count_since(conn, key, since).await
}
