//! The pupils to look at, a pupil's own assignments and the filters' choices (issue 29,
//! docs/insights.md), written with the builder of [`super`].

use chrono::NaiveDateTime;
use diesel::result::QueryResult;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use diesel::QueryableByName;

use super::{load, Filter, Scope, Sql};
use crate::db::DbConn;

#[derive(Debug, Clone, QueryableByName)]
struct PupilCount {
    #[diesel(sql_type = Text)]
    student_id: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// The (pupil, count) rows `sql` answers.
async fn counts(conn: &mut DbConn<'_>, sql: Sql) -> QueryResult<Vec<(String, i64)>> {
    let rows: Vec<PupilCount> = load(conn, sql).await?;
    Ok(rows.into_iter().map(|r| (r.student_id, r.n)).collect())
}

/// `) x`, the rows per pupil of the statement before, kept for pupils not archived and under
/// the pupil filters: applied once per pupil after grouping, not once per submission.
fn of_pupils<'a>(sql: &'a mut Sql, filter: &Filter) -> &'a mut Sql {
    sql.push(
        ") x JOIN students p ON p.id = x.student_id WHERE p.archived_at IS NULL",
    )
    .pupils_filtered(filter)
}

/// Pupils (not archived) with no hand-in in their last `last` assignments due before `now`,
/// with how many assignments in a row they have not handed in (at least `last`): those due
/// after the latest one they handed in (one due at the same moment counts as handed in).
/// Read from the missed assignments (few) first: only a pupil who missed `last` or more can
/// qualify, so only their latest hand-in is looked up (docs/performance.md "Insights").
pub async fn no_hand_ins(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    last: i64,
    now: NaiveDateTime,
) -> QueryResult<Vec<(String, i64)>> {
    let assignments = |sql: &mut Sql| {
        sql.push(" FROM notifications n JOIN submissions s ON s.notification_id = n.id WHERE")
            .sent_scoped(scope, filter)
            .push(" AND n.type = 'ASSIGNMENT' AND n.submission_due_date < ")
            .time(now);
    };
    let mut sql = Sql::default();
    sql.push("WITH missed AS (SELECT s.student_id AS student_id, n.submission_due_date AS due");
    assignments(&mut sql);
    sql.push(
        " AND s.received_at IS NULL), \
         candidates AS (SELECT student_id FROM missed GROUP BY student_id HAVING COUNT(*) >= ",
    )
    .int(last)
    .push("), handed AS (SELECT s.student_id AS student_id, MAX(n.submission_due_date) AS due");
    assignments(&mut sql);
    sql.push(
        " AND s.received_at IS NOT NULL AND s.student_id IN (SELECT student_id FROM candidates) \
         GROUP BY s.student_id) \
         SELECT x.student_id AS student_id, x.n AS n FROM (SELECT m.student_id AS student_id, \
         COUNT(*) AS n FROM missed m LEFT JOIN handed h ON h.student_id = m.student_id \
         WHERE m.student_id IN (SELECT student_id FROM candidates) \
         AND (h.due IS NULL OR m.due > h.due) GROUP BY m.student_id HAVING COUNT(*) >= ",
    )
    .int(last);
    of_pupils(&mut sql, filter);
    counts(conn, sql).await
}

/// Pupils whose every mark since `since` is NEGATIVE (at least one), with how many.
pub async fn only_negative(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, i64)>> {
    let mut sql = Sql::default();
    sql.push(
        "SELECT x.student_id AS student_id, x.n AS n FROM (SELECT s.student_id AS student_id, \
         COUNT(*) AS n FROM notifications n JOIN submissions s ON s.notification_id = n.id WHERE",
    )
    .sent_scoped(scope, filter)
    .push(" AND s.feedback_sentiment IS NOT NULL AND s.marked_at >= ")
    .time(since)
    .push(
        " GROUP BY s.student_id HAVING COUNT(*) = \
         COUNT(CASE WHEN s.feedback_sentiment = 'NEGATIVE' THEN 1 END)",
    );
    of_pupils(&mut sql, filter);
    counts(conn, sql).await
}

/// Pupils with a parent delivery since `since` that was not sent or bounced, with how many.
pub async fn parents_not_reached(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, i64)>> {
    // The window's deliveries not reached, from their own small index (the predicate is
    // the index's), then their pupils; the messages only when a sender narrows them. The
    // statement must not group deliveries in pupil order (SQLite would walk them all by
    // the pupil index to save the sort, ignoring the date range): `LIMIT -1` (no limit)
    // keeps SQLite from merging the two; PostgreSQL needs no such hint.
    let keep_apart = match conn {
        DbConn::Postgres(_) => "",
        DbConn::Sqlite(_) => " LIMIT -1",
    };
    let by_sender = scope.sender_id.is_some() || filter.teacher_id.is_some();
    let mut sql = Sql::default();
    sql.push("SELECT x.student_id AS student_id, COUNT(*) AS n FROM (SELECT d.student_id AS student_id FROM deliveries d");
    if by_sender {
        sql.push(" JOIN notifications n ON n.id = d.notification_id");
    }
    sql.push(" WHERE d.school_id IN ")
        .list(&scope.school_ids)
        .senders(scope, filter)
        .push(
            " AND d.audience = 'parent' \
             AND (d.not_sent_reason IS NOT NULL OR d.bounced_at IS NOT NULL) AND d.created_at >= ",
        )
        .time(since)
        .push(keep_apart);
    of_pupils(&mut sql, filter).push(" GROUP BY x.student_id");
    counts(conn, sql).await
}

/// A pupil's name and form group, for the list.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct PupilName {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Text)]
    pub forename: String,
    #[diesel(sql_type = Text)]
    pub surname: String,
    #[diesel(sql_type = Nullable<Text>)]
    pub form_group: Option<String>,
}

/// The names of pupils `ids` of `school_ids`, by surname then forename.
pub async fn pupil_names(
    conn: &mut DbConn<'_>,
    school_ids: &[String],
    ids: &[String],
) -> QueryResult<Vec<PupilName>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut sql = Sql::default();
    sql.push(
        "SELECT p.id AS id, p.forename AS forename, p.surname AS surname, f.name AS form_group \
         FROM students p LEFT JOIN form_groups f ON f.id = p.form_group_id WHERE p.school_id IN ",
    )
    .list(school_ids)
    .push(" AND p.id IN ")
    .list(ids)
    .push(" ORDER BY p.surname, p.forename, p.id");
    load(conn, sql).await
}

/// One of a pupil's assignments, for their profile.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct PupilAssignment {
    #[diesel(sql_type = Nullable<Timestamp>)]
    pub due: Option<NaiveDateTime>,
    #[diesel(sql_type = Nullable<Timestamp>)]
    pub received_at: Option<NaiveDateTime>,
    #[diesel(sql_type = Nullable<Timestamp>)]
    pub marked_at: Option<NaiveDateTime>,
    #[diesel(sql_type = Nullable<Timestamp>)]
    pub released_at: Option<NaiveDateTime>,
    #[diesel(sql_type = Nullable<Text>)]
    pub sentiment: Option<String>,
}

/// Pupil `student_id`'s assignments in school `school_id` due in `[from, to)`.
pub async fn pupil_assignments(
    conn: &mut DbConn<'_>,
    school_id: &str,
    student_id: &str,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<PupilAssignment>> {
    let mut sql = Sql::default();
    sql.push(
        "SELECT n.submission_due_date AS due, s.received_at AS received_at, s.marked_at AS marked_at, \
         s.feedback_released_at AS released_at, s.feedback_sentiment AS sentiment FROM submissions s JOIN notifications n ON n.id = s.notification_id \
         WHERE n.school_id = ",
    )
    .text(school_id)
    .push(" AND s.student_id = ")
    .text(student_id)
    .push(" AND n.type = 'ASSIGNMENT' AND n.submission_due_date >= ")
    .time(from)
    .push(" AND n.submission_due_date < ")
    .time(to)
    .push(" ORDER BY n.submission_due_date");
    load(conn, sql).await
}

/// A choice of a filter: id and name.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct Choice {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Text)]
    pub name: String,
}

/// What the filters offer in `school_ids`: `table` is one of year_groups, form_groups,
/// classes, schools; teachers are the users who sent an assignment there.
pub async fn choices(
    conn: &mut DbConn<'_>,
    school_ids: &[String],
    what: &str,
) -> QueryResult<Vec<Choice>> {
    let mut sql = Sql::default();
    match what {
        "teachers" => sql
            .push(
                "SELECT u.id AS id, u.forename || ' ' || u.surname AS name FROM users u WHERE u.id IN \
                 (SELECT n.sender_id FROM notifications n WHERE n.type = 'ASSIGNMENT' AND n.school_id IN ",
            )
            .list(school_ids)
            .push(") ORDER BY u.surname, u.forename, u.id"),
        "schools" => sql
            .push("SELECT id, name FROM schools WHERE id IN ")
            .list(school_ids)
            .push(" ORDER BY name, id"),
        table => sql
            .push(&format!("SELECT id, name FROM {table} WHERE school_id IN "))
            .list(school_ids)
            .push(" ORDER BY name, id"),
    };
    load(conn, sql).await
}
