//! Pupils' submissions: the public page's view, handing in, the files handed in, who may
//! mark what, marking, and a pupil's timeline. The Feedback Hub's waiting list is in
//! `models::waiting`.

use chrono::NaiveDateTime;
use core_wasm::{FeedbackSentiment, UserRole};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{notifications, schools, students, submissions};
use crate::db::DbConn;
use crate::models::users::User;
use crate::with_conn;
use crate::db::changes::{self, Change};

/// Whose submissions a member of staff may see in the Feedback Hub and mark: those on
/// notifications of their school that they sent, or, for an admin, every notification of
/// their school. `user.feedbackHubCount`, `feedback.list`, `feedback.mark` and the
/// dashboard all go through this one rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MarkerScope {
    pub school_id: String,
    /// `None`: every sender of the school (admins).
    pub sender_id: Option<String>,
}

impl MarkerScope {
    /// The scope of `user`; `None` for a user without a school (a superadmin who chose no
    /// organisation). Admins, and superadmins in the organisation they chose, see the whole
    /// school.
    pub fn for_user(user: &User) -> Option<MarkerScope> {
        let school_id = user.school_id.clone()?;
        let sender_id = match user.role {
            UserRole::Admin | UserRole::Superadmin => None,
            _ => Some(user.id.clone()),
        };
        Some(MarkerScope {
            school_id,
            sender_id,
        })
    }
}

/// What the public submission page shows, read by the submission's id alone (the caller
/// compares the token).
#[derive(Debug, Clone)]
pub struct PublicSubmission {
    pub id: String,
    pub token: String,
    pub received_at: Option<NaiveDateTime>,
    pub marked_at: Option<NaiveDateTime>,
    /// NULL while the mark is held (docs/feedback-release.md): then pupils and parents see
    /// no feedback.
    pub feedback_released_at: Option<NaiveDateTime>,
    pub content: Option<String>,
    pub feedback: Option<String>,
    pub feedback_sentiment: Option<FeedbackSentiment>,
    pub title: String,
    pub custom_title: Option<String>,
    pub body: String,
    pub submission_due_date: Option<NaiveDateTime>,
    pub school_id: String,
    pub school_name: String,
    pub student_forename: String,
}

type PublicRow = (
    (
        String,
        String,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        Option<String>,
        Option<String>,
        Option<FeedbackSentiment>,
        Option<NaiveDateTime>,
    ),
    (String, Option<String>, String, Option<NaiveDateTime>),
    (String, String),
    String,
);

/// The submission `id` with its assignment, school and pupil; `None` when there is none.
pub async fn find_public(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<PublicSubmission>> {
    let row: Option<PublicRow> = with_conn!(conn, |c| submissions::table
        .inner_join(notifications::table.inner_join(schools::table))
        .inner_join(students::table)
        .filter(submissions::id.eq(id))
        .select((
            (
                submissions::id,
                submissions::token,
                submissions::received_at,
                submissions::marked_at,
                submissions::content,
                submissions::feedback,
                submissions::feedback_sentiment,
                submissions::feedback_released_at,
            ),
            (
                notifications::title,
                notifications::custom_title,
                notifications::body,
                notifications::submission_due_date,
            ),
            (schools::id, schools::name),
            students::forename,
        ))
        .first(c)
        .await
        .optional())?;
    Ok(row.map(
        |(
            (
                id,
                token,
                received_at,
                marked_at,
                content,
                feedback,
                feedback_sentiment,
                feedback_released_at,
            ),
            (title, custom_title, body, submission_due_date),
            (school_id, school_name),
            student_forename,
        )| PublicSubmission {
            id,
            token,
            received_at,
            marked_at,
            feedback_released_at,
            content,
            feedback,
            feedback_sentiment,
            title,
            custom_title,
            body,
            submission_due_date,
            school_id,
            school_name,
            student_forename,
        },
    ))
}

/// What a wrong, garbled or revoked link answers.
pub const LINK_INVALID: &str = "This link is invalid or has expired.";

/// Compares two tokens in time that depends only on their lengths.
pub fn token_matches(given: &str, stored: &str) -> bool {
    crate::crypto::constant_time_eq(given.as_bytes(), stored.as_bytes())
}

/// The submission behind a public link, if `token` is its token.
pub async fn find_by_link(
    conn: &mut DbConn<'_>,
    id: &str,
    token: &str,
) -> QueryResult<Option<PublicSubmission>> {
    // Ids and tokens are short ASCII; anything else cannot match and needs no query.
    if id.is_empty() || id.len() > 64 || token.is_empty() || token.len() > 128 {
        return Ok(None);
    }
    let found = find_public(conn, id).await?;
    Ok(found.filter(|s| token_matches(token, &s.token)))
}

#[cfg(test)]
mod link_tests {
    use super::*;

    #[test]
    fn tokens_match_only_when_equal() {
        assert!(token_matches("abc", "abc"));
        assert!(!token_matches("abd", "abc"));
        assert!(!token_matches("ab", "abc"));
        assert!(!token_matches("", "abc"));
    }
}

/// Hands in: sets the text and `received_at`, unless the submission is already marked.
/// Returns whether a row changed (false: marked meanwhile, or gone).
pub async fn hand_in(
    conn: &mut DbConn<'_>,
    id: &str,
    content: Option<&str>,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let changed = with_conn!(conn, |c| diesel::update(
        submissions::table
            .filter(submissions::id.eq(id))
            .filter(submissions::marked_at.is_null())
    )
    .set((
        submissions::content.eq(content),
        submissions::received_at.eq(Some(at)),
        submissions::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    publish_change(conn, id).await?;
    Ok(changed == 1)
}

/// Publishes that submission `id` changed, naming its school (its assignment's), read here
/// by primary key so that no caller can name the wrong one: only that school's kept Feedback
/// Hub counts are dropped. No such submission: nothing changed, nothing is published.
pub async fn publish_change(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    let of_submission = submissions::table.inner_join(notifications::table).filter(submissions::id.eq(id));
    let school: Option<String> =
        with_conn!(conn, |c| of_submission.select(notifications::school_id).first(c).await.optional())?;
    if let Some(school) = school {
        changes::publish(conn, Change::Submissions { school: Some(&school) }).await?;
    }
    Ok(())
}

/// One entry of a pupil's timeline.
#[derive(Debug, Clone)]
pub struct TimelineRow {
    pub submission_id: String,
    pub created_at: NaiveDateTime,
    pub received_at: Option<NaiveDateTime>,
    pub marked_at: Option<NaiveDateTime>,
    pub feedback: Option<String>,
    pub feedback_sentiment: Option<FeedbackSentiment>,
    /// NULL while the mark is held.
    pub feedback_released_at: Option<NaiveDateTime>,
    pub notification_id: String,
    pub notification_title: String,
    pub send_date: Option<NaiveDateTime>,
    pub submission_due_date: Option<NaiveDateTime>,
}

type TimelineTuple = (
    (
        String,
        NaiveDateTime,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        Option<String>,
        Option<FeedbackSentiment>,
        Option<NaiveDateTime>,
    ),
    (String, String, Option<NaiveDateTime>, Option<NaiveDateTime>),
);

/// A pupil's submissions on notifications of `school_id`, newest first (by hand-in, or
/// by when the assignment reached them while not handed in).
pub async fn timeline(
    conn: &mut DbConn<'_>,
    school_id: &str,
    student_id: &str,
) -> QueryResult<Vec<TimelineRow>> {
    let rows: Vec<TimelineTuple> = with_conn!(conn, |c| submissions::table
        .inner_join(notifications::table)
        .filter(submissions::student_id.eq(student_id))
        .filter(notifications::school_id.eq(school_id))
        .select((
            (
                submissions::id,
                submissions::created_at,
                submissions::received_at,
                submissions::marked_at,
                submissions::feedback,
                submissions::feedback_sentiment,
                submissions::feedback_released_at,
            ),
            (
                notifications::id,
                notifications::title,
                notifications::send_date,
                notifications::submission_due_date,
            ),
        ))
        .load(c)
        .await)?;
    let mut rows: Vec<TimelineRow> = rows
        .into_iter()
        .map(
            |(
                (
                    submission_id,
                    created_at,
                    received_at,
                    marked_at,
                    feedback,
                    feedback_sentiment,
                    feedback_released_at,
                ),
                (notification_id, notification_title, send_date, submission_due_date),
            )| TimelineRow {
                feedback_released_at,
                submission_id,
                created_at,
                received_at,
                marked_at,
                feedback,
                feedback_sentiment,
                notification_id,
                notification_title,
                send_date,
                submission_due_date,
            },
        )
        .collect();
    rows.sort_by(|a, b| {
        let key = |r: &TimelineRow| r.received_at.unwrap_or(r.created_at);
        key(b)
            .cmp(&key(a))
            .then_with(|| b.submission_id.cmp(&a.submission_id))
    });
    Ok(rows)
}

/// A notification as the dashboard lists it: (id, title, type, send date, due date).
pub type DashboardNotification = (
    String,
    String,
    core_wasm::NotificationType,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
);

/// Assignments within `scope` due between `from` and `to`, soonest first, at most `limit`.
pub async fn assignments_due(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    from: NaiveDateTime,
    to: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<DashboardNotification>> {
    with_conn!(conn, |c| {
        let mut query = notifications::table
            .filter(notifications::school_id.eq(&scope.school_id))
            .filter(notifications::type_.eq(core_wasm::NotificationType::Assignment))
            .filter(notifications::submission_due_date.ge(from))
            .filter(notifications::submission_due_date.le(to))
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query
            .order((
                notifications::submission_due_date.asc(),
                notifications::id.asc(),
            ))
            .limit(limit)
            .select((
                notifications::id,
                notifications::title,
                notifications::type_,
                notifications::send_date,
                notifications::submission_due_date,
            ))
            .load(c)
            .await
    })
}

/// Notifications within `scope` whose send date is after `after`, soonest first.
pub async fn scheduled(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    after: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<DashboardNotification>> {
    with_conn!(conn, |c| {
        let mut query = notifications::table
            .filter(notifications::school_id.eq(&scope.school_id))
            .filter(notifications::send_date.gt(after))
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query
            .order((notifications::send_date.asc(), notifications::id.asc()))
            .limit(limit)
            .select((
                notifications::id,
                notifications::title,
                notifications::type_,
                notifications::send_date,
                notifications::submission_due_date,
            ))
            .load(c)
            .await
    })
}

/// For one notification: (submissions handed in, submission rows in all).
pub async fn hand_in_counts(
    conn: &mut DbConn<'_>,
    notification_id: &str,
) -> QueryResult<(i64, i64)> {
    let received: Vec<Option<NaiveDateTime>> = with_conn!(conn, |c| submissions::table
        .filter(submissions::notification_id.eq(notification_id))
        .select(submissions::received_at)
        .load(c)
        .await)?;
    let total = received.len() as i64;
    Ok((received.into_iter().flatten().count() as i64, total))
}

// Queries for background jobs.

/// The id and link token of the pupil's submission of an assignment, if it exists.
pub async fn find_link(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    student_id: &str,
) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| submissions::table
        .filter(submissions::notification_id.eq(notification_id))
        .filter(submissions::student_id.eq(student_id))
        .select((submissions::id, submissions::token))
        .first(c)
        .await
        .optional())
}

/// A submission with what its feedback e-mail shows and whom it may go to.
#[derive(Debug, Clone, Queryable)]
pub struct FeedbackForEmail {
    pub notification: crate::models::notifications::EmailedNotification,
    pub token: String,
    pub feedback: Option<String>,
    pub sentiment: Option<FeedbackSentiment>,
    pub marked_at: Option<NaiveDateTime>,
    pub forename: String,
    pub pupil_email: Option<String>,
    pub parent_email: Option<String>,
    /// NULL while the mark is held: then nothing is e-mailed.
    pub feedback_released_at: Option<NaiveDateTime>,
}

pub async fn find_feedback_for_email(
    conn: &mut DbConn<'_>,
    id: &str,
) -> QueryResult<Option<FeedbackForEmail>> {
    with_conn!(conn, |c| submissions::table
        .inner_join(notifications::table)
        .inner_join(students::table)
        .filter(submissions::id.eq(id))
        .select((
            crate::models::notifications::EmailedNotification::as_select(),
            submissions::token,
            submissions::feedback,
            submissions::feedback_sentiment,
            submissions::marked_at,
            students::forename,
            students::email,
            students::parent_email,
            submissions::feedback_released_at,
        ))
        .first(c)
        .await
        .optional())
}
