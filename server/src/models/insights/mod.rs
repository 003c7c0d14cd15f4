//! Insights for leaders (issue 29 items 4 and 5, docs/insights.md): hand-in and on-time
//! counts, marking turnaround percentiles, feedback sentiment, parents reached and the
//! pupils to look at, over a scope (schools, and for a teacher only the assignments they
//! sent) and filters. Every aggregate is computed in SQL, written once for both backends:
//! the statements use `?` placeholders, numbered `$1…` for PostgreSQL by [`numbered`]. Only
//! the hours between two timestamps differ per backend ([`hours_between`]).

use chrono::NaiveDateTime;
use diesel::result::QueryResult;
use diesel::sql_types::{BigInt, Double, Nullable, Text, Timestamp};
use diesel::QueryableByName;
use diesel_async::RunQueryDsl;

use crate::db::DbConn;

/// Whose numbers: the schools (one, or a trust's for a MAT user) and, for a teacher, only
/// the notifications they sent (the Feedback Hub's `MarkerScope` rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub school_ids: Vec<String>,
    pub sender_id: Option<String>,
}

/// The page's filters; `None` = all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub year_group_id: Option<String>,
    pub form_group_id: Option<String>,
    pub class_id: Option<String>,
    pub teacher_id: Option<String>,
}

/// A bound value of a statement.
#[derive(Debug, Clone)]
enum Bind {
    Text(String),
    Time(NaiveDateTime),
    Int(i64),
}

/// A statement being written: SQL text with `?` placeholders and their values in order.
#[derive(Debug, Default)]
struct Sql {
    text: String,
    binds: Vec<Bind>,
}

impl Sql {
    fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }
    fn text(&mut self, value: &str) -> &mut Self {
        self.text.push('?');
        self.binds.push(Bind::Text(value.to_owned()));
        self
    }
    fn time(&mut self, value: NaiveDateTime) -> &mut Self {
        self.text.push('?');
        self.binds.push(Bind::Time(value));
        self
    }
    fn int(&mut self, value: i64) -> &mut Self {
        self.text.push('?');
        self.binds.push(Bind::Int(value));
        self
    }
    /// `(?, ?, …)` of `values` (never empty: an empty list matches nothing).
    fn list(&mut self, values: &[String]) -> &mut Self {
        if values.is_empty() {
            return self.push("(NULL)");
        }
        self.push("(");
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.text(v);
        }
        self.push(")")
    }
    /// ` AND …` for the scope and the filters, over notifications `n` and pupils `p`.
    fn scoped(&mut self, scope: &Scope, filter: &Filter) -> &mut Self {
        self.push(" n.school_id IN ").list(&scope.school_ids);
        if let Some(sender) = &scope.sender_id {
            self.push(" AND n.sender_id = ").text(sender);
        }
        if let Some(teacher) = &filter.teacher_id {
            self.push(" AND n.sender_id = ").text(teacher);
        }
        if let Some(year) = &filter.year_group_id {
            self.push(" AND p.year_group_id = ").text(year);
        }
        if let Some(form) = &filter.form_group_id {
            self.push(" AND p.form_group_id = ").text(form);
        }
        if let Some(class) = &filter.class_id {
            self.push(" AND p.id IN (SELECT student_id FROM class_students WHERE class_id = ")
                .text(class)
                .push(")");
        }
        self
    }
}

/// `?` placeholders as PostgreSQL's `$1, $2, …` (no statement here has a `?` in a literal).
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    for ch in sql.chars() {
        if ch == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Runs `sql` on either backend, loading rows of `R`.
async fn load<R>(conn: &mut DbConn<'_>, sql: Sql) -> QueryResult<Vec<R>>
where
    R: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + Send + 'static,
{
    macro_rules! run {
        ($c:expr, $db:ty, $text:expr) => {{
            let mut q = diesel::sql_query($text).into_boxed::<$db>();
            for bind in sql.binds {
                q = match bind {
                    Bind::Text(v) => q.bind::<Text, _>(v),
                    Bind::Time(v) => q.bind::<Timestamp, _>(v),
                    Bind::Int(v) => q.bind::<BigInt, _>(v),
                };
            }
            q.load::<R>($c).await
        }};
    }
    match conn {
        DbConn::Postgres(pg) => run!(&mut **pg, diesel::pg::Pg, numbered(&sql.text)),
        DbConn::Sqlite(lite) => run!(&mut **lite, diesel::sqlite::Sqlite, sql.text.clone()),
    }
}

/// The hours from `from` to `to` (two timestamp expressions) as a double, per backend.
fn hours_between(conn: &DbConn<'_>, from: &str, to: &str) -> String {
    match conn {
        DbConn::Postgres(_) => {
            format!("CAST(EXTRACT(EPOCH FROM ({to} - {from})) AS DOUBLE PRECISION) / 3600.0")
        }
        DbConn::Sqlite(_) => format!("(julianday({to}) - julianday({from})) * 24.0"),
    }
}

/// The day (`yyyy-MM-dd`) of a timestamp expression, the same text on both backends.
fn day_of(expr: &str) -> String {
    format!("SUBSTR(CAST({expr} AS TEXT), 1, 10)")
}

const FROM_SUBMISSIONS: &str = " FROM submissions s JOIN notifications n ON n.id = s.notification_id \
     JOIN students p ON p.id = s.student_id WHERE";

impl Filter {
    /// Whether a statement needs the pupils (`p`): only for the year, form and class filters.
    fn on_pupils(&self) -> bool {
        self.year_group_id.is_some() || self.form_group_id.is_some() || self.class_id.is_some()
    }

    /// ` FROM submissions s JOIN notifications n …` with the pupils only when filtered on:
    /// the join costs a pass over every pupil for nothing otherwise.
    fn from_submissions(&self) -> &'static str {
        if self.on_pupils() {
            FROM_SUBMISSIONS
        } else {
            " FROM submissions s JOIN notifications n ON n.id = s.notification_id WHERE"
        }
    }
}

/// Hand-ins of the assignments due on one day.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct HandInDay {
    #[diesel(sql_type = Text)]
    pub day: String,
    /// Submissions (pupils the assignments went to).
    #[diesel(sql_type = BigInt)]
    pub assigned: i64,
    #[diesel(sql_type = BigInt)]
    pub handed_in: i64,
    #[diesel(sql_type = BigInt)]
    pub on_time: i64,
}

/// Hand-ins per due day of the assignments due in `[from, to)`.
pub async fn hand_ins(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<HandInDay>> {
    let day = day_of("n.submission_due_date");
    let mut sql = Sql::default();
    sql.push(&format!(
        "SELECT {day} AS day, COUNT(*) AS assigned, COUNT(s.received_at) AS handed_in, \
         COUNT(CASE WHEN s.received_at <= n.submission_due_date THEN 1 END) AS on_time"
    ))
    .push(filter.from_submissions())
    .scoped(scope, filter)
    .push(" AND n.type = 'ASSIGNMENT' AND n.submission_due_date >= ")
    .time(from)
    .push(" AND n.submission_due_date < ")
    .time(to)
    .push(&format!(" GROUP BY {day} ORDER BY {day}"));
    load(conn, sql).await
}

/// Marks of one sentiment given on one day.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct SentimentDay {
    #[diesel(sql_type = Text)]
    pub day: String,
    #[diesel(sql_type = Text)]
    pub sentiment: String,
    #[diesel(sql_type = BigInt)]
    pub marks: i64,
}

/// Marks with a sentiment per day marked and sentiment, marked in `[from, to)`.
pub async fn sentiments(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<SentimentDay>> {
    let day = day_of("s.marked_at");
    let mut sql = Sql::default();
    sql.push(&format!(
        "SELECT {day} AS day, s.feedback_sentiment AS sentiment, COUNT(*) AS marks"
    ))
    .push(filter.from_submissions())
    .scoped(scope, filter)
    .push(" AND s.feedback_sentiment IS NOT NULL AND s.marked_at >= ")
    .time(from)
    .push(" AND s.marked_at < ")
    .time(to)
    .push(&format!(" GROUP BY {day}, s.feedback_sentiment ORDER BY {day}"));
    load(conn, sql).await
}

/// By whom turnaround is grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnaroundBy {
    Teacher,
    Class,
}

/// One group's marking turnaround: marks counted, median and 90th percentile hours from
/// hand-in to mark (nearest rank: the value at rank ⌈p·n⌉ of the sorted hours).
#[derive(Debug, Clone, PartialEq)]
pub struct Turnaround {
    pub id: String,
    pub name: String,
    pub marks: i64,
    pub median_hours: f64,
    pub p90_hours: f64,
}

#[derive(Debug, Clone, QueryableByName)]
struct RankRow {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = BigInt)]
    rn: i64,
    #[diesel(sql_type = BigInt)]
    cnt: i64,
    #[diesel(sql_type = Double)]
    hours: f64,
}

/// Turnaround of the marks made in `[from, to)`, per teacher (the assignment's sender) or
/// per class (each class the pupil is in). The ranks come from window functions, so only
/// the two rows per group at the median's and the 90th percentile's rank leave the
/// database.
pub async fn turnaround(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    by: TurnaroundBy,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Turnaround>> {
    let hours = hours_between(conn, "s.received_at", "s.marked_at");
    let (group, join, names) = match by {
        TurnaroundBy::Teacher => (
            "n.sender_id",
            "",
            "JOIN users g ON g.id = r.grp",
        ),
        TurnaroundBy::Class => (
            "cs.class_id",
            " JOIN class_students cs ON cs.student_id = s.student_id",
            "JOIN classes g ON g.id = r.grp",
        ),
    };
    let name = match by {
        TurnaroundBy::Teacher => "g.forename || ' ' || g.surname",
        TurnaroundBy::Class => "g.name",
    };
    let pupils = if filter.on_pupils() { " JOIN students p ON p.id = s.student_id" } else { "" };
    let mut sql = Sql::default();
    sql.push(&format!(
        "WITH t AS (SELECT {group} AS grp, {hours} AS hours FROM submissions s \
         JOIN notifications n ON n.id = s.notification_id{pupils}{join} WHERE"
    ))
    .scoped(scope, filter)
    .push(" AND s.received_at IS NOT NULL AND s.marked_at >= ")
    .time(from)
    .push(" AND s.marked_at < ")
    .time(to)
    .push(
        "), r AS (SELECT grp, hours, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY hours) AS rn, \
         COUNT(*) OVER (PARTITION BY grp) AS cnt FROM t) ",
    )
    .push(&format!(
        "SELECT r.grp AS id, {name} AS name, r.rn AS rn, r.cnt AS cnt, r.hours AS hours FROM r {names} \
         WHERE r.rn = (r.cnt + 1) / 2 OR r.rn = (9 * r.cnt + 9) / 10 ORDER BY name, r.grp, r.rn"
    ));
    let rows: Vec<RankRow> = load(conn, sql).await?;
    let mut out: Vec<Turnaround> = Vec::new();
    for row in rows {
        if out.last().is_none_or(|t| t.id != row.id) {
            out.push(Turnaround {
                id: row.id.clone(),
                name: row.name.clone(),
                marks: row.cnt,
                median_hours: 0.0,
                p90_hours: 0.0,
            });
        }
        let last = out.last_mut().expect("just pushed");
        if row.rn == (row.cnt + 1) / 2 {
            last.median_hours = row.hours;
        }
        if row.rn == (9 * row.cnt + 9) / 10 {
            last.p90_hours = row.hours;
        }
    }
    Ok(out)
}

/// Parent deliveries of one message type: reached (sent, not bounced) of those decided
/// (not still waiting).
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct Reach {
    #[diesel(sql_type = Text)]
    pub kind: String,
    #[diesel(sql_type = BigInt)]
    pub reached: i64,
    #[diesel(sql_type = BigInt)]
    pub decided: i64,
}

/// Parents reached per message type, of the deliveries created in `[from, to)`.
pub async fn reach(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<Reach>> {
    let mut sql = Sql::default();
    sql.push(
        "SELECT n.type AS kind, \
         COUNT(CASE WHEN d.sent_at IS NOT NULL AND d.bounced_at IS NULL THEN 1 END) AS reached, \
         COUNT(CASE WHEN d.sent_at IS NOT NULL OR d.not_sent_reason IS NOT NULL THEN 1 END) AS decided \
         FROM deliveries d JOIN notifications n ON n.id = d.notification_id",
    )
    .push(if filter.on_pupils() { " JOIN students p ON p.id = d.student_id WHERE" } else { " WHERE" })
    .scoped(scope, filter)
    .push(" AND d.audience = 'parent' AND d.created_at >= ")
    .time(from)
    .push(" AND d.created_at < ")
    .time(to)
    .push(" GROUP BY n.type ORDER BY n.type");
    load(conn, sql).await
}

#[derive(Debug, Clone, QueryableByName)]
struct PupilCount {
    #[diesel(sql_type = Text)]
    student_id: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// Pupils (not archived) with no hand-in in their last `last` assignments due before `now`,
/// with that count.
pub async fn no_hand_ins(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    last: i64,
    now: NaiveDateTime,
) -> QueryResult<Vec<(String, i64)>> {
    let mut sql = Sql::default();
    sql.push(
        "WITH ranked AS (SELECT s.student_id AS student_id, s.received_at AS received_at, \
         ROW_NUMBER() OVER (PARTITION BY s.student_id ORDER BY n.submission_due_date DESC, n.id DESC) AS rn",
    )
    .push(FROM_SUBMISSIONS)
    .scoped(scope, filter)
    .push(" AND p.archived_at IS NULL AND n.type = 'ASSIGNMENT' AND n.submission_due_date < ")
    .time(now)
    .push(") SELECT student_id, COUNT(*) AS n FROM ranked WHERE rn <= ")
    .int(last)
    .push(" GROUP BY student_id HAVING COUNT(*) = ")
    .int(last)
    .push(" AND COUNT(received_at) = 0");
    let rows: Vec<PupilCount> = load(conn, sql).await?;
    Ok(rows.into_iter().map(|r| (r.student_id, r.n)).collect())
}

/// Pupils whose every mark since `since` is NEGATIVE (at least one), with how many.
pub async fn only_negative(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, i64)>> {
    let mut sql = Sql::default();
    sql.push("SELECT s.student_id AS student_id, COUNT(*) AS n")
        .push(FROM_SUBMISSIONS)
        .scoped(scope, filter)
        .push(" AND p.archived_at IS NULL AND s.feedback_sentiment IS NOT NULL AND s.marked_at >= ")
        .time(since)
        .push(
            " GROUP BY s.student_id HAVING COUNT(*) = \
             COUNT(CASE WHEN s.feedback_sentiment = 'NEGATIVE' THEN 1 END)",
        );
    let rows: Vec<PupilCount> = load(conn, sql).await?;
    Ok(rows.into_iter().map(|r| (r.student_id, r.n)).collect())
}

/// Pupils with a parent delivery since `since` that was not sent or bounced, with how many.
pub async fn parents_not_reached(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, i64)>> {
    let mut sql = Sql::default();
    sql.push(
        "SELECT d.student_id AS student_id, COUNT(*) AS n FROM deliveries d \
         JOIN notifications n ON n.id = d.notification_id JOIN students p ON p.id = d.student_id WHERE",
    )
    .scoped(scope, filter)
    .push(
        " AND p.archived_at IS NULL AND d.audience = 'parent' \
         AND (d.not_sent_reason IS NOT NULL OR d.bounced_at IS NOT NULL) AND d.created_at >= ",
    )
    .time(since)
    .push(" GROUP BY d.student_id");
    let rows: Vec<PupilCount> = load(conn, sql).await?;
    Ok(rows.into_iter().map(|r| (r.student_id, r.n)).collect())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_placeholders_for_postgres() {
        assert_eq!(numbered("a = ? AND b IN (?, ?)"), "a = $1 AND b IN ($2, $3)");
    }
}
