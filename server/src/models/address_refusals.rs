//! Addresses a mail server refused for good (`address_refusals`): an SMTP 5xx to the
//! recipient, a hard bounce from a sending service's webhook or a delivery status
//! notification. Nothing more is e-mailed to a refused address until someone edits the
//! pupil's address (docs/reach.md). Addresses are normalised (`crate::addresses`).

use std::collections::HashSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;

use crate::db::schema::address_refusals;
use crate::db::DbConn;
use crate::with_conn;

/// A refused address, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = address_refusals)]
pub struct Refusal {
    pub address: String,
    /// What the mail server said, in its words ("550 5.1.1 User unknown").
    pub reason: String,
    pub refused_at: NaiveDateTime,
}

/// Records that `address` was refused at `at` for `reason` (a later refusal replaces the
/// reason and time).
pub async fn refuse(
    conn: &mut DbConn<'_>,
    address: &str,
    reason: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    let row = Refusal {
        address: address.to_owned(),
        reason: reason.to_owned(),
        refused_at: at,
    };
    with_conn!(conn, |c| diesel::insert_into(address_refusals::table)
        .values(&row)
        .on_conflict(address_refusals::address)
        .do_update()
        .set((
            address_refusals::reason.eq(excluded(address_refusals::reason)),
            address_refusals::refused_at.eq(excluded(address_refusals::refused_at)),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// The refusal of `address`, if it is refused.
pub async fn find(conn: &mut DbConn<'_>, address: &str) -> QueryResult<Option<Refusal>> {
    with_conn!(conn, |c| address_refusals::table
        .find(address)
        .select(Refusal::as_select())
        .first(c)
        .await
        .optional())
}

/// Which of `addresses` are refused.
pub async fn refused_among(
    conn: &mut DbConn<'_>,
    addresses: &[String],
) -> QueryResult<HashSet<String>> {
    let mut refused = HashSet::new();
    for chunk in addresses.chunks(crate::db::MAX_BIND_PARAMS / 2) {
        let found: Vec<String> = with_conn!(conn, |c| address_refusals::table
            .filter(address_refusals::address.eq_any(chunk))
            .select(address_refusals::address)
            .load(c)
            .await)?;
        refused.extend(found);
    }
    Ok(refused)
}

/// Lifts the refusal of `address` (someone saved it again on the pupil's record). Returns
/// whether it was refused.
pub async fn clear(conn: &mut DbConn<'_>, address: &str) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::delete(address_refusals::table.find(address))
        .execute(c)
        .await)?;
    Ok(n > 0)
}
