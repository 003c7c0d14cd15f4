//! Pupils (`students`) and their class memberships: the listing views (with year and form
//! group names), the admin's paged search and form (Manage School), saving a pupil.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{class_students, form_groups, students, year_groups};
use crate::db::{like_pattern, lower, DbConn};
use crate::ids::new_id;
use crate::models::{now, NameKey};
use crate::after_name;
use crate::with_conn;
use crate::db::changes::{self, Change};

// The roster (every current pupil, with group names) and its cache: `models::roster`.
pub use crate::models::roster::{forget_rosters, list_for_school, StudentListing};

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = students)]
pub struct NewStudent {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub school_id: String,
    pub year_group_id: Option<String>,
    pub form_group_id: Option<String>,
}

pub async fn insert(conn: &mut DbConn<'_>, student: &NewStudent) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(students::table)
        .values(student)
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

pub async fn add_to_class(
    conn: &mut DbConn<'_>,
    student_id: &str,
    class_id: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(class_students::table)
        .values((
            class_students::class_id.eq(class_id),
            class_students::student_id.eq(student_id)
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

/// A pupil as the admin's list and form show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PupilRow {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group_id: Option<String>,
    pub year_group: Option<String>,
    pub form_group_id: Option<String>,
    pub form_group: Option<String>,
    pub class_ids: Vec<String>,
}

type PupilTuple = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// One page of the school's pupils (by surname, forename, id: at most `limit` after
/// `after`, from the first without), optionally matching `search` in the name, e-mail or
/// UPN (or only the pupil `only_id`); and how many match in all.
pub async fn list_pupils(
    conn: &mut DbConn<'_>,
    school_id: &str,
    search: Option<&str>,
    only_id: Option<&str>,
    after: Option<&NameKey>,
    limit: i64,
) -> QueryResult<(Vec<PupilRow>, i64)> {
    let pattern = search.filter(|s| !s.trim().is_empty()).map(like_pattern);
    macro_rules! filtered {
        () => {{
            let mut query = students::table
                .left_join(year_groups::table)
                .left_join(form_groups::table)
                .filter(students::school_id.eq(school_id))
                // Archived pupils (left the MIS) leave the admin's list and form.
                .filter(students::archived_at.is_null())
                .into_boxed();
            if let Some(id) = only_id {
                query = query.filter(students::id.eq(id));
            }
            if let Some(p) = &pattern {
                query = query.filter(
                    lower(students::forename)
                        .like(p.clone())
                        .escape('\\')
                        .or(lower(students::surname).like(p.clone()).escape('\\'))
                        .or(
                            lower(students::forename.concat(" ").concat(students::surname))
                                .like(p.clone())
                                .escape('\\'),
                        )
                        .or(students::upn.like(p.clone()).escape('\\'))
                        .or(students::email.like(p.clone()).escape('\\')),
                );
            }
            query
        }};
    }
    let total: i64 = with_conn!(conn, |c| filtered!().count().get_result(c).await)?;
    let rows: Vec<PupilTuple> = with_conn!(conn, |c| {
        let mut query = filtered!();
        if let Some(k) = after {
            query = query.filter(after_name!(students, k));
        }
        query
        .order((
            students::surname.asc(),
            students::forename.asc(),
            students::id.asc()
        ))
        .limit(limit)
        .select((
            students::id,
            students::forename,
            students::surname,
            students::email,
            students::parent_email,
            students::upn,
            students::year_group_id,
            year_groups::name.nullable(),
            students::form_group_id,
            form_groups::name.nullable(),
        ))
        .load(c)
        .await
    })?;
    let ids: Vec<&String> = rows.iter().map(|r| &r.0).collect();
    let links: Vec<(String, String)> = if ids.is_empty() {
        Vec::new()
    } else {
        with_conn!(conn, |c| class_students::table
            .filter(class_students::student_id.eq_any(&ids))
            .select((class_students::student_id, class_students::class_id))
            .load(c)
            .await)?
    };
    let mut classes_of: HashMap<String, Vec<String>> = HashMap::new();
    for (student, class) in links {
        classes_of.entry(student).or_default().push(class);
    }
    let pupils = rows
        .into_iter()
        .map(|r| PupilRow {
            class_ids: classes_of.remove(&r.0).unwrap_or_default(),
            id: r.0,
            forename: r.1,
            surname: r.2,
            email: r.3,
            parent_email: r.4,
            upn: r.5,
            year_group_id: r.6,
            year_group: r.7,
            form_group_id: r.8,
            form_group: r.9,
        })
        .collect();
    Ok((pupils, total))
}

/// The fields of a pupil the admin edits.
#[derive(Debug, Clone)]
pub struct PupilFields {
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group_id: Option<String>,
    pub form_group_id: Option<String>,
    pub class_ids: Vec<String>,
}

/// Whether the pupil `id` belongs to `school_id`.
pub async fn pupil_exists(conn: &mut DbConn<'_>, school_id: &str, id: &str) -> QueryResult<bool> {
    let n: i64 = with_conn!(conn, |c| students::table
        .filter(students::id.eq(id))
        .filter(students::school_id.eq(school_id))
        .count()
        .get_result(c)
        .await)?;
    Ok(n > 0)
}

/// The id of another pupil of the school with this UPN, if any.
pub async fn pupil_with_upn(
    conn: &mut DbConn<'_>,
    school_id: &str,
    upn: &str,
    except_id: Option<&str>,
) -> QueryResult<Option<String>> {
    let found: Vec<String> = with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        .filter(students::upn.eq(upn))
        .select(students::id)
        .load(c)
        .await)?;
    Ok(found.into_iter().find(|id| Some(id.as_str()) != except_id))
}

/// Every UPN already used in the school.
pub async fn school_upns(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Vec<String>> {
    let upns: Vec<Option<String>> = with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        .filter(students::upn.is_not_null())
        .select(students::upn)
        .load(c)
        .await)?;
    Ok(upns.into_iter().flatten().collect())
}

/// What [`save_pupil`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SavedPupil {
    /// The pupil was created or updated: their id.
    Written(String),
    /// A create met another pupil of the school with the same UPN (the unique index
    /// `(school_id, upn)`), so nothing was written: that pupil's id.
    UpnTaken(String),
}

/// Creates the pupil (`id` None) or updates the school's pupil `id`, and sets their classes
/// to exactly `fields.class_ids`. The caller has checked that every referenced id belongs
/// to the school. A create whose UPN is taken (even by a create racing this one) writes
/// nothing and answers [`SavedPupil::UpnTaken`].
pub async fn save_pupil(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: Option<&str>,
    fields: &PupilFields,
) -> QueryResult<SavedPupil> {
    let at = now();
    let id = match id {
        Some(id) => {
            with_conn!(conn, |c| diesel::update(
                students::table
                    .filter(students::id.eq(id))
                    .filter(students::school_id.eq(school_id))
            )
            .set((
                students::forename.eq(&fields.forename),
                students::surname.eq(&fields.surname),
                students::email.eq(&fields.email),
                students::parent_email.eq(&fields.parent_email),
                students::upn.eq(&fields.upn),
                students::year_group_id.eq(&fields.year_group_id),
                students::form_group_id.eq(&fields.form_group_id),
                students::updated_at.eq(at),
            ))
            .execute(c)
            .await)?;
            with_conn!(conn, |c| diesel::delete(
                class_students::table.filter(class_students::student_id.eq(id))
            )
            .execute(c)
            .await)?;
            id.to_owned()
        }
        None => {
            let id = new_id();
            let written = insert_unless_upn_taken(
                conn,
                &NewStudent {
                    id: id.clone(),
                    created_at: at,
                    updated_at: at,
                    forename: fields.forename.clone(),
                    surname: fields.surname.clone(),
                    email: fields.email.clone(),
                    parent_email: fields.parent_email.clone(),
                    upn: fields.upn.clone(),
                    school_id: school_id.to_owned(),
                    year_group_id: fields.year_group_id.clone(),
                    form_group_id: fields.form_group_id.clone(),
                },
            )
            .await?;
            if !written {
                let upn = fields.upn.as_deref().unwrap_or_default();
                return match pupil_with_upn(conn, school_id, upn, None).await? {
                    Some(other) => Ok(SavedPupil::UpnTaken(other)),
                    None => Err(diesel::result::Error::NotFound),
                };
            }
            id
        }
    };
    changes::publish(conn, Change::Roster).await?;
    for class_id in &fields.class_ids {
        add_to_class(conn, &id, class_id).await?;
    }
    Ok(SavedPupil::Written(id))
}

/// Inserts the pupil unless the insert meets a unique index (the school's UPN); false
/// when nothing was written.
async fn insert_unless_upn_taken(conn: &mut DbConn<'_>, student: &NewStudent) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::insert_into(students::table)
        .values(student)
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(n == 1)
}

/// One pupil's details for the profile page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentDetail {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group: Option<String>,
    pub form_group: Option<String>,
}

type DetailRow = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The pupil `id` if they belong to `school_id`.
pub async fn find_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<StudentDetail>> {
    let row: Option<DetailRow> = with_conn!(conn, |c| students::table
        .left_join(year_groups::table)
        .left_join(form_groups::table)
        .filter(students::id.eq(id))
        .filter(students::school_id.eq(school_id))
        .select((
            students::id,
            students::forename,
            students::surname,
            students::email,
            students::parent_email,
            students::upn,
            year_groups::name.nullable(),
            form_groups::name.nullable(),
        ))
        .first(c)
        .await
        .optional())?;
    Ok(row.map(
        |(id, forename, surname, email, parent_email, upn, year_group, form_group)| StudentDetail {
            id,
            forename,
            surname,
            email,
            parent_email,
            upn,
            year_group,
            form_group,
        },
    ))
}

/// The classes a pupil is in, by name: (id, name).
pub async fn classes_of(
    conn: &mut DbConn<'_>,
    student_id: &str,
) -> QueryResult<Vec<(String, String)>> {
    use crate::db::schema::classes;
    with_conn!(conn, |c| classes::table
        .inner_join(class_students::table)
        .filter(class_students::student_id.eq(student_id))
        .order((classes::name.asc(), classes::id.asc()))
        .select((classes::id, classes::name))
        .load(c)
        .await)
}

/// Every class of one school, by name: (id, name).
pub async fn school_classes(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<(String, String)>> {
    use crate::db::schema::classes;
    with_conn!(conn, |c| classes::table
        .filter(classes::school_id.eq(school_id))
        .order((classes::name.asc(), classes::id.asc()))
        .select((classes::id, classes::name))
        .load(c)
        .await)
}

/// The forename and surname of each of pupils `ids`, by id: one statement for a listed page.
pub async fn names_of(
    conn: &mut DbConn<'_>,
    ids: &[&str],
) -> QueryResult<std::collections::HashMap<String, (String, String)>> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let mut unique: Vec<&str> = ids.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let rows: Vec<(String, String, String)> = with_conn!(conn, |c| students::table
        .filter(students::id.eq_any(&unique))
        .select((students::id, students::forename, students::surname))
        .load(c)
        .await)?;
    Ok(rows.into_iter().map(|(id, forename, surname)| (id, (forename, surname))).collect())
}

// Queries for background jobs.

/// Pupil `id`'s forename and surname, if the pupil exists.
pub async fn find_name(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| students::table
        .find(id)
        .select((students::forename, students::surname))
        .first(c)
        .await
        .optional())
}
