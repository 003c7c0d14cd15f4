//! Marks and their release (issue 28, docs/feedback-release.md): who may mark a
//! submission, marking and editing a held mark, withdrawing it, releasing an assignment's
//! held marks, the Feedback Hub's Marked list and held groups, and an assignment's
//! 'Feedback release' setting. Split from `submissions.rs` and `notifications.rs`, which
//! keep the public page, handing in and the editor.

use chrono::NaiveDateTime;
use core_wasm::FeedbackSentiment;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{notifications, submissions};
use crate::db::DbConn;
use crate::models::submissions::MarkerScope;
use crate::models::waiting::HubRow;
use crate::models::TimeKey;
use crate::before_time;
use crate::with_conn;

/// When a mark's feedback is released to the pupil and parents (docs/feedback-release.md):
/// at once (as before), at `feedback_release_at`, or when the teacher says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FeedbackRelease {
    WhenMarked,
    OnDate,
    ByHand,
}

impl FeedbackRelease {
    pub const ALL: [FeedbackRelease; 3] = [
        FeedbackRelease::WhenMarked,
        FeedbackRelease::OnDate,
        FeedbackRelease::ByHand,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FeedbackRelease::WhenMarked => "WHEN_MARKED",
            FeedbackRelease::OnDate => "ON_DATE",
            FeedbackRelease::ByHand => "BY_HAND",
        }
    }

    pub fn parse(text: &str) -> Option<FeedbackRelease> {
        FeedbackRelease::ALL
            .into_iter()
            .find(|r| r.as_str() == text)
    }

    /// The stored value; anything unknown reads as WHEN_MARKED (the column's default).
    pub fn from_stored(text: &str) -> FeedbackRelease {
        FeedbackRelease::parse(text).unwrap_or(FeedbackRelease::WhenMarked)
    }

    /// Whether a mark made at `at` goes out at once: when marked, or on a date that has
    /// come.
    pub fn released_at_marking(self, release_at: Option<NaiveDateTime>, at: NaiveDateTime) -> bool {
        match self {
            FeedbackRelease::WhenMarked => true,
            FeedbackRelease::OnDate => release_at.is_none_or(|d| d <= at),
            FeedbackRelease::ByHand => false,
        }
    }
}

/// How notification `id` releases its feedback: (setting, date); `None` when it is gone.
pub async fn feedback_release_of(
    conn: &mut DbConn<'_>,
    id: &str,
) -> QueryResult<Option<(FeedbackRelease, Option<NaiveDateTime>)>> {
    let row: Option<(String, Option<NaiveDateTime>)> = with_conn!(conn, |c| notifications::table
        .find(id)
        .select((
            notifications::feedback_release,
            notifications::feedback_release_at
        ))
        .first(c)
        .await
        .optional())?;
    Ok(row.map(|(release, at)| (FeedbackRelease::from_stored(&release), at)))
}

/// Sets how notification `id` releases its feedback (its other fields stay).
pub async fn set_feedback_release(
    conn: &mut DbConn<'_>,
    id: &str,
    release: FeedbackRelease,
    release_at: Option<NaiveDateTime>,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(notifications::table.find(id))
        .set((
            notifications::feedback_release.eq(release.as_str()),
            notifications::feedback_release_at.eq(release_at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// A submission as marking sees it, with its assignment's release setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Markable {
    pub received_at: Option<NaiveDateTime>,
    pub marked_at: Option<NaiveDateTime>,
    pub feedback_released_at: Option<NaiveDateTime>,
    pub student_id: String,
    pub notification_id: String,
    pub release: FeedbackRelease,
    pub release_at: Option<NaiveDateTime>,
}

type MarkableTuple = (
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
    String,
    String,
    String,
    Option<NaiveDateTime>,
);

/// The submission `id` if `scope` may mark it.
pub async fn find_markable(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    id: &str,
) -> QueryResult<Option<Markable>> {
    let row: Option<MarkableTuple> = with_conn!(conn, |c| {
        let mut query = submissions::table
            .inner_join(notifications::table)
            .filter(submissions::id.eq(id))
            .filter(notifications::school_id.eq(&scope.school_id))
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query
            .select((
                submissions::received_at,
                submissions::marked_at,
                submissions::feedback_released_at,
                submissions::student_id,
                submissions::notification_id,
                notifications::feedback_release,
                notifications::feedback_release_at,
            ))
            .first(c)
            .await
            .optional()
    })?;
    Ok(row.map(
        |(
            received_at,
            marked_at,
            feedback_released_at,
            student_id,
            notification_id,
            release,
            release_at,
        )| {
            Markable {
                received_at,
                marked_at,
                feedback_released_at,
                student_id,
                notification_id,
                release: FeedbackRelease::from_stored(&release),
                release_at,
            }
        },
    ))
}

/// Records feedback on a received, unmarked submission; `released_at` is `Some(at)` when
/// it goes out at once, `None` when it is held. Returns whether it changed.
pub async fn mark(
    conn: &mut DbConn<'_>,
    id: &str,
    feedback: &str,
    sentiment: FeedbackSentiment,
    at: NaiveDateTime,
    released_at: Option<NaiveDateTime>,
) -> QueryResult<bool> {
    let changed = with_conn!(conn, |c| diesel::update(
        submissions::table
            .filter(submissions::id.eq(id))
            .filter(submissions::received_at.is_not_null())
            .filter(submissions::marked_at.is_null())
    )
    .set((
        submissions::feedback.eq(Some(feedback)),
        submissions::feedback_sentiment.eq(Some(sentiment)),
        submissions::marked_at.eq(Some(at)),
        submissions::feedback_released_at.eq(released_at),
        submissions::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    crate::models::submissions::publish_change(conn, id).await?;
    Ok(changed == 1)
}

/// Replaces the feedback of a held mark (marked, not released): new text and sentiment,
/// `marked_at` moved to `at` (docs/feedback-release.md), released at once when
/// `released_at` is given. Returns false when the mark is not held (released meanwhile).
pub async fn edit_held(
    conn: &mut DbConn<'_>,
    id: &str,
    feedback: &str,
    sentiment: FeedbackSentiment,
    at: NaiveDateTime,
    released_at: Option<NaiveDateTime>,
) -> QueryResult<bool> {
    let changed = with_conn!(conn, |c| diesel::update(
        submissions::table
            .filter(submissions::id.eq(id))
            .filter(submissions::marked_at.is_not_null())
            .filter(submissions::feedback_released_at.is_null())
    )
    .set((
        submissions::feedback.eq(Some(feedback)),
        submissions::feedback_sentiment.eq(Some(sentiment)),
        submissions::marked_at.eq(Some(at)),
        submissions::feedback_released_at.eq(released_at),
        submissions::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(changed == 1)
}

/// Takes back a held mark: feedback, sentiment and `marked_at` cleared, so the submission
/// waits for marking again. Returns false when the mark is not held.
pub async fn withdraw_held(
    conn: &mut DbConn<'_>,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let changed = with_conn!(conn, |c| diesel::update(
        submissions::table
            .filter(submissions::id.eq(id))
            .filter(submissions::marked_at.is_not_null())
            .filter(submissions::feedback_released_at.is_null())
    )
    .set((
        submissions::feedback.eq(None::<String>),
        submissions::feedback_sentiment.eq(None::<FeedbackSentiment>),
        submissions::marked_at.eq(None::<NaiveDateTime>),
        submissions::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    crate::models::submissions::publish_change(conn, id).await?;
    Ok(changed == 1)
}

/// Releases every held mark of notification `notification_id` at `at`, in one UPDATE that
/// touches only rows still held (`feedback_released_at IS NULL`), so a second run releases
/// nothing. Returns the marks this call released, as (submission id, marked_at), for their
/// e-mails.
pub async fn release_held(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    at: NaiveDateTime,
) -> QueryResult<Vec<(String, NaiveDateTime)>> {
    with_conn!(conn, |c| diesel::update(
        submissions::table
            .filter(submissions::notification_id.eq(notification_id))
            .filter(submissions::marked_at.is_not_null())
            .filter(submissions::feedback_released_at.is_null())
    )
    .set((
        submissions::feedback_released_at.eq(Some(at)),
        submissions::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    // The rows this UPDATE set: another release would have written another instant.
    let rows: Vec<(String, Option<NaiveDateTime>)> = with_conn!(conn, |c| submissions::table
        .filter(submissions::notification_id.eq(notification_id))
        .filter(submissions::feedback_released_at.eq(Some(at)))
        .order(submissions::id.asc())
        .select((submissions::id, submissions::marked_at))
        .load(c)
        .await)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, marked_at)| Some((id, marked_at?)))
        .collect())
}

/// Whether notification `id` is one `scope` may mark (of their school; sent by them unless
/// they see the whole school); its title when it is.
pub async fn markable_notification(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    id: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| {
        let mut query = notifications::table
            .filter(notifications::id.eq(id))
            .filter(notifications::school_id.eq(&scope.school_id))
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query.select(notifications::title).first(c).await.optional()
    })
}

/// One marked submission as the Feedback Hub's Marked list shows it.
#[derive(Debug, Clone)]
pub struct MarkedRow {
    pub hub: HubRow,
    pub marked_at: NaiveDateTime,
    pub feedback: String,
    pub feedback_sentiment: FeedbackSentiment,
    pub feedback_released_at: Option<NaiveDateTime>,
    pub release: FeedbackRelease,
    pub release_at: Option<NaiveDateTime>,
}

/// Marked submissions within `scope`, newest marked first, with the same filters as
/// [`waiting`]; at most `limit` before `before` (the next page). Like the waiting list, three statements: the newest
/// `limit` from the marks index alone, then their text and feedback, then the pupils'
/// names (a school has about 12,000 marked; each was visited with its feedback to keep 200).
pub async fn marked(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    notification_id: Option<&str>,
    class_id: Option<&str>,
    before: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<Vec<MarkedRow>> {
    type Top = (
        (String, Option<NaiveDateTime>, Option<NaiveDateTime>, String),
        (String, String, Option<NaiveDateTime>, String, Option<NaiveDateTime>),
    );
    let top: Vec<Top> =
        with_conn!(conn, |c| {
            let mut query = crate::hub_submissions!(scope, notification_id, class_id, marked: true);
            // The page after `before`, newest marked first: (marked_at, id) < key.
            if let Some(k) = before {
                query = query.filter(before_time!(submissions::marked_at, submissions::id, k));
            }
            query
            .order((submissions::marked_at.desc(), submissions::id.desc()))
            .limit(limit)
            .select((
                (
                    submissions::id,
                    submissions::received_at,
                    submissions::marked_at,
                    submissions::student_id,
                ),
                (
                    notifications::id,
                    notifications::title,
                    notifications::submission_due_date,
                    notifications::feedback_release,
                    notifications::feedback_release_at,
                ),
            ))
            .load(c)
            .await
        })?;
    let ids: Vec<&str> = top.iter().map(|t| t.0 .0.as_str()).collect();
    type Detail = (String, Option<String>, String, Option<String>, Option<FeedbackSentiment>, Option<NaiveDateTime>);
    let details: Vec<Detail> = if ids.is_empty() {
        Vec::new()
    } else {
        with_conn!(conn, |c| submissions::table
            .filter(submissions::id.eq_any(&ids))
            .select((
                submissions::id,
                submissions::content,
                submissions::token,
                submissions::feedback,
                submissions::feedback_sentiment,
                submissions::feedback_released_at,
            ))
            .load(c)
            .await)?
    };
    let mut details: std::collections::HashMap<String, Detail> =
        details.into_iter().map(|d| (d.0.clone(), d)).collect();
    let pupils: Vec<&str> = top.iter().map(|t| t.0 .3.as_str()).collect();
    let names = crate::models::students::names_of(conn, &pupils).await?;
    Ok(top
        .into_iter()
        .filter_map(
            |(
                (submission_id, received_at, marked_at, student_id),
                (notification_id, notification_title, submission_due_date, release, release_at),
            )| {
                let (_, content, token, feedback, feedback_sentiment, feedback_released_at) =
                    details.remove(&submission_id)?;
                let (student_forename, student_surname) = names.get(&student_id)?.clone();
                Some(MarkedRow {
                    hub: HubRow {
                        submission_id,
                        received_at: received_at?,
                        content,
                        token,
                        student_id,
                        student_forename,
                        student_surname,
                        notification_id,
                        notification_title,
                        submission_due_date,
                    },
                    marked_at: marked_at?,
                    feedback: feedback.unwrap_or_default(),
                    feedback_sentiment: feedback_sentiment.unwrap_or(FeedbackSentiment::Neutral),
                    feedback_released_at,
                    release: FeedbackRelease::from_stored(&release),
                    release_at,
                })
            },
        )
        .collect())
}

/// How many marked submissions [`marked`] would list without its limit.
pub async fn marked_count(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    notification_id: Option<&str>,
    class_id: Option<&str>,
) -> QueryResult<i64> {
    with_conn!(conn, |c| crate::hub_submissions!(scope, notification_id, class_id, marked: true)
        .count()
        .get_result(c)
        .await)
}

/// The assignments within `scope` with held marks: (notification id, title, held count,
/// release setting, release date), by title.
pub async fn held_groups(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
) -> QueryResult<Vec<(String, String, i64, String, Option<NaiveDateTime>)>> {
    let rows: Vec<(String, String, String, Option<NaiveDateTime>)> = with_conn!(conn, |c| {
        let mut query = submissions::table
            .inner_join(notifications::table)
            .filter(notifications::school_id.eq(&scope.school_id))
            .filter(submissions::marked_at.is_not_null())
            .filter(submissions::feedback_released_at.is_null())
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query
            .order((notifications::title.asc(), notifications::id.asc()))
            .select((
                notifications::id,
                notifications::title,
                notifications::feedback_release,
                notifications::feedback_release_at,
            ))
            .load(c)
            .await
    })?;
    // Counted here: a class's held marks are few, and a boxed GROUP BY does not type-check.
    let mut groups: Vec<(String, String, i64, String, Option<NaiveDateTime>)> = Vec::new();
    for (id, title, release, release_at) in rows {
        match groups.last_mut() {
            Some(last) if last.0 == id => last.2 += 1,
            _ => groups.push((id, title, 1, release, release_at)),
        }
    }
    Ok(groups)
}

/// How many marks of notification `id` are held.
pub async fn held_count(conn: &mut DbConn<'_>, notification_id: &str) -> QueryResult<i64> {
    with_conn!(conn, |c| submissions::table
        .filter(submissions::notification_id.eq(notification_id))
        .filter(submissions::marked_at.is_not_null())
        .filter(submissions::feedback_released_at.is_null())
        .count()
        .get_result(c)
        .await)
}
