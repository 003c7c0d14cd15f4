//! Who a notification goes to: the stored filter shape (`notifications.filters`) and the
//! query that turns it into pupils of one school. See `docs/jobs-and-mail.md`.

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;
use serde::{Deserialize, Serialize};

use crate::db::schema::{class_students, students};
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
