//! The roster: every current pupil of a school with their year and form group names, in
//! name order (`school.listStudents`, the audience picker), and the per-school cache of its
//! encoded answer (issue 15, docs/performance.md).

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;
use rustc_hash::FxHashMap;

use crate::cache::ProcessCache;
use crate::db::schema::{form_groups, students, year_groups};
use crate::db::text::InlineText;
use crate::db::DbConn;
use crate::shared_text::SharedText;

/// How long a school's roster answer is sent from memory: the bound within which another
/// process's changes to pupils or groups show in this one (`crate::cache`).
pub const ROSTER_TTL: Duration = Duration::from_secs(5);

/// The roster answer (`school.listStudents`) of each school, encoded once (issue 15,
/// docs/performance.md). Every model write to pupils, year groups or form groups calls
/// [`forget_rosters`].
pub static ROSTERS: LazyLock<ProcessCache<String, Arc<SharedText>>> =
    LazyLock::new(|| ProcessCache::new(crate::cache::CacheKind::Roster, ROSTER_TTL, Duration::from_secs(1), 10_000));

/// Forgets every kept roster.
pub fn forget_rosters() {
    ROSTERS.invalidate();
}

/// A pupil as lists show them. The texts are read without allocating ([`InlineText`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StudentListing {
    pub id: InlineText,
    pub forename: InlineText,
    pub surname: InlineText,
    /// The year and form groups' names, shared by their pupils.
    pub year_group: Option<Arc<str>>,
    pub form_group: Option<Arc<str>>,
}

/// Every current (not archived) pupil of one school, by surname, forename and id compared
/// as text (code point order, the same on both backends). Scoped by `school_id`: the caller
/// passes the school it is allowed to read.
///
/// Issue 15 (the roster's first read after a change): the pupils are read without a join
/// and without `ORDER BY`, and sorted here. PostgreSQL sorted 2,000 rows by its collation
/// and joined them to the groups in about 3 ms, more than the rest of the request; the
/// school's year and form group names are two small reads instead. On SQLite the rows are
/// read on the blocking thread straight into values.
pub async fn list_for_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<StudentListing>> {
    macro_rules! pupils_query {
        ($school_id:expr) => {
            students::table
                .filter(students::school_id.eq($school_id))
                .filter(students::archived_at.is_null())
                .select((
                    students::id,
                    students::forename,
                    students::surname,
                    students::year_group_id,
                    students::form_group_id,
                ))
        };
    }
    macro_rules! names_query {
        ($table:ident, $school_id:expr) => {
            $table::table
                .filter($table::school_id.eq($school_id))
                .select(($table::id, $table::name))
        };
    }
    let (pupils, years, forms): (Vec<RosterRow>, Vec<(String, String)>, Vec<(String, String)>) =
        match conn {
            DbConn::Postgres(pg) => (
                pupils_query!(school_id).load(&mut **pg).await?,
                names_query!(year_groups, school_id).load(&mut **pg).await?,
                names_query!(form_groups, school_id).load(&mut **pg).await?,
            ),
            DbConn::Sqlite(sqlite) => {
                let school_id = school_id.to_owned();
                sqlite
                    .spawn_blocking(move |sync| {
                        use diesel::RunQueryDsl as Sync;
                        Ok((
                            Sync::load(pupils_query!(&school_id), sync)?,
                            Sync::load(names_query!(year_groups, &school_id), sync)?,
                            Sync::load(names_query!(form_groups, &school_id), sync)?,
                        ))
                    })
                    .await?
            }
        };
    Ok(roster(pupils, years, forms))
}

/// The first sixteen bytes of `text` as a big-endian number, zero-padded: `a < b` as text
/// implies `prefix(a) <= prefix(b)`.
fn prefix(text: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = text.len().min(16);
    bytes[..n].copy_from_slice(&text.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
}

/// A pupil's row as the roster reads it: id, forename, surname, year and form group ids.
type RosterRow = (InlineText, InlineText, InlineText, Option<InlineText>, Option<InlineText>);

/// The pupils sorted by surname, forename and id, with their groups' names.
fn roster(
    mut pupils: Vec<RosterRow>,
    years: Vec<(String, String)>,
    forms: Vec<(String, String)>,
) -> Vec<StudentListing> {
    // Sorted by the surnames' first sixteen bytes as one number, then by the whole key where
    // those tie: most comparisons are one integer comparison, not three string ones.
    let mut order: Vec<(u128, u32)> =
        pupils.iter().enumerate().map(|(i, p)| (prefix(&p.2), i as u32)).collect();
    order.sort_unstable_by(|(a_key, a), (b_key, b)| {
        a_key.cmp(b_key).then_with(|| {
            let (a, b) = (&pupils[*a as usize], &pupils[*b as usize]);
            (&a.2, &a.1, &a.0).cmp(&(&b.2, &b.1, &b.0))
        })
    });
    let names = |groups: Vec<(String, String)>| -> FxHashMap<String, Arc<str>> {
        groups.into_iter().map(|(id, name)| (id, Arc::from(name))).collect()
    };
    let (years, forms) = (names(years), names(forms));
    let name = |names: &FxHashMap<String, Arc<str>>, id: &Option<InlineText>| {
        id.as_ref().and_then(|id| names.get(id.as_str()).cloned())
    };
    // Each text is moved once, into its place in a list made to size: a row keeps its texts
    // inline (a few hundred bytes), so every extra pass or regrowth over the rows shows.
    let mut listed = Vec::with_capacity(order.len());
    for (_, i) in order {
        let row = &mut pupils[i as usize];
        listed.push(StudentListing {
            id: std::mem::take(&mut row.0),
            forename: std::mem::take(&mut row.1),
            surname: std::mem::take(&mut row.2),
            year_group: name(&years, &row.3),
            form_group: name(&forms, &row.4),
        });
    }
    listed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, forename: &str, surname: &str, year: Option<&str>, form: Option<&str>) -> RosterRow {
        (id.into(), forename.into(), surname.into(), year.map(Into::into), form.map(Into::into))
    }

    #[test]
    fn the_roster_is_sorted_by_surname_forename_and_id_with_group_names() {
        let pupils = vec![
            row("p3", "Ann", "Zeller", Some("y1"), None),
            row("p2", "Bea", "Adams", None, Some("f1")),
            row("p1", "Bea", "Adams", Some("gone"), Some("f1")),
            row("p4", "Al", "Adams", Some("y1"), Some("f2")),
            row("p5", "Al", "adams", None, None),
        ];
        let years = vec![("y1".to_string(), "Year 7".to_string())];
        let forms = vec![("f1".to_string(), "7A".to_string()), ("f2".to_string(), "7B".to_string())];
        let listed = roster(pupils, years, forms);
        let order: Vec<&str> = listed.iter().map(|p| p.id.as_str()).collect();
        // Code point order, as SQLite and the C collation: every capital before any small
        // letter, so "Zeller" before "adams".
        assert_eq!(order, ["p4", "p1", "p2", "p3", "p5"]);
        assert_eq!(listed[0].year_group.as_deref(), Some("Year 7"));
        assert_eq!(listed[0].form_group.as_deref(), Some("7B"));
        // A group id with no group (deleted meanwhile) shows no name.
        assert_eq!(listed[1].year_group, None);
        assert_eq!(listed[2].form_group.as_deref(), Some("7A"));
        assert_eq!((listed[3].year_group.as_deref(), listed[3].form_group.clone()), (Some("Year 7"), None));
        assert_eq!((listed[4].year_group.clone(), listed[4].form_group.clone()), (None, None));
    }

    #[test]
    fn the_sort_by_prefix_agrees_with_a_plain_sort_of_the_whole_key() {
        let surnames = ["Bench 1000", "Bench 100", "Bench 10", "Bench 1", "Ó Briain", "O'Brien",
            "Montgomery-Smythe", "Montgomery-Smith", "Montgomery-Smyth", "Montgomery-Smythé",
            "Obi", "", "Smith-Jones", "Smith", "smith", "Zoë", "Zoe", "Ab", "Ab\u{0}"];
        let mut pupils = Vec::new();
        for (i, surname) in surnames.iter().enumerate() {
            for forename in ["Al", "Al", "Bea"] {
                pupils.push(row(&format!("p{:02}", (i * 7 + pupils.len() * 3) % 50), forename, surname, None, None));
            }
        }
        let mut expected = pupils.clone();
        expected.sort_by(|a, b| (&a.2, &a.1, &a.0).cmp(&(&b.2, &b.1, &b.0)));
        let expected: Vec<&str> = expected.iter().map(|p| p.0.as_str()).collect();
        let listed = roster(pupils, Vec::new(), Vec::new());
        let order: Vec<&str> = listed.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(order, expected);
    }
}
