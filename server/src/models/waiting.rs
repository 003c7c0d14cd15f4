//! Submissions handed in and waiting for a mark, as the Feedback Hub and the dashboard list
//! them: the list a page at a time (oldest first), its count under the Hub's filters, the
//! assignments with work waiting (the filter's choices), and the text and token of listed
//! rows. Who may see what is `models::submissions::MarkerScope`.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{notifications, submissions};
use crate::db::DbConn;
use crate::models::submissions::MarkerScope;
use crate::models::TimeKey;
use crate::{after_time, with_conn};

/// One waiting submission as the Feedback Hub and the dashboard list it.
#[derive(Debug, Clone)]
pub struct HubRow {
    pub submission_id: String,
    pub received_at: NaiveDateTime,
    pub content: Option<String>,
    pub token: String,
    pub student_id: String,
    pub student_forename: String,
    pub student_surname: String,
    pub notification_id: String,
    pub notification_title: String,
    pub submission_due_date: Option<NaiveDateTime>,
}

/// Submissions handed in within `scope` (a teacher's own assignments, or the whole school),
/// marked or not (`$marked`), optionally of one notification or of the pupils of one class:
/// the rows the Hub's two lists and their counts read (`models::marks` reads the marked
/// ones). No pupils joined: the names are read for the listed rows only. A macro since a
/// boxed query cannot be shared between two `with_conn!` arms.
#[macro_export]
macro_rules! hub_submissions {
    ($scope:expr, $notification_id:expr, $class_id:expr, marked: $marked:expr) => {{
        use $crate::db::schema::{class_students, notifications, submissions};
        let mut query = submissions::table
            .inner_join(notifications::table)
            .filter(notifications::school_id.eq(&$scope.school_id))
            .filter(submissions::received_at.is_not_null())
            .into_boxed();
        query = if $marked {
            query.filter(submissions::marked_at.is_not_null())
        } else {
            query.filter(submissions::marked_at.is_null())
        };
        if let Some(sender) = &$scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        if let Some(notification_id) = $notification_id {
            query = query.filter(submissions::notification_id.eq(notification_id));
        }
        if let Some(class_id) = $class_id {
            query = query.filter(
                submissions::student_id.eq_any(
                    class_students::table
                        .filter(class_students::class_id.eq(class_id))
                        .select(class_students::student_id),
                ),
            );
        }
        query
    }};
}

/// How many submissions wait within `scope` under the Hub's filters (the waiting index alone).
pub async fn waiting_count(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    notification_id: Option<&str>,
    class_id: Option<&str>,
) -> QueryResult<i64> {
    with_conn!(conn, |c| crate::hub_submissions!(scope, notification_id, class_id, marked: false)
        .count()
        .get_result(c)
        .await)
}

/// Submissions received and not marked within `scope`, oldest received first; optionally
/// only those of one notification or of the pupils of one class; at most `limit` after
/// `after` (the Hub's next page: docs/scaling.md "Paged lists").
///
/// Three short statements rather than one join (issue 30, docs/scaling.md "A thousand
/// schools"): the first `limit` from the waiting index and the school's notifications alone
/// (ids, times, pupils, assignments), then the text and token of those rows only, then
/// their pupils' names. Sorting a school's 4,500 waiting rows with their text and names
/// joined visited every one of them to keep 500.
pub async fn waiting(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
    notification_id: Option<&str>,
    class_id: Option<&str>,
    after: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<Vec<HubRow>> {
    type Top = (String, Option<NaiveDateTime>, String, (String, String, Option<NaiveDateTime>));
    let top: Vec<Top> = with_conn!(conn, |c| {
        let mut query = crate::hub_submissions!(scope, notification_id, class_id, marked: false);
        // The page after `after`, oldest first: (received_at, id) > key.
        if let Some(k) = after {
            query = query.filter(after_time!(submissions::received_at, submissions::id, k));
        }
        query
            .order((submissions::received_at.asc(), submissions::id.asc()))
            .limit(limit)
            .select((
                submissions::id,
                submissions::received_at,
                submissions::student_id,
                (
                    notifications::id,
                    notifications::title,
                    notifications::submission_due_date,
                ),
            ))
            .load(c)
            .await
    })?;
    let ids: Vec<&str> = top.iter().map(|t| t.0.as_str()).collect();
    let mut texts = texts_of(conn, &ids).await?;
    let pupils: Vec<&str> = top.iter().map(|t| t.2.as_str()).collect();
    let names = crate::models::students::names_of(conn, &pupils).await?;
    Ok(top
        .into_iter()
        .filter_map(
            |(submission_id, received_at, student_id, (notification_id, notification_title, submission_due_date))| {
                let (content, token) = texts.remove(&submission_id)?;
                let (student_forename, student_surname) = names.get(&student_id)?.clone();
                Some(HubRow {
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
                })
            },
        )
        .collect())
}

/// The text and link token of each of `ids`, by id: one statement for a listed page.
pub async fn texts_of(
    conn: &mut DbConn<'_>,
    ids: &[&str],
) -> QueryResult<std::collections::HashMap<String, (Option<String>, String)>> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let rows: Vec<(String, Option<String>, String)> = with_conn!(conn, |c| submissions::table
        .filter(submissions::id.eq_any(ids))
        .select((submissions::id, submissions::content, submissions::token))
        .load(c)
        .await)?;
    Ok(rows.into_iter().map(|(id, content, token)| (id, (content, token))).collect())
}

/// The assignments within `scope` with work waiting for a mark, by title: the Hub's
/// filter. Each of the school's notifications is looked up in the waiting index.
pub async fn with_work_waiting(
    conn: &mut DbConn<'_>,
    scope: &MarkerScope,
) -> QueryResult<Vec<(String, String)>> {
    with_conn!(conn, |c| {
        let mut query = notifications::table
            .filter(notifications::school_id.eq(&scope.school_id))
            .filter(diesel::dsl::exists(
                submissions::table
                    .filter(submissions::notification_id.eq(notifications::id))
                    .filter(submissions::received_at.is_not_null())
                    .filter(submissions::marked_at.is_null()),
            ))
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query
            .order((notifications::title.asc(), notifications::id.asc()))
            .select((notifications::id, notifications::title))
            .load(c)
            .await
    })
}
