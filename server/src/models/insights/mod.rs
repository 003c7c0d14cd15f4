//! Insights for leaders (issue 29 items 4 and 5, docs/insights.md): hand-in and on-time
//! counts, marking turnaround percentiles, feedback sentiment, parents reached and the
//! pupils to look at, over a scope (schools, and for a teacher only the assignments they
//! sent) and filters. Every aggregate is computed in SQL, written once for both backends:
//! the statements use `?` placeholders, numbered `$1…` for PostgreSQL and kept prepared by
//! their text (`db::prepared`). Only a timestamp's day and the time between two differ per
//! backend ([`day_number`], [`tenths_between`]). Each statement answers few rows (per
//! assignment, per day, per group and tenth of an hour), never one per submission
//! (docs/performance.md).

use chrono::NaiveDateTime;
use diesel::result::QueryResult;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use diesel::QueryableByName;
use diesel_async::RunQueryDsl;

use crate::db::prepared::{Bind, Prepared};
use crate::db::DbConn;

pub mod answers;
mod pupils;
pub use pupils::*;

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
        self.sent_scoped(scope, filter).pupils_filtered(filter)
    }

    /// The scope and the teacher filter, over notifications `n` alone (no leading ` AND`).
    fn sent_scoped(&mut self, scope: &Scope, filter: &Filter) -> &mut Self {
        self.push(" n.school_id IN ").list(&scope.school_ids);
        self.senders(scope, filter)
    }

    /// ` AND …` for the sender of a teacher's scope and the teacher filter, over `n`.
    fn senders(&mut self, scope: &Scope, filter: &Filter) -> &mut Self {
        if let Some(sender) = &scope.sender_id {
            self.push(" AND n.sender_id = ").text(sender);
        }
        if let Some(teacher) = &filter.teacher_id {
            self.push(" AND n.sender_id = ").text(teacher);
        }
        self
    }

    /// ` AND …` for the year, form and class filters, over pupils `p`.
    fn pupils_filtered(&mut self, filter: &Filter) -> &mut Self {
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

/// Runs `sql` on either backend, loading rows of `R` (small answers: grouped in SQL).
async fn load<R>(conn: &mut DbConn<'_>, sql: Sql) -> QueryResult<Vec<R>>
where
    R: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + Send + 'static,
{
    let mut rows = Vec::new();
    each_row(conn, sql, |row| rows.push(row)).await?;
    Ok(rows)
}

/// Runs `sql` on either backend and hands each row of `R` to `each` as it arrives, never
/// holding them all (a trust's marks are a million rows: as a `Vec` they were most of a
/// process's peak memory, docs/scaling.md).
async fn each_row<R>(conn: &mut DbConn<'_>, sql: Sql, mut each: impl FnMut(R) + Send) -> QueryResult<()>
where
    R: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + Send + 'static,
{
    use futures_util::TryStreamExt;
    // Kept prepared by its text (`db::prepared`): one school's reads are planned once per
    // connection, not on every request.
    let query = Prepared::new(sql.text, sql.binds);
    macro_rules! run {
        ($c:expr) => {{
            let mut rows = query.load_stream::<R>($c).await?;
            while let Some(row) = rows.try_next().await? {
                each(row);
            }
            Ok(())
        }};
    }
    match conn {
        DbConn::Postgres(pg) => run!(&mut **pg),
        DbConn::Sqlite(lite) => run!(&mut **lite),
    }
}

/// Whole days since 1970-01-01 of a timestamp expression, per backend: cheap to group by
/// (no text per row).
fn day_number(conn: &DbConn<'_>, expr: &str) -> String {
    match conn {
        DbConn::Postgres(_) => format!("CAST(CAST({expr} AS DATE) - DATE '1970-01-01' AS BIGINT)"),
        DbConn::Sqlite(_) => format!("CAST(julianday({expr}) - 2440587.5 AS INTEGER)"),
    }
}

/// Tenths of an hour from `from` to `to` (two timestamp expressions), rounded half up, in
/// whole seconds so the rounding is exact: nearest-rank percentiles of these equal the
/// percentiles of the hours rounded to the tenth the page shows (rounding keeps the order).
fn tenths_between(conn: &DbConn<'_>, from: &str, to: &str) -> String {
    match conn {
        DbConn::Postgres(_) => {
            format!("CAST(FLOOR(date_part('epoch', {to} - {from}) / 360.0 + 0.5) AS BIGINT)")
        }
        // Whole seconds from the two julian days (exact once rounded), then integer tenths.
        DbConn::Sqlite(_) => format!(
            "(CAST(ROUND((julianday({to}) - julianday({from})) * 86400.0) AS INTEGER) * 10 + 1800) / 3600"
        ),
    }
}

/// The date of a day number of [`day_number`].
pub fn date_of_day(day: i64) -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(1970, 1, 1).expect("epoch") + chrono::Duration::days(day)
}

const FROM_SUBMISSIONS: &str = " FROM notifications n JOIN submissions s ON s.notification_id = n.id \
     JOIN students p ON p.id = s.student_id WHERE";

impl Filter {
    /// Whether a statement needs the pupils (`p`): only for the year, form and class filters.
    fn on_pupils(&self) -> bool {
        self.year_group_id.is_some() || self.form_group_id.is_some() || self.class_id.is_some()
    }

    /// ` FROM notifications n JOIN submissions s …` with the pupils only when filtered on:
    /// the join costs a pass over every pupil for nothing otherwise.
    fn from_submissions(&self) -> &'static str {
        if self.on_pupils() {
            FROM_SUBMISSIONS
        } else {
            " FROM notifications n JOIN submissions s ON s.notification_id = n.id WHERE"
        }
    }
}

/// Hand-ins of one assignment due in the range.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct AssignmentHandIns {
    #[diesel(sql_type = Timestamp)]
    pub due: NaiveDateTime,
    /// Submissions (pupils the assignment went to).
    #[diesel(sql_type = BigInt)]
    pub assigned: i64,
    #[diesel(sql_type = BigInt)]
    pub handed_in: i64,
    #[diesel(sql_type = BigInt)]
    pub on_time: i64,
}

/// Hand-ins per assignment due in `[from, to)`: one row per assignment (hundreds), counted
/// from the submissions by the assignment's index; the caller sums them per week.
pub async fn hand_ins(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<AssignmentHandIns>> {
    let mut sql = Sql::default();
    sql.push(
        "SELECT n.submission_due_date AS due, COUNT(*) AS assigned, COUNT(s.received_at) AS handed_in, \
         COUNT(CASE WHEN s.received_at <= n.submission_due_date THEN 1 END) AS on_time",
    )
    .push(filter.from_submissions())
    .scoped(scope, filter)
    .push(" AND n.type = 'ASSIGNMENT' AND n.submission_due_date >= ")
    .time(from)
    .push(" AND n.submission_due_date < ")
    .time(to)
    .push(" GROUP BY n.id, n.submission_due_date");
    load(conn, sql).await
}

/// One mark made in the range: who sent the assignment, whose work, the day marked, the
/// sentiment and the tenths of an hour from hand-in to mark (none when never handed in).
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct Mark {
    /// The assignment's school; empty when the scope is one school.
    #[diesel(sql_type = Text)]
    pub school_id: String,
    #[diesel(sql_type = Text)]
    pub sender_id: String,
    #[diesel(sql_type = Text)]
    pub student_id: String,
    /// [`day_number`]: days since 1970-01-01 ([`date_of_day`]).
    #[diesel(sql_type = BigInt)]
    pub day: i64,
    #[diesel(sql_type = Nullable<Text>)]
    pub sentiment: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    pub tenths: Option<i64>,
}

/// The marks made in `[from, to)` that count for sentiment or turnaround, read once for
/// both (and for turnaround per teacher and per class): one pass over the marked
/// submissions, five narrow columns, each row handed to `each` as it arrives (the caller
/// groups them; none is kept). Grouping in SQL cost
/// a sort per statement, and per class a join that counts every mark once per class of the
/// pupil (five times over, in a secondary school).
pub async fn marks(
    conn: &mut DbConn<'_>,
    scope: &Scope,
    filter: &Filter,
    from: NaiveDateTime,
    to: NaiveDateTime,
    each: impl FnMut(Mark) + Send,
) -> QueryResult<()> {
    let day = day_number(conn, "s.marked_at");
    let tenths = tenths_between(conn, "s.received_at", "s.marked_at");
    // One school's marks all name it: 36 bytes a row for nothing (a school reads 12,000).
    let school = if scope.school_ids.len() > 1 { "n.school_id" } else { "''" };
    let mut sql = Sql::default();
    sql.push(&format!(
        "SELECT {school} AS school_id, n.sender_id AS sender_id, s.student_id AS student_id, {day} AS day, \
         s.feedback_sentiment AS sentiment, {tenths} AS tenths"
    ))
    .push(filter.from_submissions())
    .scoped(scope, filter)
    .push(" AND s.marked_at >= ")
    .time(from)
    .push(" AND s.marked_at < ")
    .time(to)
    .push(" AND (s.received_at IS NOT NULL OR s.feedback_sentiment IS NOT NULL)");
    each_row(conn, sql, each).await
}

/// A pupil's membership of a class.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct Membership {
    #[diesel(sql_type = Text)]
    pub class_id: String,
    #[diesel(sql_type = Text)]
    pub student_id: String,
}

/// Every pupil's classes in `school_ids`, each handed to `each` as it arrives.
pub async fn memberships(
    conn: &mut DbConn<'_>,
    school_ids: &[String],
    each: impl FnMut(Membership) + Send,
) -> QueryResult<()> {
    let mut sql = Sql::default();
    sql.push(
        "SELECT cs.class_id AS class_id, cs.student_id AS student_id FROM class_students cs \
         JOIN classes c ON c.id = cs.class_id WHERE c.school_id IN ",
    )
    .list(school_ids);
    each_row(conn, sql, each).await
}

/// One group's marking turnaround: marks counted, median and 90th percentile hours from
/// hand-in to mark, to the tenth (nearest rank: the value at rank ⌈p·n⌉ of the sorted hours).
#[derive(Debug, Clone, PartialEq)]
pub struct Turnaround {
    pub id: String,
    pub name: String,
    pub marks: i64,
    pub median_hours: f64,
    pub p90_hours: f64,
}

/// The turnaround of each group of `tenths` (sorted here), named from `names`, by name.
pub fn turnarounds(groups: impl IntoIterator<Item = (String, Vec<i32>)>, names: &[Choice]) -> Vec<Turnaround> {
    // Looked up by id: a trust has thousands of classes, each named once.
    let names: std::collections::HashMap<&str, &str> =
        names.iter().map(|c| (c.id.as_str(), c.name.as_str())).collect();
    let mut out: Vec<Turnaround> = groups
        .into_iter()
        .filter(|(_, tenths)| !tenths.is_empty())
        .map(|(id, mut tenths)| {
            tenths.sort_unstable();
            let n = tenths.len() as i64;
            let at = |rank: i64| f64::from(tenths[(rank.max(1) - 1) as usize]) / 10.0;
            Turnaround {
                name: names.get(id.as_str()).map(|n| (*n).to_owned()).unwrap_or_default(),
                id,
                marks: n,
                median_hours: at((n + 1) / 2),
                p90_hours: at((9 * n + 9) / 10),
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
    out
}

/// What [`names`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// Users, "forename surname".
    Users,
    Classes,
    Schools,
}

/// The names of the users, classes or schools `ids`.
pub async fn names(conn: &mut DbConn<'_>, what: Named, ids: &[String]) -> QueryResult<Vec<Choice>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut sql = Sql::default();
    sql.push(match what {
        Named::Classes => "SELECT id, name FROM classes WHERE id IN ",
        Named::Schools => "SELECT id, name FROM schools WHERE id IN ",
        Named::Users => "SELECT id, forename || ' ' || surname AS name FROM users WHERE id IN ",
    })
    .list(ids);
    load(conn, sql).await
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
