//! Notifications (messages and assignments), their receipts and pupils' submissions.

use chrono::NaiveDateTime;
use core_wasm::{FeedbackSentiment, NotificationType};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{notification_receipts, notifications, submissions};
use crate::db::DbConn;
use crate::with_conn;

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = notifications)]
pub struct NewNotification {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    #[diesel(column_name = type_)]
    pub kind: NotificationType,
    pub title: String,
    pub custom_title: Option<String>,
    pub body: String,
    pub send_date: Option<NaiveDateTime>,
    pub submission_due_date: Option<NaiveDateTime>,
    pub send_to_parent: bool,
    pub send_to_pupil: bool,
    /// JSON; its shape is defined by the notifications work.
    pub filters: String,
    pub sender_id: String,
    pub school_id: String,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = notification_receipts)]
pub struct NewReceipt {
    pub notification_id: String,
    pub student_id: String,
    pub sent_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = submissions)]
pub struct NewSubmission {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub received_at: Option<NaiveDateTime>,
    pub marked_at: Option<NaiveDateTime>,
    pub content: Option<String>,
    pub feedback: Option<String>,
    pub feedback_sentiment: Option<FeedbackSentiment>,
    /// The secret in the pupil's `/submissions/{id}/{token}` link.
    pub token: String,
    pub notification_id: String,
    pub student_id: String,
}

pub async fn insert(conn: &mut DbConn<'_>, notification: &NewNotification) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(notifications::table)
        .values(notification)
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn insert_receipt(conn: &mut DbConn<'_>, receipt: &NewReceipt) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(notification_receipts::table)
        .values(receipt)
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn insert_submission(
    conn: &mut DbConn<'_>,
    submission: &NewSubmission,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(submissions::table)
        .values(submission)
        .execute(c)
        .await)?;
    Ok(())
}

/// Submissions received and not yet marked on the notifications `user_id` sent: the
/// Feedback Hub count.
pub async fn feedback_hub_count(conn: &mut DbConn<'_>, user_id: &str) -> QueryResult<i64> {
    with_conn!(conn, |c| submissions::table
        .inner_join(notifications::table)
        .filter(notifications::sender_id.eq(user_id))
        .filter(submissions::received_at.is_not_null())
        .filter(submissions::marked_at.is_null())
        .count()
        .get_result(c)
        .await)
}
