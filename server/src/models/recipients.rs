//! Who a notification goes to: the stored filter shape (`notifications.filters`) and the
//! query that turns it into pupils of one school. See `docs/jobs-and-mail.md`.

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;
use serde::{Deserialize, Serialize};

use crate::db::schema::{class_students, classes, form_groups, students, year_groups};
use crate::db::DbConn;
use crate::with_conn;

/// A notification's audience, stored as JSON in `notifications.filters`:
/// `{"classes": [..], "yearGroups": [..], "formGroups": [..], "students": [..]}` (ids).
/// The audience is the union of the pupils in any listed class, year group or form group
/// and the listed pupils; a missing list is empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Filters {
    pub classes: Vec<String>,
    pub year_groups: Vec<String>,
    pub form_groups: Vec<String>,
    pub students: Vec<String>,
}

impl Filters {
    /// True when nothing is chosen: such a notification reaches nobody.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
            && self.year_groups.is_empty()
            && self.form_groups.is_empty()
            && self.students.is_empty()
    }

    /// Reads the stored JSON; text that is not a filter object reads as empty filters
    /// (reaching nobody) rather than failing the send.
    pub fn from_stored(json: &str) -> Filters {
        serde_json::from_str(json).unwrap_or_default()
    }

    /// The JSON stored in `notifications.filters`.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}

/// One pupil a notification reaches, with the addresses it may be e-mailed to.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = students)]
pub struct Recipient {
    #[diesel(column_name = id)]
    pub student_id: String,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
}

/// The pupils of `school_id` that `filters` selects, each once, by surname then forename.
/// Ids of another school's classes, form groups or pupils match nothing.
pub async fn resolve_recipients(
    conn: &mut DbConn<'_>,
    school_id: &str,
    filters: &Filters,
) -> QueryResult<Vec<Recipient>> {
    if filters.is_empty() {
        return Ok(Vec::new());
    }
    // One query: the WHERE clause is an OR of the four lists (an empty list is false), so
    // a pupil matched several ways still comes back once.
    with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        // Archived pupils (left the MIS) are no one's audience any more.
        .filter(students::archived_at.is_null())
        .filter(
            students::id
                .eq_any(
                    class_students::table
                        .filter(class_students::class_id.eq_any(&filters.classes))
                        .select(class_students::student_id),
                )
                .or(students::id.eq_any(&filters.students))
                .nullable()
                .or(students::year_group_id.eq_any(&filters.year_groups))
                .or(students::form_group_id.eq_any(&filters.form_groups)),
        )
        .order((
            students::surname.asc(),
            students::forename.asc(),
            students::id.asc(),
        ))
        .select(Recipient::as_select())
        .load(c)
        .await)
}

/// How many pupils [`resolve_recipients`] would return.
pub async fn count_recipients(
    conn: &mut DbConn<'_>,
    school_id: &str,
    filters: &Filters,
) -> QueryResult<i64> {
    if filters.is_empty() {
        return Ok(0);
    }
    with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        // Archived pupils (left the MIS) are no one's audience any more.
        .filter(students::archived_at.is_null())
        .filter(
            students::id
                .eq_any(
                    class_students::table
                        .filter(class_students::class_id.eq_any(&filters.classes))
                        .select(class_students::student_id),
                )
                .or(students::id.eq_any(&filters.students))
                .nullable()
                .or(students::year_group_id.eq_any(&filters.year_groups))
                .or(students::form_group_id.eq_any(&filters.form_groups)),
        )
        .count()
        .get_result(c)
        .await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_read_camel_case_and_missing_lists() {
        let f: Filters =
            serde_json::from_str(r#"{"yearGroups":["y"],"students":["s"]}"#).expect("filters");
        assert_eq!(f.year_groups, vec!["y"]);
        assert!(f.classes.is_empty() && f.form_groups.is_empty());
        assert!(!f.is_empty());
        assert!(Filters::from_stored("not json").is_empty());
        assert_eq!(
            Filters::default().to_stored(),
            r#"{"classes":[],"yearGroups":[],"formGroups":[],"students":[]}"#
        );
    }
}

// Queries for background jobs.
pub use deliveries::*;

/// What a send writes per pupil: a receipt (`notification_receipts`: which pupils a
/// notification was sent to, and when), and for an assignment a submission carrying the
/// pupil's link token; and the receipts a digest gathers.
mod deliveries {
    use chrono::NaiveDateTime;
    use diesel::prelude::*;
    use diesel::result::QueryResult;
    use diesel_async::RunQueryDsl;

    use crate::db::lower;
    use crate::db::schema::{notification_receipts, notifications, schools, students, submissions};
    use crate::db::DbConn;
    use crate::ids::{new_id, new_token};
    use crate::models::notifications::EmailedNotification;
    use crate::with_conn;

    /// The pupils notification `id` already has a receipt for.
    pub async fn receipt_student_ids(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Vec<String>> {
        with_conn!(conn, |c| notification_receipts::table
            .filter(notification_receipts::notification_id.eq(id))
            .select(notification_receipts::student_id)
            .load::<String>(c)
            .await)
    }

    /// Writes a receipt sent at `at` for each of `student_ids` (existing ones are kept).
    pub async fn insert_receipts(
        conn: &mut DbConn<'_>,
        notification_id: &str,
        student_ids: &[String],
        at: NaiveDateTime,
    ) -> QueryResult<()> {
        if student_ids.is_empty() {
            return Ok(());
        }
        let values: Vec<_> = student_ids
            .iter()
            .map(|s| {
                (
                    notification_receipts::notification_id.eq(notification_id.to_owned()),
                    notification_receipts::student_id.eq(s.clone()),
                    notification_receipts::sent_at.eq(Some(at)),
                )
            })
            .collect();
        crate::batch_insert!(
            conn,
            notification_receipts::table,
            values,
            columns = 3,
            |q| q.on_conflict_do_nothing()
        )?;
        Ok(())
    }

    /// The pupils who already have a submission for notification `id`.
    pub async fn submission_student_ids(
        conn: &mut DbConn<'_>,
        id: &str,
    ) -> QueryResult<Vec<String>> {
        with_conn!(conn, |c| submissions::table
            .filter(submissions::notification_id.eq(id))
            .select(submissions::student_id)
            .load::<String>(c)
            .await)
    }

    #[derive(Insertable)]
    #[diesel(table_name = submissions)]
    struct NewSubmissionRow {
        id: String,
        created_at: NaiveDateTime,
        updated_at: NaiveDateTime,
        token: String,
        notification_id: String,
        student_id: String,
    }

    /// Creates an empty submission (fresh id and 256-bit link token) of assignment
    /// `notification_id` for each of `student_ids`.
    pub async fn create_submissions(
        conn: &mut DbConn<'_>,
        notification_id: &str,
        student_ids: &[String],
        at: NaiveDateTime,
    ) -> QueryResult<()> {
        let rows: Vec<NewSubmissionRow> = student_ids
            .iter()
            .map(|s| NewSubmissionRow {
                id: new_id(),
                created_at: at,
                updated_at: at,
                token: new_token(),
                notification_id: notification_id.to_owned(),
                student_id: s.clone(),
            })
            .collect();
        if rows.is_empty() {
            return Ok(());
        }
        crate::batch_insert!(conn, submissions::table, rows, columns = 6)?;
        Ok(())
    }

    /// One receipt to an address, as a digest lists it: the notification, its school and
    /// the school's parent switches, the pupil and both of the pupil's addresses.
    #[derive(Debug, Clone, Queryable)]
    pub struct ReceiptForDigest {
        pub notification: EmailedNotification,
        pub school: String,
        pub student_id: String,
        pub forename: String,
        pub pupil_email: Option<String>,
        pub parent_email: Option<String>,
        pub notify_parents_general: bool,
        pub notify_parents_assignment: bool,
        pub send_to_pupil: bool,
    }

    /// The receipts sent in `(since, until]` to a pupil whose own or parent's address is
    /// `address` (lower case), oldest first.
    pub async fn receipts_for_digest(
        conn: &mut DbConn<'_>,
        address: &str,
        since: NaiveDateTime,
        until: NaiveDateTime,
    ) -> QueryResult<Vec<ReceiptForDigest>> {
        with_conn!(conn, |c| notification_receipts::table
            .inner_join(notifications::table.inner_join(schools::table))
            .inner_join(students::table)
            .filter(notification_receipts::sent_at.gt(since))
            .filter(notification_receipts::sent_at.le(until))
            .filter(
                // NULL addresses compare as NULL: no match, as wanted.
                lower(students::email.assume_not_null())
                    .eq(address)
                    .or(lower(students::parent_email.assume_not_null()).eq(address))
            )
            .order((
                notification_receipts::sent_at.asc(),
                notifications::id.asc()
            ))
            .select((
                EmailedNotification::as_select(),
                schools::name,
                students::id,
                students::forename,
                students::email,
                students::parent_email,
                schools::notify_parents_general,
                schools::notify_parents_assignment,
                notifications::send_to_pupil,
            ))
            .load(c)
            .await)
    }
}

/// Whether every id in `filters` is a class, year group, form group or pupil of `school_id`:
/// a notification stores only ids of its own school (issue 26), not merely reaching nobody
/// with another school's.
pub async fn all_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    filters: &Filters,
) -> QueryResult<bool> {
    macro_rules! count_in_school {
        ($table:ident, $ids:expr) => {{
            let ids: &[String] = $ids;
            if ids.is_empty() {
                0i64
            } else {
                with_conn!(conn, |c| $table::table
                    .filter($table::school_id.eq(school_id))
                    .filter($table::id.eq_any(ids))
                    .count()
                    .get_result::<i64>(c)
                    .await)?
            }
        }};
    }
    let found = count_in_school!(classes, &filters.classes)
        + count_in_school!(year_groups, &filters.year_groups)
        + count_in_school!(form_groups, &filters.form_groups)
        + count_in_school!(students, &filters.students);
    let asked = filters.classes.len()
        + filters.year_groups.len()
        + filters.form_groups.len()
        + filters.students.len();
    Ok(found == asked as i64)
}
