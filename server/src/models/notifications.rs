//! Notifications (messages and assignments): writing, editing, listing (Activity) and their
//! status; the submission rows created with them. Receipts are in `receipts.rs`.

use chrono::NaiveDateTime;
use core_wasm::{FeedbackSentiment, NotificationType};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{notifications, submissions};
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

pub async fn insert_submission(
    conn: &mut DbConn<'_>,
    submission: &NewSubmission,
) -> QueryResult<()> {
    // A row written already marked (demo data) was released when it was marked.
    with_conn!(conn, |c| diesel::insert_into(submissions::table)
        .values((
            submission,
            submissions::feedback_released_at.eq(submission.marked_at),
        ))
        .execute(c)
        .await)?;
    crate::models::submissions::publish_change(conn, &submission.id).await?;
    Ok(())
}

/// Submissions received and not yet marked that `scope` may mark (the notifications the
/// caller sent, or every notification of the school for an admin): the Feedback Hub count.
/// The rule lives in `submissions::MarkerScope`, shared with `feedback.list`.
pub async fn feedback_hub_count(
    conn: &mut DbConn<'_>,
    scope: &crate::models::submissions::MarkerScope,
) -> QueryResult<i64> {
    crate::models::hub_count::waiting(conn, scope).await
}

pub use authoring::*;

/// Writing, editing and listing notifications (the editor and Activity), and the one
/// definition of a notification's status. Kept in its own module so that its imports stay
/// apart from the receipts and submissions code above.
mod authoring {
    use std::collections::HashMap;

    use chrono::NaiveDateTime;
    use core_wasm::NotificationType;
    use diesel::prelude::*;
    use diesel::result::QueryResult;
    use diesel_async::RunQueryDsl;

    use crate::db::schema::{notification_receipts, notifications, students, submissions, users};
    pub use crate::models::marks::FeedbackRelease;
    use crate::db::DbConn;
    use crate::db::{like_pattern, lower, row_lt};
    use crate::with_conn;

    /// A notification as stored.
    #[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
    #[diesel(table_name = notifications)]
    pub struct NotificationRow {
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
        pub filters: String,
        pub sender_id: String,
        pub school_id: String,
        /// WHEN_MARKED, ON_DATE or BY_HAND ([`FeedbackRelease`]).
        pub feedback_release: String,
        pub feedback_release_at: Option<NaiveDateTime>,
    }

    impl NotificationRow {
        /// When this notification's feedback reaches pupils and parents.
        pub fn release(&self) -> FeedbackRelease {
            FeedbackRelease::from_stored(&self.feedback_release)
        }
    }

    /// What an edit may change (everything but type, sender and school).
    #[derive(Debug, Clone, AsChangeset)]
    #[diesel(table_name = notifications, treat_none_as_null = true)]
    pub struct NotificationChanges {
        pub updated_at: NaiveDateTime,
        pub title: String,
        pub custom_title: Option<String>,
        pub body: String,
        pub send_date: Option<NaiveDateTime>,
        pub submission_due_date: Option<NaiveDateTime>,
        pub send_to_parent: bool,
        pub send_to_pupil: bool,
        pub filters: String,
    }

    /// Whose notifications a caller may see: the school's, and only their own unless
    /// `sender_id` is None (admins see the whole school's).
    #[derive(Debug, Clone)]
    pub struct NotificationScope {
        pub school_id: String,
        pub sender_id: Option<String>,
    }

    impl NotificationScope {
        /// What a user with `role` sees at `school_id`: an admin the school's notifications,
        /// anyone else the ones they sent.
        pub fn for_user(school_id: String, user_id: &str, role: core_wasm::UserRole) -> Self {
            let admin = core_wasm::roles::has_role(role, &[core_wasm::UserRole::Admin]);
            NotificationScope {
                school_id,
                sender_id: (!admin).then(|| user_id.to_owned()),
            }
        }
    }

    /// The notification `id` if `scope` may see it.
    pub async fn find_in_scope(
        conn: &mut DbConn<'_>,
        scope: &NotificationScope,
        id: &str,
    ) -> QueryResult<Option<NotificationRow>> {
        with_conn!(conn, |c| {
            let mut query = notifications::table
                .filter(notifications::id.eq(id))
                .filter(notifications::school_id.eq(&scope.school_id))
                .select(NotificationRow::as_select())
                .into_boxed();
            if let Some(sender) = &scope.sender_id {
                query = query.filter(notifications::sender_id.eq(sender));
            }
            query.first(c).await.optional()
        })
    }

    /// Applies `changes` to notification `id`.
    pub async fn update(
        conn: &mut DbConn<'_>,
        id: &str,
        changes: &NotificationChanges,
    ) -> QueryResult<()> {
        with_conn!(conn, |c| diesel::update(notifications::table.find(id))
            .set(changes)
            .execute(c)
            .await)?;
        Ok(())
    }

    /// The idempotency key of the send job of a notification as last saved at `updated_at`:
    /// each save schedules its own send, so an edit is never swallowed by the old key.
    pub fn send_job_key(id: &str, updated_at: NaiveDateTime) -> String {
        format!("notification.send:{id}:{updated_at}")
    }

    /// The status of the job with this idempotency key (QUEUED, RUNNING, DONE, FAILED).
    pub async fn job_status(conn: &mut DbConn<'_>, key: &str) -> QueryResult<Option<String>> {
        crate::models::jobs::status_by_key(conn, key).await
    }

    /// Takes the still-queued send job with this key off the queue (an edit replaces it).
    /// Returns false when the job is no longer queued (it is running or ran): then the
    /// notification is being sent and must not change.
    pub async fn withdraw_queued_send(conn: &mut DbConn<'_>, key: &str) -> QueryResult<bool> {
        if crate::models::jobs::delete_queued_by_key(conn, key).await? > 0 {
            return Ok(true);
        }
        Ok(job_status(conn, key).await?.is_none())
    }

    /// Where a notification is on its way (spec: scheduled, in progress, delivered, ended).
    /// See docs/notifications.md for the definitions; [`notification_status`] is the one
    /// place they are computed.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    pub enum NotificationStatus {
        Scheduled,
        InProgress,
        Delivered,
        Ended,
    }

    impl NotificationStatus {
        pub const ALL: [NotificationStatus; 4] = [
            NotificationStatus::Scheduled,
            NotificationStatus::InProgress,
            NotificationStatus::Delivered,
            NotificationStatus::Ended,
        ];

        pub fn as_str(self) -> &'static str {
            match self {
                NotificationStatus::Scheduled => "SCHEDULED",
                NotificationStatus::InProgress => "IN_PROGRESS",
                NotificationStatus::Delivered => "DELIVERED",
                NotificationStatus::Ended => "ENDED",
            }
        }
    }

    /// The status of a notification at `now`:
    /// - **scheduled**: no receipt written yet and its send date is in the future;
    /// - **in progress**: otherwise, while the send job of its last save exists and is not
    ///   DONE (queued, running, or failed and waiting for an operator);
    /// - **ended**: otherwise, an assignment whose due date has passed;
    /// - **delivered**: otherwise (sent).
    pub fn notification_status(
        row: &NotificationRow,
        has_receipts: bool,
        send_job_status: Option<&str>,
        now: NaiveDateTime,
    ) -> NotificationStatus {
        if !has_receipts && row.send_date.is_some_and(|at| at > now) {
            return NotificationStatus::Scheduled;
        }
        if send_job_status.is_some_and(|s| s != "DONE") {
            return NotificationStatus::InProgress;
        }
        if row.kind == NotificationType::Assignment
            && row.submission_due_date.is_some_and(|due| due <= now)
        {
            return NotificationStatus::Ended;
        }
        NotificationStatus::Delivered
    }

    /// A notification with what Activity shows about it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ActivityRow {
        pub notification: NotificationRow,
        pub sender_name: String,
        pub status: NotificationStatus,
        /// Receipts written (0 before sending).
        pub receipts: i64,
        pub submissions: i64,
        pub marked: i64,
        /// Marks whose feedback is held (docs/feedback-release.md).
        pub held: i64,
    }

    /// The counts and status of each of `rows`, in order.
    pub async fn with_activity(
        conn: &mut DbConn<'_>,
        rows: Vec<(NotificationRow, String)>,
        now: NaiveDateTime,
    ) -> QueryResult<Vec<ActivityRow>> {
        let ids: Vec<String> = rows.iter().map(|(r, _)| r.id.clone()).collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let receipts: Vec<(String, i64)> = with_conn!(conn, |c| notification_receipts::table
            .filter(notification_receipts::notification_id.eq_any(&ids))
            .group_by(notification_receipts::notification_id)
            .select((
                notification_receipts::notification_id,
                diesel::dsl::count_star()
            ))
            .load(c)
            .await)?;
        let received: Vec<(String, i64)> = with_conn!(conn, |c| submissions::table
            .filter(submissions::notification_id.eq_any(&ids))
            .filter(submissions::received_at.is_not_null())
            .group_by(submissions::notification_id)
            .select((submissions::notification_id, diesel::dsl::count_star()))
            .load(c)
            .await)?;
        let marked: Vec<(String, i64)> = with_conn!(conn, |c| submissions::table
            .filter(submissions::notification_id.eq_any(&ids))
            .filter(submissions::marked_at.is_not_null())
            .group_by(submissions::notification_id)
            .select((submissions::notification_id, diesel::dsl::count_star()))
            .load(c)
            .await)?;
        let held: Vec<(String, i64)> = with_conn!(conn, |c| submissions::table
            .filter(submissions::notification_id.eq_any(&ids))
            .filter(submissions::marked_at.is_not_null())
            .filter(submissions::feedback_released_at.is_null())
            .group_by(submissions::notification_id)
            .select((submissions::notification_id, diesel::dsl::count_star()))
            .load(c)
            .await)?;
        let held: HashMap<String, i64> = held.into_iter().collect();
        let keys: Vec<String> = rows
            .iter()
            .map(|(r, _)| send_job_key(&r.id, r.updated_at))
            .collect();
        let jobs_found = crate::models::jobs::statuses_by_keys(conn, &keys).await?;
        let receipts: HashMap<String, i64> = receipts.into_iter().collect();
        let received: HashMap<String, i64> = received.into_iter().collect();
        let marked: HashMap<String, i64> = marked.into_iter().collect();
        let job_of: HashMap<String, String> = jobs_found
            .into_iter()
            .filter_map(|(k, s)| k.map(|k| (k, s)))
            .collect();
        Ok(rows
            .into_iter()
            .map(|(notification, sender_name)| {
                let sent = receipts.get(&notification.id).copied().unwrap_or(0);
                let key = send_job_key(&notification.id, notification.updated_at);
                let status = notification_status(
                    &notification,
                    sent > 0,
                    job_of.get(&key).map(String::as_str),
                    now,
                );
                ActivityRow {
                    receipts: sent,
                    submissions: received.get(&notification.id).copied().unwrap_or(0),
                    marked: marked.get(&notification.id).copied().unwrap_or(0),
                    held: held.get(&notification.id).copied().unwrap_or(0),
                    status,
                    sender_name,
                    notification,
                }
            })
            .collect())
    }

    /// One page of the notifications `scope` may see, newest first (by creation, then id),
    /// optionally with a title (or custom title) containing `search`: at most `limit` after
    /// `after` (a row's (created_at, id); from the newest without); and how many match in all.
    pub async fn list_page(
        conn: &mut DbConn<'_>,
        scope: &NotificationScope,
        search: Option<&str>,
        after: Option<&(NaiveDateTime, String)>,
        limit: i64,
    ) -> QueryResult<(Vec<(NotificationRow, String)>, i64)> {
        let pattern = search.filter(|s| !s.trim().is_empty()).map(like_pattern);
        macro_rules! filtered {
            () => {{
                let mut query = notifications::table
                    .inner_join(users::table)
                    .filter(notifications::school_id.eq(&scope.school_id))
                    .into_boxed();
                if let Some(sender) = &scope.sender_id {
                    query = query.filter(notifications::sender_id.eq(sender));
                }
                if let Some(p) = &pattern {
                    query = query.filter(
                        lower(notifications::title)
                            .like(p.clone())
                            .escape('\\')
                            .or(lower(notifications::custom_title.assume_not_null())
                                .like(p.clone())
                                .escape('\\')),
                    );
                }
                query
            }};
        }
        let rows: Vec<(NotificationRow, String, String)> = with_conn!(conn, |c| {
            let mut query = filtered!();
            if let Some((at, id)) = after {
                query = query.filter(row_lt(
                    (notifications::created_at, notifications::id),
                    (*at, id.clone()),
                ));
            }
            query
                .order((notifications::created_at.desc(), notifications::id.desc()))
                .limit(limit)
                .select((NotificationRow::as_select(), users::forename, users::surname))
                .load(c)
                .await
        })?;
        let total = match crate::models::total_of_first_page(after.is_none(), rows.len(), limit) {
            Some(total) => total,
            None => with_conn!(conn, |c| filtered!().count().get_result(c).await)?,
        };
        Ok((
            rows.into_iter()
                .map(|(row, forename, surname)| (row, format!("{forename} {surname}")))
                .collect(),
            total,
        ))
    }

    /// The display name of user `id`.
    pub async fn user_name(conn: &mut DbConn<'_>, id: &str) -> QueryResult<String> {
        let (forename, surname): (String, String) = with_conn!(conn, |c| users::table
            .find(id)
            .select((users::forename, users::surname))
            .first(c)
            .await)?;
        Ok(format!("{forename} {surname}"))
    }

    /// A pupil's submission to a notification.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SubmissionRow {
        pub id: String,
        pub student_id: String,
        pub forename: String,
        pub surname: String,
        pub received_at: Option<NaiveDateTime>,
        pub marked_at: Option<NaiveDateTime>,
        pub sentiment: Option<String>,
    }

    /// The submissions of notification `id` that were handed in, earliest first.
    pub async fn submissions_of(
        conn: &mut DbConn<'_>,
        id: &str,
    ) -> QueryResult<Vec<SubmissionRow>> {
        #[allow(clippy::type_complexity)]
        let rows: Vec<(
            String,
            String,
            String,
            String,
            Option<NaiveDateTime>,
            Option<NaiveDateTime>,
            Option<String>,
        )> = with_conn!(conn, |c| submissions::table
            .inner_join(students::table)
            .filter(submissions::notification_id.eq(id))
            .filter(submissions::received_at.is_not_null())
            .order((submissions::received_at.asc(), submissions::id.asc()))
            .select((
                submissions::id,
                students::id,
                students::forename,
                students::surname,
                submissions::received_at,
                submissions::marked_at,
                submissions::feedback_sentiment,
            ))
            .load(c)
            .await)?;
        Ok(rows
            .into_iter()
            .map(
                |(id, student_id, forename, surname, received_at, marked_at, sentiment)| {
                    SubmissionRow {
                        id,
                        student_id,
                        forename,
                        surname,
                        received_at,
                        marked_at,
                        sentiment,
                    }
                },
            )
            .collect())
    }
}

// Queries for background jobs.

/// The notification fields an e-mail shows.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub struct EmailedNotification {
    pub id: String,
    #[diesel(column_name = type_)]
    pub kind: NotificationType,
    pub title: String,
    pub custom_title: Option<String>,
    pub body: String,
    pub submission_due_date: Option<NaiveDateTime>,
    pub send_to_parent: bool,
    pub school_id: String,
}

impl EmailedNotification {
    /// The custom title when it is not blank, else the title.
    pub fn heading(&self) -> &str {
        self.custom_title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(&self.title)
    }
}

/// Notification `id` as an e-mail shows it, with its school's name.
pub async fn find_for_email(
    conn: &mut DbConn<'_>,
    id: &str,
) -> QueryResult<Option<(EmailedNotification, String)>> {
    use crate::db::schema::schools;
    with_conn!(conn, |c| notifications::table
        .inner_join(schools::table)
        .filter(notifications::id.eq(id))
        .select((EmailedNotification::as_select(), schools::name))
        .first(c)
        .await
        .optional())
}

/// The notification fields sending needs.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub struct Sendable {
    pub id: String,
    #[diesel(column_name = type_)]
    pub kind: NotificationType,
    pub send_date: Option<NaiveDateTime>,
    pub send_to_parent: bool,
    pub send_to_pupil: bool,
    pub filters: String,
    pub school_id: String,
}

pub async fn find_sendable(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<Sendable>> {
    with_conn!(conn, |c| notifications::table
        .find(id)
        .select(Sendable::as_select())
        .first(c)
        .await
        .optional())
}
