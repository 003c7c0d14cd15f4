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
use crate::db::changes::{self, Change};
use crate::db::schema::{form_groups, students, year_groups};
use crate::db::{coalesce, string_agg, DbConn};
use crate::shared_text::SharedText;

/// How long a school's roster answer is sent from memory: the bound within which another
/// process's changes to pupils or groups show in this one when the change feed's listening
/// connection is down (`crate::cache`, docs/scaling.md).
pub const ROSTER_TTL: Duration = Duration::from_secs(5);

/// The most bytes the kept roster answers hold, each counted with its compressed form
/// ([`SharedText::bytes_held`]): 64 MiB. A 2,000-pupil school's answer is about 225 KB, and
/// about 15 % of that again once compressed, so some 240 schools' rosters fit (half as many
/// in the moment before their compressed forms are made); past that the least recently
/// used go first. Not a setting: no other cache's size is one.
pub const ROSTER_CACHE_BYTES: usize = 64 << 20;

/// The roster answer (`school.listStudents`) of each school, encoded once (issue 15,
/// docs/performance.md), at most [`ROSTER_CACHE_BYTES`]. Every model write to pupils, year
/// groups or form groups publishes `Change::Roster` (`crate::db::changes`), on which every
/// kept roster is forgotten.
pub static ROSTERS: LazyLock<ProcessCache<String, Arc<SharedText>>> = LazyLock::new(|| {
    changes::subscribe(on_change);
    roster_cache(ROSTER_CACHE_BYTES)
});

/// A cache of roster answers by school holding at most `max_bytes` ([`ROSTERS`] holds
/// [`ROSTER_CACHE_BYTES`]; tests pass less).
pub fn roster_cache(max_bytes: usize) -> ProcessCache<String, Arc<SharedText>> {
    ProcessCache::bounded_by_bytes(
        crate::cache::CacheKind::Roster,
        ROSTER_TTL,
        Duration::from_secs(1),
        max_bytes,
        |answer: &Arc<SharedText>| answer.bytes_held(),
    )
}

/// The audience pickers' answer of each school (`notification.filterOptions`: its classes,
/// year groups and form groups with how many pupils each has, and its pupils), encoded
/// once like the roster and held to the same bound, apart from it. Forgotten with the
/// rosters on `Change::Roster`, which every write to pupils, groups, classes or who is in
/// a class publishes.
pub static AUDIENCES: LazyLock<ProcessCache<String, Arc<SharedText>>> = LazyLock::new(|| {
    changes::subscribe(on_audience_change);
    roster_cache(ROSTER_CACHE_BYTES)
});

/// What the rosters drop on a change: all of them, on any change to pupils or groups.
fn on_change(change: Change<'_>) {
    if matches!(change, Change::Roster | Change::Everything) {
        ROSTERS.invalidate();
    }
}

/// The same for the audience pickers' answers.
fn on_audience_change(change: Change<'_>) {
    if matches!(change, Change::Roster | Change::Everything) {
        AUDIENCES.invalidate();
    }
}

/// Forgets every kept roster and audience pickers' answer.
pub fn forget_rosters() {
    ROSTERS.invalidate();
    AUDIENCES.invalidate();
}

/// A pupil as lists show them: texts borrowed from the [`Roster`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StudentListing<'a> {
    pub id: &'a str,
    pub forename: &'a str,
    pub surname: &'a str,
    /// The year and form groups' names.
    pub year_group: Option<&'a str>,
    pub form_group: Option<&'a str>,
}

/// Every current pupil of a school, in name order, with their groups' names. The texts sit
/// end to end in one string and each pupil holds where its own are (issue 15: reading
/// 2,000 pupils into separate values cost more than the rest of the answer).
#[derive(Debug, Default)]
pub struct Roster {
    text: String,
    pupils: Vec<Entry>,
    years: Vec<String>,
    forms: Vec<String>,
}

/// Where a text is in [`Roster::text`].
#[derive(Debug, Clone, Copy, Default)]
struct Span {
    start: u32,
    end: u32,
}

/// A pupil: the sort key (the surname's first sixteen bytes), its texts, and its groups as
/// positions in the roster's group names ([`NO_GROUP`] for none).
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u128,
    id: Span,
    forename: Span,
    surname: Span,
    year: u32,
    form: u32,
}

const NO_GROUP: u32 = u32::MAX;

impl Roster {
    pub fn len(&self) -> usize {
        self.pupils.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pupils.is_empty()
    }

    /// The pupils in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = StudentListing<'_>> + '_ {
        self.pupils.iter().map(|entry| StudentListing {
            id: self.at(entry.id),
            forename: self.at(entry.forename),
            surname: self.at(entry.surname),
            year_group: self.years.get(entry.year as usize).map(String::as_str),
            form_group: self.forms.get(entry.form as usize).map(String::as_str),
        })
    }

    /// How many bytes the pupils' own texts take (ids and names, not group names).
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    fn at(&self, span: Span) -> &str {
        &self.text[span.start as usize..span.end as usize]
    }

    /// The roster of pupils given as rows of id, forename, surname, year and form group id,
    /// with the school's groups as (id, name).
    pub fn from_rows(rows: Vec<PupilRow>, years: Groups, forms: Groups) -> Roster {
        let mut text = String::new();
        let mut push = |value: &str| {
            let start = text.len() as u32;
            text.push_str(value);
            Span { start, end: text.len() as u32 }
        };
        let fields: Vec<[Span; 5]> = rows
            .iter()
            .map(|(id, forename, surname, year, form)| {
                let (year, form) = (year.as_deref().unwrap_or(""), form.as_deref().unwrap_or(""));
                [push(id), push(forename), push(surname), push(year), push(form)]
            })
            .collect();
        Roster::assemble(text, &fields, years, forms)
    }

    /// The roster from the text [`list_for_school`]'s query aggregates: each pupil's five
    /// fields joined by [`FIELD`], pupils joined by [`RECORD`]. The groups are given back
    /// when the text does not split into exactly `count` records of five fields (a
    /// separator inside a name or id), for reading the rows instead.
    fn from_aggregate(
        text: String,
        count: usize,
        years: Groups,
        forms: Groups,
    ) -> Result<Roster, (Groups, Groups)> {
        match split_aggregate(text.as_bytes(), count) {
            Some(records) => Ok(Roster::assemble(text, &records, years, forms)),
            None => Err((years, forms)),
        }
    }

    /// Sorts the pupils by surname, forename and id (code point order, as SQLite and the C
    /// collation compare) and finds their groups by id (an id with no group has no name).
    fn assemble(text: String, records: &[[Span; 5]], years: Groups, forms: Groups) -> Roster {
        let at = |span: Span| &text[span.start as usize..span.end as usize];
        let (year_index, form_index) = (group_index(&years), group_index(&forms));
        let group =
            |index: &FxHashMap<&str, u32>, span: Span| index.get(at(span)).copied().unwrap_or(NO_GROUP);
        let mut pupils: Vec<Entry> = records
            .iter()
            .map(|[id, forename, surname, year, form]| Entry {
                key: prefix(at(*surname)),
                id: *id,
                forename: *forename,
                surname: *surname,
                year: group(&year_index, *year),
                form: group(&form_index, *form),
            })
            .collect();
        // Most comparisons are one integer comparison; the whole key only where the first
        // sixteen bytes of the surnames tie.
        pupils.sort_unstable_by(|a, b| {
            a.key.cmp(&b.key).then_with(|| {
                (at(a.surname), at(a.forename), at(a.id)).cmp(&(at(b.surname), at(b.forename), at(b.id)))
            })
        });
        let names = |groups: Vec<(String, String)>| groups.into_iter().map(|(_, name)| name).collect();
        Roster { pupils, years: names(years), forms: names(forms), text }
    }
}

/// Each group's position in `groups`, by id.
fn group_index(groups: &[(String, String)]) -> FxHashMap<&str, u32> {
    groups.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i as u32)).collect()
}

/// Where each pupil's five fields are in the aggregated text: `None` unless it splits into
/// exactly `count` records of exactly five fields. A separator inside a value only ever adds
/// a field or a record, so this cannot be fooled.
fn split_aggregate(bytes: &[u8], count: usize) -> Option<Vec<[Span; 5]>> {
    if count == 0 {
        return bytes.is_empty().then(Vec::new);
    }
    if u32::try_from(bytes.len()).is_err() {
        return None;
    }
    let mut records = Vec::with_capacity(count);
    let mut fields = [Span::default(); 5];
    let (mut start, mut field) = (0usize, 0usize);
    for at in memchr::memchr2_iter(FIELD, RECORD, bytes) {
        fields[field] = Span { start: start as u32, end: at as u32 };
        start = at + 1;
        match (bytes[at], field) {
            (FIELD, 0..=3) => field += 1,
            (RECORD, 4) if records.len() + 1 < count => {
                records.push(fields);
                field = 0;
            }
            _ => return None,
        }
    }
    if field != 4 || records.len() + 1 != count {
        return None;
    }
    fields[4] = Span { start: start as u32, end: bytes.len() as u32 };
    records.push(fields);
    Some(records)
}

/// A school's year or form groups, as (id, name).
pub type Groups = Vec<(String, String)>;

/// A pupil's row as the roster reads it when the aggregate cannot be split: id, forename,
/// surname, year and form group ids.
pub type PupilRow = (String, String, String, Option<String>, Option<String>);

/// The separators of the aggregated roster text (ASCII unit and record separators): a
/// pupil's fields, and pupils.
const FIELD: u8 = 0x1f;
const RECORD: u8 = 0x1e;

/// Every current (not archived) pupil of one school, by surname, forename and id compared
/// as text (code point order, the same on both backends). Scoped by `school_id`: the caller
/// passes the school it is allowed to read.
///
/// Issue 15 (the roster's first read after a change): the database sends the pupils as one
/// text, each pupil's id, names and group ids joined by [`FIELD`] and pupils by [`RECORD`],
/// with their count, in one row. As 2,000 rows of five values they cost the server more to
/// receive and take apart (about a microsecond a row) than all the rest of the answer; the
/// database's cost is the same either way. Should a name or id hold a separator, the text
/// does not split into `count` records of five fields and the pupils are read again as
/// rows: what the roster shows never depends on what the names hold. There is no join and no `ORDER BY`:
/// the groups are two small reads, and the pupils are sorted here (PostgreSQL's collation
/// sort took longer than the rest).
pub async fn list_for_school(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Roster> {
    macro_rules! pupils {
        ($school_id:expr) => {
            students::table
                .filter(students::school_id.eq($school_id))
                .filter(students::archived_at.is_null())
        };
    }
    macro_rules! aggregate_query {
        ($school_id:expr) => {{
            const FIELD_TEXT: &str = "\u{1f}";
            pupils!($school_id).select((
                diesel::dsl::count_star(),
                string_agg(
                    students::id
                        .concat(FIELD_TEXT)
                        .concat(students::forename)
                        .concat(FIELD_TEXT)
                        .concat(students::surname)
                        .concat(FIELD_TEXT)
                        .concat(coalesce(students::year_group_id, ""))
                        .concat(FIELD_TEXT)
                        .concat(coalesce(students::form_group_id, "")),
                    "\u{1e}",
                ),
            ))
        }};
    }
    macro_rules! rows_query {
        ($school_id:expr) => {
            pupils!($school_id).select((
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
    type Aggregate = (i64, Option<String>);
    let ((count, text), years, forms): (Aggregate, Groups, Groups) = match conn {
        DbConn::Postgres(pg) => (
            aggregate_query!(school_id).get_result(&mut **pg).await?,
            names_query!(year_groups, school_id).load(&mut **pg).await?,
            names_query!(form_groups, school_id).load(&mut **pg).await?,
        ),
        DbConn::Sqlite(sqlite) => {
            let school_id = school_id.to_owned();
            sqlite
                .spawn_blocking(move |sync| {
                    use diesel::RunQueryDsl as Sync;
                    Ok((
                        Sync::get_result(aggregate_query!(&school_id), sync)?,
                        Sync::load(names_query!(year_groups, &school_id), sync)?,
                        Sync::load(names_query!(form_groups, &school_id), sync)?,
                    ))
                })
                .await?
        }
    };
    let count = usize::try_from(count).unwrap_or(0);
    match Roster::from_aggregate(text.unwrap_or_default(), count, years, forms) {
        Ok(roster) => Ok(roster),
        Err((years, forms)) => {
            let rows: Vec<PupilRow> = crate::with_conn!(conn, |c| rows_query!(school_id).load(c).await)?;
            Ok(Roster::from_rows(rows, years, forms))
        }
    }
}

/// The first sixteen bytes of `text` as a big-endian number, zero-padded: `a < b` as text
/// implies `prefix(a) <= prefix(b)`.
fn prefix(text: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = text.len().min(16);
    bytes[..n].copy_from_slice(&text.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, forename: &str, surname: &str, year: Option<&str>, form: Option<&str>) -> PupilRow {
        (id.into(), forename.into(), surname.into(), year.map(Into::into), form.map(Into::into))
    }

    fn groups(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(id, name)| (id.to_string(), name.to_string())).collect()
    }

    /// The rows as the aggregate query writes them.
    fn aggregate(rows: &[PupilRow]) -> String {
        let record = |(id, forename, surname, year, form): &PupilRow| {
            [id.as_str(), forename, surname, year.as_deref().unwrap_or(""), form.as_deref().unwrap_or("")].join("\u{1f}")
        };
        rows.iter().map(record).collect::<Vec<_>>().join("\u{1e}")
    }

    fn listed(roster: &Roster) -> Vec<StudentListing<'_>> {
        roster.iter().collect()
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
        let years = groups(&[("y1", "Year 7")]);
        let forms = groups(&[("f1", "7A"), ("f2", "7B")]);
        let roster = Roster::from_rows(pupils, years, forms);
        let listed = listed(&roster);
        let order: Vec<&str> = listed.iter().map(|p| p.id).collect();
        // Code point order, as SQLite and the C collation: every capital before any small
        // letter, so "Zeller" before "adams".
        assert_eq!(order, ["p4", "p1", "p2", "p3", "p5"]);
        assert_eq!(
            listed[0],
            StudentListing { id: "p4", forename: "Al", surname: "Adams", year_group: Some("Year 7"), form_group: Some("7B") }
        );
        // A group id with no group (deleted meanwhile) shows no name.
        assert_eq!(listed[1].year_group, None);
        assert_eq!(listed[2].form_group, Some("7A"));
        assert_eq!((listed[3].year_group, listed[3].form_group), (Some("Year 7"), None));
        assert_eq!((listed[4].year_group, listed[4].form_group), (None, None));
        assert_eq!(roster.len(), 5);
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
        let roster = Roster::from_rows(pupils, Vec::new(), Vec::new());
        let order: Vec<&str> = roster.iter().map(|p| p.id).collect();
        assert_eq!(order, expected);
    }

    #[test]
    fn the_aggregated_text_gives_the_roster_the_rows_give() {
        let pupils = vec![
            row("p3", "Ann", "Zeller", Some("y1"), None),
            row("p2", "", "Adams", None, Some("f1")),
            row("p1", "Zoë \"Z\"", "", Some("gone"), Some("f1")),
            row("p4", "Al", "Adams", Some("y1"), Some("f2")),
        ];
        let (years, forms) = (groups(&[("y1", "Year 7")]), groups(&[("f1", "7A"), ("f2", "7B")]));
        let from_rows = Roster::from_rows(pupils.clone(), years.clone(), forms.clone());
        let from_text = Roster::from_aggregate(aggregate(&pupils), 4, years.clone(), forms.clone()).expect("splits");
        assert_eq!(listed(&from_text), listed(&from_rows));
        assert_eq!(listed(&from_text).len(), 4);
        let one = Roster::from_aggregate(aggregate(&pupils[..1]), 1, years.clone(), forms.clone()).expect("splits");
        assert_eq!(listed(&one), [StudentListing { id: "p3", forename: "Ann", surname: "Zeller", year_group: Some("Year 7"), form_group: None }]);
        // No pupils: the aggregate is NULL.
        assert!(Roster::from_aggregate(String::new(), 0, years, forms).expect("empty").is_empty());
    }

    #[test]
    fn a_separator_inside_a_name_or_a_wrong_count_is_refused_not_misread() {
        let years = || groups(&[("y1", "Year 7")]);
        let refused = |pupils: &[PupilRow], count: usize| Roster::from_aggregate(aggregate(pupils), count, years(), Vec::new()).is_err();
        let plain = [row("p1", "Al", "Adams", Some("y1"), None), row("p2", "Bea", "Brown", None, None)];
        assert!(!refused(&plain, 2));
        assert!(refused(&plain, 1) && refused(&plain, 3) && refused(&plain, 0));
        // A field separator makes six fields; a record separator one record too many, even
        // where the extra fields would make two records of five.
        assert!(refused(&[row("p1", "A\u{1f}l", "Adams", None, None)], 1));
        assert!(refused(&[row("p1", "Al", "Ad\u{1e}ams", None, None), plain[1].clone()], 2));
        assert!(refused(&[row("p1", "a\u{1f}b\u{1f}c\u{1e}d", "Adams", Some("y1"), None)], 1));
        assert!(refused(&[row("p1", "Al", "Adams", None, Some("f\u{1e}")), plain[1].clone()], 2));
        assert!(Roster::from_aggregate("p1\u{1f}Al".to_string(), 1, years(), Vec::new()).is_err());
        assert!(Roster::from_aggregate("x".to_string(), 0, years(), Vec::new()).is_err());
    }

    #[test]
    fn the_kept_rosters_stay_under_their_bytes_and_the_recently_used_stay() {
        // Answers of 20 KB (40 KB counted until compressed) in a cache of 150 KB.
        let answer = |school: usize| {
            let text: String = (0..1_000).map(|i| format!("{{\"id\":\"{school:03}-{i:06}\"}},")).collect();
            assert_eq!(text.len(), 20_000);
            Arc::new(SharedText::new(text))
        };
        const MAX: usize = 150_000;
        let cache = roster_cache(MAX);
        let school = |n: usize| format!("school-{n}");
        for n in 0..10 {
            cache.put(school(n), answer(n), cache.generation());
            assert!(cache.bytes() <= MAX, "{} bytes held after {} answers", cache.bytes(), n + 1);
            // School 0's roster is asked for between every two: the most recently used.
            assert!(cache.get(&school(0), |_| true).is_some(), "the roster in use stays (after {})", n + 1);
        }
        assert_eq!(cache.len(), 3, "three of 40 KB fit in 150 KB");
        let kept: Vec<usize> = (0..10).filter(|n| cache.get(&school(*n), |_| true).is_some()).collect();
        assert_eq!(kept, [0, 8, 9], "the least recently used went first");

        // Compressed, each answer counts its real size: more fit.
        for n in kept {
            if let Some(kept) = cache.get(&school(n), |_| true) {
                kept.deflate_now();
            }
        }
        let compressed = cache.bytes();
        assert!(compressed < 3 * 25_000, "{compressed} bytes");
        for n in 10..12 {
            cache.put(school(n), answer(n), cache.generation());
            assert!(cache.bytes() <= MAX);
        }
        assert_eq!(cache.len(), 5, "two more fit beside three compressed");
    }
}
