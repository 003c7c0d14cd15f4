//! Year groups, form groups and classes (each a school's own): creating, naming and
//! listing them with pupil counts. Names are unique per school without regard to case
//! (unique indexes on `(school_id, lower(name))`), and a create that meets an existing
//! name answers the existing row: a double submit makes one group, not two.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{class_students, classes, form_groups, students, year_groups};
use crate::db::{lower, DbConn};
use crate::ids::new_id;
use crate::models::now;
use crate::with_conn;
use crate::db::changes::{self, Change};

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = form_groups)]
pub struct NewFormGroup {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub name: String,
    pub school_id: String,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = classes)]
pub struct NewClass {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub name: String,
    pub school_id: String,
}

/// Which of `ids` are classes of the school.
pub async fn classes_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    ids: &[String],
) -> QueryResult<Vec<String>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    with_conn!(conn, |c| classes::table
        .filter(classes::school_id.eq(school_id))
        .filter(classes::id.eq_any(ids))
        .select(classes::id)
        .load(c)
        .await)
}

/// Whether the form group `id` belongs to the school.
pub async fn form_group_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<bool> {
    let n: i64 = with_conn!(conn, |c| form_groups::table
        .filter(form_groups::id.eq(id))
        .filter(form_groups::school_id.eq(school_id))
        .count()
        .get_result(c)
        .await)?;
    Ok(n > 0)
}

/// Whether the year group `id` belongs to the school.
pub async fn year_group_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<bool> {
    let n: i64 = with_conn!(conn, |c| year_groups::table
        .filter(year_groups::id.eq(id))
        .filter(year_groups::school_id.eq(school_id))
        .count()
        .get_result(c)
        .await)?;
    Ok(n > 0)
}

/// A class or form group with how many pupils it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRow {
    pub id: String,
    pub name: String,
    pub pupils: i64,
}

/// The school's classes by name, with pupil counts.
pub async fn list_classes(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Vec<GroupRow>> {
    let rows: Vec<(String, String)> = with_conn!(conn, |c| classes::table
        .filter(classes::school_id.eq(school_id))
        .order((classes::name.asc(), classes::id.asc()))
        .select((classes::id, classes::name))
        .load(c)
        .await)?;
    let counts: Vec<(String, i64)> = with_conn!(conn, |c| class_students::table
        .inner_join(classes::table)
        .filter(classes::school_id.eq(school_id))
        .group_by(class_students::class_id)
        .select((class_students::class_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    Ok(with_counts(rows, counts))
}

/// (group id, how many of the school's pupils are in it) for each value of `$column`, a
/// nullable group column of `students`.
macro_rules! pupils_per {
    ($conn:expr, $school_id:expr, $column:expr) => {{
        let counts: Vec<(Option<String>, i64)> = with_conn!($conn, |c| students::table
            .filter(students::school_id.eq($school_id))
            .filter(students::archived_at.is_null())
            .filter($column.is_not_null())
            .group_by($column)
            .select(($column, diesel::dsl::count_star()))
            .load(c)
            .await)?;
        counts
            .into_iter()
            .filter_map(|(id, n)| id.map(|id| (id, n)))
            .collect::<Vec<(String, i64)>>()
    }};
}

/// The school's form groups by name, with pupil counts.
pub async fn list_form_groups(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<GroupRow>> {
    let rows: Vec<(String, String)> = with_conn!(conn, |c| form_groups::table
        .filter(form_groups::school_id.eq(school_id))
        .order((form_groups::name.asc(), form_groups::id.asc()))
        .select((form_groups::id, form_groups::name))
        .load(c)
        .await)?;
    let counts = pupils_per!(conn, school_id, students::form_group_id);
    Ok(with_counts(rows, counts))
}

/// The school's year groups by name, with pupil counts.
pub async fn list_year_groups(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<GroupRow>> {
    let rows: Vec<(String, String)> = with_conn!(conn, |c| year_groups::table
        .filter(year_groups::school_id.eq(school_id))
        .order((year_groups::name.asc(), year_groups::id.asc()))
        .select((year_groups::id, year_groups::name))
        .load(c)
        .await)?;
    let counts = pupils_per!(conn, school_id, students::year_group_id);
    Ok(with_counts(rows, counts))
}

fn with_counts(rows: Vec<(String, String)>, counts: Vec<(String, i64)>) -> Vec<GroupRow> {
    let counts: HashMap<String, i64> = counts.into_iter().collect();
    rows.into_iter()
        .map(|(id, name)| GroupRow {
            pupils: counts.get(&id).copied().unwrap_or(0),
            id,
            name,
        })
        .collect()
}

/// The id of the school's class called `name` (other than `except_id`), if any.
pub async fn class_named(
    conn: &mut DbConn<'_>,
    school_id: &str,
    name: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| classes::table
        .filter(classes::school_id.eq(school_id))
        .filter(lower(classes::name).eq(name.to_lowercase()))
        .select(classes::id)
        .first(c)
        .await
        .optional())
}

/// The id of the school's form group called `name`, if any (case-insensitive).
pub async fn form_group_named(
    conn: &mut DbConn<'_>,
    school_id: &str,
    name: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| form_groups::table
        .filter(form_groups::school_id.eq(school_id))
        .filter(lower(form_groups::name).eq(name.to_lowercase()))
        .select(form_groups::id)
        .first(c)
        .await
        .optional())
}

/// The id of the school's year group called `name`, if any (case-insensitive).
pub async fn year_group_named(
    conn: &mut DbConn<'_>,
    school_id: &str,
    name: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| year_groups::table
        .filter(year_groups::school_id.eq(school_id))
        .filter(lower(year_groups::name).eq(name.to_lowercase()))
        .select(year_groups::id)
        .first(c)
        .await
        .optional())
}

/// Creates or renames the school's class; returns its id, or None when `id` is not the
/// school's.
pub async fn save_class(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: Option<&str>,
    name: &str,
) -> QueryResult<Option<String>> {
    let at = now();
    match id {
        Some(id) => {
            let n = with_conn!(conn, |c| diesel::update(
                classes::table
                    .filter(classes::id.eq(id))
                    .filter(classes::school_id.eq(school_id))
            )
            .set((classes::name.eq(name), classes::updated_at.eq(at)))
            .execute(c)
            .await)?;
            changes::publish(conn, Change::Roster).await?;
            Ok((n == 1).then(|| id.to_owned()))
        }
        None => {
            let class = NewClass {
                id: new_id(),
                created_at: at,
                updated_at: at,
                name: name.to_owned(),
                school_id: school_id.to_owned(),
            };
            insert_class(conn, &class).await?;
            class_named(conn, school_id, name).await
        }
    }
}

/// Creates or renames the school's form group; returns its id, or None when `id` is not
/// the school's.
pub async fn save_form_group(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: Option<&str>,
    name: &str,
) -> QueryResult<Option<String>> {
    let at = now();
    match id {
        Some(id) => {
            let n = with_conn!(conn, |c| diesel::update(
                form_groups::table
                    .filter(form_groups::id.eq(id))
                    .filter(form_groups::school_id.eq(school_id))
            )
            .set((form_groups::name.eq(name), form_groups::updated_at.eq(at)))
            .execute(c)
            .await)?;
            changes::publish(conn, Change::Roster).await?;
            Ok((n == 1).then(|| id.to_owned()))
        }
        None => {
            let group = NewFormGroup {
                id: new_id(),
                created_at: at,
                updated_at: at,
                name: name.to_owned(),
                school_id: school_id.to_owned(),
            };
            insert_form_group(conn, &group).await?;
            form_group_named(conn, school_id, name).await
        }
    }
}

/// Renames the school's year group `id`; false when it is not the school's.
pub async fn rename_year_group(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
    name: &str,
) -> QueryResult<bool> {
    let at = now();
    let n = with_conn!(conn, |c| diesel::update(
        year_groups::table
            .filter(year_groups::id.eq(id))
            .filter(year_groups::school_id.eq(school_id))
    )
    .set((year_groups::name.eq(name), year_groups::updated_at.eq(at)))
    .execute(c)
    .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(n == 1)
}

/// The id of the school's year group called `name` (case-insensitive), created if it
/// does not exist yet. Two of these racing make one row: the loser's insert meets the
/// unique index, does nothing, and reads the winner's row.
pub async fn year_group_id(
    conn: &mut DbConn<'_>,
    school_id: &str,
    name: &str,
) -> QueryResult<String> {
    if let Some(id) = year_group_named(conn, school_id, name).await? {
        return Ok(id);
    }
    let id = new_id();
    let at = now();
    with_conn!(conn, |c| diesel::insert_into(year_groups::table)
        .values((
            year_groups::id.eq(&id),
            year_groups::created_at.eq(at),
            year_groups::updated_at.eq(at),
            year_groups::name.eq(name),
            year_groups::school_id.eq(school_id),
        ))
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    year_group_named(conn, school_id, name)
        .await?
        .ok_or(diesel::result::Error::NotFound)
}

/// Inserts the form group unless the school has one of that name already (then nothing).
pub async fn insert_form_group(conn: &mut DbConn<'_>, group: &NewFormGroup) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(form_groups::table)
        .values(group)
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

/// Inserts the class unless the school has one of that name already (then nothing).
pub async fn insert_class(conn: &mut DbConn<'_>, class: &NewClass) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(classes::table)
        .values(class)
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}
