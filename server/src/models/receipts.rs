//! Receipts (`notification_receipts`): which pupils a notification was sent to, and when.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{notification_receipts, students};
use crate::db::DbConn;
use crate::with_conn;

/// A receipt: `sent_at` is NULL until the pupil's e-mail went out.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = notification_receipts)]
pub struct NewReceipt {
    pub notification_id: String,
    pub student_id: String,
    pub sent_at: Option<NaiveDateTime>,
}

pub async fn insert_receipt(conn: &mut DbConn<'_>, receipt: &NewReceipt) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(notification_receipts::table)
        .values(receipt)
        .execute(c)
        .await)?;
    Ok(())
}

/// How many receipts notification `id` has (pupils it was sent to).
pub async fn receipt_count(conn: &mut DbConn<'_>, id: &str) -> QueryResult<i64> {
    with_conn!(conn, |c| notification_receipts::table
        .filter(notification_receipts::notification_id.eq(id))
        .count()
        .get_result(c)
        .await)
}

/// A pupil a notification was sent to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptRow {
    pub student_id: String,
    pub forename: String,
    pub surname: String,
    pub sent_at: Option<NaiveDateTime>,
}

/// The receipts of notification `id`, by surname and forename.
pub async fn receipts_of(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Vec<ReceiptRow>> {
    let rows: Vec<(String, String, String, Option<NaiveDateTime>)> =
        with_conn!(conn, |c| notification_receipts::table
            .inner_join(students::table)
            .filter(notification_receipts::notification_id.eq(id))
            .order((
                students::surname.asc(),
                students::forename.asc(),
                students::id.asc()
            ))
            .select((
                students::id,
                students::forename,
                students::surname,
                notification_receipts::sent_at,
            ))
            .load(c)
            .await)?;
    Ok(rows
        .into_iter()
        .map(|(student_id, forename, surname, sent_at)| ReceiptRow {
            student_id,
            forename,
            surname,
            sent_at,
        })
        .collect())
}
