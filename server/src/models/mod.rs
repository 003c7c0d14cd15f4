//! Row types, insert forms and reusable queries, one file per concern. Every function takes
//! a `&mut DbConn` so that it runs the same inside a transaction or outside one.

pub mod accounts;
pub mod address_refusals;
pub mod bounces;
pub mod assistant_queries;
pub mod attempts;
pub mod audit;
pub mod billing;
pub mod comment_bank;
pub mod comments;
pub mod deliveries;
pub mod email_preferences;
pub mod groups;
pub mod hub_count;
pub mod idempotency;
pub mod insights;
pub mod jobs;
pub mod marks;
pub mod mis;
pub mod multipart_uploads;
pub mod mis_credentials;
pub mod mis_runs;
pub mod notifications;
pub mod organisations;
pub mod privacy;
pub mod receipts;
pub mod reports;
pub mod roster;
pub mod recipients;
pub mod sessions;
pub mod stored_files;
pub mod students;
pub mod submissions;
pub mod task_context;
pub mod task_items;
pub mod task_submissions;
pub mod templates;
pub mod translations;
pub mod user_directory;
pub mod users;
pub mod waiting;

use chrono::{NaiveDateTime, SubsecRound, Utc};

/// The current UTC time, truncated to microseconds so it round-trips through both backends.
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc().trunc_subsecs(6)
}

/// A list's total without counting it, when the first page (read with `limit`, one more
/// than it shows) holds every row; otherwise the caller counts.
pub fn total_of_first_page(first: bool, rows: usize, limit: i64) -> Option<i64> {
    (first && (rows as i64) < limit).then_some(rows as i64)
}

/// Where a page of people by name resumes: strictly after this place in the order by
/// surname, forename and id (docs/scaling.md "Paged lists").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameKey {
    pub surname: String,
    pub forename: String,
    pub id: String,
}

/// Where a page newest first resumes: strictly after this place in the order by a time
/// (creation, last change) and then id, both descending (docs/scaling.md "Paged lists").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeKey {
    pub at: NaiveDateTime,
    pub id: String,
}

/// `(time, id) < key` over a table's time column and id, for the page after `key` of a
/// list newest first (`ORDER BY time DESC, id DESC`): a row comparison, one range of an
/// index on `(.., time, id)` ([`crate::db::row_lt`]).
#[macro_export]
macro_rules! before_time {
    ($time:expr, $id:expr, $key:expr) => {{
        let k: &$crate::models::TimeKey = $key;
        $crate::db::row_lt(($time, $id), (k.at, k.id.clone()))
    }};
}

/// `(time, id) > key`, for the page after `key` of a list oldest first (`ORDER BY time,
/// id`): the Feedback Hub's waiting list.
#[macro_export]
macro_rules! after_time {
    ($time:expr, $id:expr, $key:expr) => {{
        let k: &$crate::models::TimeKey = $key;
        $crate::db::row_gt(($time, $id), (k.at, k.id.clone()))
    }};
}

/// `(surname, forename, id) > key` over a table's columns, for a page after `key`: the same
/// filter for users and pupils, one range of the index on `(school_id, surname, forename,
/// id)`. Written as a macro since each table's columns are types.
#[macro_export]
macro_rules! after_name {
    ($table:ident, $key:expr) => {{
        let k: &$crate::models::NameKey = $key;
        $crate::db::row_gt(
            ($table::surname, $table::forename, $table::id),
            (k.surname.clone(), k.forename.clone(), k.id.clone()),
        )
    }};
}

#[cfg(test)]
mod tests {
    use super::total_of_first_page;

    #[test]
    fn a_first_page_that_holds_every_row_is_the_total() {
        // Read with a limit one more than the page of 50.
        assert_eq!(total_of_first_page(true, 0, 51), Some(0));
        assert_eq!(total_of_first_page(true, 50, 51), Some(50));
        assert_eq!(total_of_first_page(true, 51, 51), None, "more follow: counted");
        assert_eq!(total_of_first_page(false, 3, 51), None, "a later page never tells");
    }
}
