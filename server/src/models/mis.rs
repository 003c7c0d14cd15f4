//! The MIS sync's columns (docs/mis-sync.md): the reads
//! and writes of pupils, form groups, classes and staff matched by their MIS id
//! (`wonde_id` or `groupcall_id`, by the school's [`Source`]). The decisions (what changes, what is archived) are `crate::mis`; this file
//! only stores rows. The runs are `mis_runs.rs`; a school's credentials and
//! `last_full_sync` are `mis_credentials.rs`.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{
    class_staff, class_students, classes, form_groups, students, users,
};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::mis::Source;
use crate::models::now;
use crate::with_conn;
use crate::db::changes::{self, Change};

pub use super::mis_credentials::{
    connected_source, groupcall_credentials, last_full_sync, set_groupcall_credentials,
    set_last_full_sync, set_wonde_credentials, wonde_credentials,
};
pub use super::mis_runs::{
    finish_run, last_done, recent_runs, run_status, set_progress, start_run, RunResult, SyncRun,
};

// ---------------------------------------------------------------- pupils

/// A pupil of the school as the sync compares them.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = students)]
pub struct SyncedPupil {
    pub id: String,
    pub wonde_id: Option<String>,
    pub groupcall_id: Option<String>,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group_id: Option<String>,
    pub form_group_id: Option<String>,
    pub archived_at: Option<NaiveDateTime>,
}

impl SyncedPupil {
    /// The pupil's id in `source` (`None`: not synced from it).
    pub fn source_id(&self, source: Source) -> Option<&str> {
        match source {
            Source::Wonde => self.wonde_id.as_deref(),
            Source::Groupcall => self.groupcall_id.as_deref(),
        }
    }
}

/// Every pupil of the school, archived ones and manual ones included.
pub async fn school_pupils(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Vec<SyncedPupil>> {
    with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        .select(SyncedPupil::as_select())
        .load(c)
        .await)
}

/// A pupil first seen in the MIS.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = students)]
pub struct NewSyncedPupil {
    pub id: String,
    pub wonde_id: Option<String>,
    pub groupcall_id: Option<String>,
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

pub async fn insert_pupils(conn: &mut DbConn<'_>, rows: Vec<NewSyncedPupil>) -> QueryResult<usize> {
    let written = crate::batch_insert!(conn, students::table, rows, columns = 13)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(written)
}

/// The fields of a known pupil the MIS changed (`None`: leave as stored).
#[derive(Debug, Clone, Default, PartialEq, Eq, AsChangeset)]
#[diesel(table_name = students)]
pub struct PupilChange {
    pub wonde_id: Option<Option<String>>,
    pub groupcall_id: Option<Option<String>>,
    pub forename: Option<String>,
    pub surname: Option<String>,
    pub email: Option<Option<String>>,
    pub parent_email: Option<Option<String>>,
    pub upn: Option<Option<String>>,
    pub year_group_id: Option<Option<String>>,
    pub form_group_id: Option<Option<String>>,
    pub archived_at: Option<Option<NaiveDateTime>>,
}

impl PupilChange {
    pub fn is_empty(&self) -> bool {
        *self == PupilChange::default()
    }
}

pub async fn update_pupil(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
    change: &PupilChange,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(
        students::table
            .filter(students::id.eq(id))
            .filter(students::school_id.eq(school_id))
    )
    .set((change, students::updated_at.eq(now())))
    .execute(c)
    .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

/// Archives the school's pupils `ids` (keeping their submissions) and takes them out of
/// their classes.
pub async fn archive_pupils(
    conn: &mut DbConn<'_>,
    school_id: &str,
    ids: &[String],
    at: NaiveDateTime,
) -> QueryResult<usize> {
    let mut archived = 0;
    for chunk in ids.chunks(500) {
        archived += with_conn!(conn, |c| diesel::update(
            students::table
                .filter(students::school_id.eq(school_id))
                .filter(students::id.eq_any(chunk))
                .filter(students::archived_at.is_null())
        )
        .set((students::archived_at.eq(at), students::updated_at.eq(at)))
        .execute(c)
        .await)?;
        with_conn!(conn, |c| diesel::delete(
            class_students::table.filter(class_students::student_id.eq_any(chunk))
        )
        .execute(c)
        .await)?;
    }
    changes::publish(conn, Change::Roster).await?;
    Ok(archived)
}

// ---------------------------------------------------------------- form groups and classes

/// A form group or class of the school: (id, MIS id, name).
pub type GroupRow = (String, Option<String>, String);

type BothIds = (String, Option<String>, Option<String>, String);

fn pick(rows: Vec<BothIds>, source: Source) -> Vec<GroupRow> {
    rows.into_iter()
        .map(|(id, wonde, groupcall, name)| match source {
            Source::Wonde => (id, wonde, name),
            Source::Groupcall => (id, groupcall, name),
        })
        .collect()
}

/// The school's form groups with their ids in `source`.
pub async fn school_form_groups(
    conn: &mut DbConn<'_>,
    school_id: &str,
    source: Source,
) -> QueryResult<Vec<GroupRow>> {
    let rows: Vec<BothIds> = with_conn!(conn, |c| form_groups::table
        .filter(form_groups::school_id.eq(school_id))
        .select((form_groups::id, form_groups::wonde_id, form_groups::groupcall_id, form_groups::name))
        .load(c)
        .await)?;
    Ok(pick(rows, source))
}

/// The school's classes with their ids in `source`.
pub async fn school_classes(
    conn: &mut DbConn<'_>,
    school_id: &str,
    source: Source,
) -> QueryResult<Vec<GroupRow>> {
    let rows: Vec<BothIds> = with_conn!(conn, |c| classes::table
        .filter(classes::school_id.eq(school_id))
        .select((classes::id, classes::wonde_id, classes::groupcall_id, classes::name))
        .load(c)
        .await)?;
    Ok(pick(rows, source))
}

/// (wonde_id, groupcall_id) for a record first seen in `source`.
fn split(source: Source, source_id: &str) -> (Option<&str>, Option<&str>) {
    match source {
        Source::Wonde => (Some(source_id), None),
        Source::Groupcall => (None, Some(source_id)),
    }
}

/// Creates a form group from the MIS; returns its id.
pub async fn insert_form_group(
    conn: &mut DbConn<'_>,
    school_id: &str,
    source: Source,
    source_id: &str,
    name: &str,
) -> QueryResult<String> {
    let (id, at) = (new_id(), now());
    let (wonde_id, groupcall_id) = split(source, source_id);
    with_conn!(conn, |c| diesel::insert_into(form_groups::table)
        .values((
            form_groups::id.eq(&id),
            form_groups::wonde_id.eq(wonde_id),
            form_groups::groupcall_id.eq(groupcall_id),
            form_groups::created_at.eq(at),
            form_groups::updated_at.eq(at),
            form_groups::name.eq(name),
            form_groups::school_id.eq(school_id),
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(id)
}

/// Names (and links to the MIS) the school's form group `id`.
pub async fn update_form_group(
    conn: &mut DbConn<'_>,
    id: &str,
    source: Source,
    source_id: &str,
    name: &str,
) -> QueryResult<()> {
    match source {
        Source::Wonde => with_conn!(conn, |c| diesel::update(form_groups::table.find(id))
            .set((
                form_groups::wonde_id.eq(source_id),
                form_groups::name.eq(name),
                form_groups::updated_at.eq(now()),
            ))
            .execute(c)
            .await)?,
        Source::Groupcall => with_conn!(conn, |c| diesel::update(form_groups::table.find(id))
            .set((
                form_groups::groupcall_id.eq(source_id),
                form_groups::name.eq(name),
                form_groups::updated_at.eq(now()),
            ))
            .execute(c)
            .await)?,
    };
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

/// Creates a class from the MIS; returns its id.
pub async fn insert_class(
    conn: &mut DbConn<'_>,
    school_id: &str,
    source: Source,
    source_id: &str,
    name: &str,
) -> QueryResult<String> {
    let (id, at) = (new_id(), now());
    let (wonde_id, groupcall_id) = split(source, source_id);
    with_conn!(conn, |c| diesel::insert_into(classes::table)
        .values((
            classes::id.eq(&id),
            classes::wonde_id.eq(wonde_id),
            classes::groupcall_id.eq(groupcall_id),
            classes::created_at.eq(at),
            classes::updated_at.eq(at),
            classes::name.eq(name),
            classes::school_id.eq(school_id),
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(id)
}

pub async fn update_class(
    conn: &mut DbConn<'_>,
    id: &str,
    source: Source,
    source_id: &str,
    name: &str,
) -> QueryResult<()> {
    match source {
        Source::Wonde => with_conn!(conn, |c| diesel::update(classes::table.find(id))
            .set((
                classes::wonde_id.eq(source_id),
                classes::name.eq(name),
                classes::updated_at.eq(now()),
            ))
            .execute(c)
            .await)?,
        Source::Groupcall => with_conn!(conn, |c| diesel::update(classes::table.find(id))
            .set((
                classes::groupcall_id.eq(source_id),
                classes::name.eq(name),
                classes::updated_at.eq(now()),
            ))
            .execute(c)
            .await)?,
    };
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

/// Every (class, pupil) link of the classes `class_ids`.
pub async fn class_links(
    conn: &mut DbConn<'_>,
    class_ids: &[String],
) -> QueryResult<Vec<(String, String)>> {
    let mut links = Vec::new();
    for chunk in class_ids.chunks(500) {
        let part: Vec<(String, String)> = with_conn!(conn, |c| class_students::table
            .filter(class_students::class_id.eq_any(chunk))
            .select((class_students::class_id, class_students::student_id))
            .load(c)
            .await)?;
        links.extend(part);
    }
    Ok(links)
}

#[derive(Insertable)]
#[diesel(table_name = class_students)]
struct ClassLink {
    class_id: String,
    student_id: String,
}

/// Adds (class, pupil) links (ignoring ones that exist).
pub async fn add_class_links(conn: &mut DbConn<'_>, links: &[(String, String)]) -> QueryResult<usize> {
    let rows: Vec<ClassLink> = links
        .iter()
        .map(|(class_id, student_id)| ClassLink {
            class_id: class_id.clone(),
            student_id: student_id.clone(),
        })
        .collect();
    let added = crate::batch_insert!(conn, class_students::table, rows, columns = 2, |q| q
        .on_conflict_do_nothing())?;
    changes::publish(conn, Change::Roster).await?;
    Ok(added)
}

pub async fn remove_class_link(
    conn: &mut DbConn<'_>,
    class_id: &str,
    student_id: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        class_students::table
            .filter(class_students::class_id.eq(class_id))
            .filter(class_students::student_id.eq(student_id))
    )
    .execute(c)
    .await)?;
    changes::publish(conn, Change::Roster).await?;
    Ok(())
}

/// Sets the staff of class `class_id` among `synced_users` to exactly `user_ids` (links to
/// users the MIS does not know are left alone).
pub async fn set_class_staff(
    conn: &mut DbConn<'_>,
    class_id: &str,
    synced_users: &[String],
    user_ids: &[String],
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        class_staff::table
            .filter(class_staff::class_id.eq(class_id))
            .filter(class_staff::user_id.eq_any(synced_users))
    )
    .execute(c)
    .await)?;
    for user_id in user_ids {
        with_conn!(conn, |c| diesel::insert_into(class_staff::table)
            .values((
                class_staff::class_id.eq(class_id),
                class_staff::user_id.eq(user_id),
            ))
            .on_conflict_do_nothing()
            .execute(c)
            .await)?;
    }
    Ok(())
}

// ---------------------------------------------------------------- staff

/// A user of the school as the sync compares them.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct SyncedUser {
    pub id: String,
    pub wonde_id: Option<String>,
    pub groupcall_id: Option<String>,
    pub email: String,
    pub forename: String,
    pub surname: String,
    pub title: Option<String>,
    pub staff_code: Option<String>,
}

impl SyncedUser {
    /// The user's id in `source`.
    pub fn source_id(&self, source: Source) -> Option<&str> {
        match source {
            Source::Wonde => self.wonde_id.as_deref(),
            Source::Groupcall => self.groupcall_id.as_deref(),
        }
    }
}

pub async fn school_users(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Vec<SyncedUser>> {
    with_conn!(conn, |c| users::table
        .filter(users::school_id.eq(school_id))
        .select(SyncedUser::as_select())
        .load(c)
        .await)
}

/// Links user `id` to the MIS and takes its names (never its activation or role).
pub async fn update_synced_user(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
    source: Source,
    source_id: &str,
    names: (&str, &str, Option<&str>),
    staff_code: Option<&str>,
) -> QueryResult<()> {
    let row = users::table
        .filter(users::id.eq(id))
        .filter(users::school_id.eq(school_id));
    let same = (
        users::forename.eq(names.0),
        users::surname.eq(names.1),
        users::title.eq(names.2),
        users::staff_code.eq(staff_code),
        users::updated_at.eq(now()),
    );
    match source {
        Source::Wonde => with_conn!(conn, |c| diesel::update(row)
            .set((users::wonde_id.eq(source_id), same))
            .execute(c)
            .await)?,
        Source::Groupcall => with_conn!(conn, |c| diesel::update(row)
            .set((users::groupcall_id.eq(source_id), same))
            .execute(c)
            .await)?,
    };
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

// ---------------------------------------------------------------- data problems

/// The data problems of the school's current (not archived) pupils: those with no parent
/// address, those without a form group, and the pupil e-mail addresses used more than once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataProblems {
    /// (id, forename, surname)
    pub no_parent: Vec<(String, String, String)>,
    pub no_form: Vec<(String, String, String)>,
    /// (address, how many pupils)
    pub duplicate_emails: Vec<(String, i64)>,
}

pub async fn data_problems(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<DataProblems> {
    type Row = (String, String, String, Option<String>, Option<String>, Option<String>);
    let rows: Vec<Row> = with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        .filter(students::archived_at.is_null())
        .order((students::surname.asc(), students::forename.asc(), students::id.asc()))
        .select((
            students::id,
            students::forename,
            students::surname,
            students::parent_email,
            students::form_group_id,
            students::email,
        ))
        .load(c)
        .await)?;
    let mut problems = DataProblems::default();
    let mut emails: std::collections::BTreeMap<String, i64> = Default::default();
    for (id, forename, surname, parent, form, email) in rows {
        if parent.is_none() {
            problems.no_parent.push((id.clone(), forename.clone(), surname.clone()));
        }
        if form.is_none() {
            problems.no_form.push((id.clone(), forename.clone(), surname.clone()));
        }
        if let Some(email) = email {
            *emails.entry(email).or_default() += 1;
        }
    }
    problems.duplicate_emails = emails.into_iter().filter(|(_, n)| *n > 1).collect();
    Ok(problems)
}
