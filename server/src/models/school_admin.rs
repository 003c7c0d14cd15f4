//! A school's own records as its admin manages them (Manage School): pupils, staff, classes,
//! form groups, year groups, settings and the pupil CSV import. Every function takes the
//! school's id and touches nothing outside that school.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use core_wasm::{NotificationFrequency, OrgType, UserRole};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{
    class_staff, class_students, classes, form_groups, schools, students, users, year_groups,
};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::groups;
use crate::models::now;
use crate::with_conn;

diesel::define_sql_function!(
    /// SQL `lower()`: ASCII case folding on SQLite, full on PostgreSQL; used for search.
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text
);

/// `%text%` for a case-insensitive LIKE, with LIKE's own wildcards taken literally.
pub fn like_pattern(text: &str) -> String {
    let escaped: String = text
        .trim()
        .to_lowercase()
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            other => vec![other],
        })
        .collect();
    format!("%{escaped}%")
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

/// One page of the school's pupils (by surname, forename), optionally matching `search` in
/// the name, e-mail or UPN (or only the pupil `only_id`); and how many match in all.
pub async fn list_pupils(
    conn: &mut DbConn<'_>,
    school_id: &str,
    search: Option<&str>,
    only_id: Option<&str>,
    offset: i64,
    limit: i64,
) -> QueryResult<(Vec<PupilRow>, i64)> {
    let pattern = search.filter(|s| !s.trim().is_empty()).map(like_pattern);
    macro_rules! filtered {
        () => {{
            let mut query = students::table
                .left_join(year_groups::table)
                .left_join(form_groups::table)
                .filter(students::school_id.eq(school_id))
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
    let rows: Vec<PupilTuple> = with_conn!(conn, |c| filtered!()
        .order((
            students::surname.asc(),
            students::forename.asc(),
            students::id.asc()
        ))
        .offset(offset)
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
        .await)?;
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

/// Whether the (shared) year group `id` exists.
pub async fn year_group_exists(conn: &mut DbConn<'_>, id: &str) -> QueryResult<bool> {
    let n: i64 = with_conn!(conn, |c| year_groups::table
        .filter(year_groups::id.eq(id))
        .count()
        .get_result(c)
        .await)?;
    Ok(n > 0)
}

/// Creates the pupil (`id` None) or updates the school's pupil `id`, and sets their classes
/// to exactly `fields.class_ids`. Returns the pupil's id. The caller has checked that every
/// referenced id belongs to the school.
pub async fn save_pupil(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: Option<&str>,
    fields: &PupilFields,
) -> QueryResult<String> {
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
            crate::models::students::insert(
                conn,
                &crate::models::students::NewStudent {
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
            id
        }
    };
    for class_id in &fields.class_ids {
        crate::models::students::add_to_class(conn, &id, class_id).await?;
    }
    Ok(id)
}

/// A member of staff as the admin's list and form show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffRow {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub email: String,
    pub role: UserRole,
    pub activated: bool,
    pub disabled: bool,
    pub has_password: bool,
    pub class_ids: Vec<String>,
}

/// Every user of the school, by surname and forename.
pub async fn list_staff(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Vec<StaffRow>> {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        String,
        String,
        String,
        String,
        UserRole,
        bool,
        bool,
        Option<String>,
    )> = with_conn!(conn, |c| users::table
        .filter(users::school_id.eq(school_id))
        .order((users::surname.asc(), users::forename.asc(), users::id.asc()))
        .select((
            users::id,
            users::forename,
            users::surname,
            users::email,
            users::role,
            users::activated,
            users::disabled,
            users::password,
        ))
        .load(c)
        .await)?;
    let ids: Vec<&String> = rows.iter().map(|r| &r.0).collect();
    let links: Vec<(String, String)> = if ids.is_empty() {
        Vec::new()
    } else {
        with_conn!(conn, |c| class_staff::table
            .filter(class_staff::user_id.eq_any(&ids))
            .select((class_staff::user_id, class_staff::class_id))
            .load(c)
            .await)?
    };
    let mut classes_of: HashMap<String, Vec<String>> = HashMap::new();
    for (user, class) in links {
        classes_of.entry(user).or_default().push(class);
    }
    Ok(rows
        .into_iter()
        .map(|r| StaffRow {
            class_ids: classes_of.remove(&r.0).unwrap_or_default(),
            id: r.0,
            forename: r.1,
            surname: r.2,
            email: r.3,
            role: r.4,
            activated: r.5,
            disabled: r.6,
            has_password: r.7.is_some(),
        })
        .collect())
}

/// The role of the school's user `id`, if that user belongs to the school.
pub async fn staff_role(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<UserRole>> {
    with_conn!(conn, |c| users::table
        .filter(users::id.eq(id))
        .filter(users::school_id.eq(school_id))
        .select(users::role)
        .first(c)
        .await
        .optional())
}

/// The id of the user with this (normalised) e-mail address, if any.
pub async fn user_with_email(conn: &mut DbConn<'_>, email: &str) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| users::table
        .filter(users::email.eq(email))
        .select(users::id)
        .first(c)
        .await
        .optional())
}

/// The fields of a member of staff the admin edits.
#[derive(Debug, Clone)]
pub struct StaffFields {
    pub forename: String,
    pub surname: String,
    /// Normalised (trimmed, lowercase).
    pub email: String,
    pub role: UserRole,
    pub class_ids: Vec<String>,
    pub activated: bool,
    pub disabled: bool,
}

/// Creates (without a password) or updates a member of staff of the school and sets their
/// classes to exactly `fields.class_ids`. Returns the user's id.
pub async fn save_staff(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: Option<&str>,
    fields: &StaffFields,
) -> QueryResult<String> {
    let at = now();
    let id = match id {
        Some(id) => {
            with_conn!(conn, |c| diesel::update(
                users::table
                    .filter(users::id.eq(id))
                    .filter(users::school_id.eq(school_id))
            )
            .set((
                users::forename.eq(&fields.forename),
                users::surname.eq(&fields.surname),
                users::email.eq(&fields.email),
                users::role.eq(fields.role),
                users::activated.eq(fields.activated),
                users::disabled.eq(fields.disabled),
                users::updated_at.eq(at),
            ))
            .execute(c)
            .await)?;
            with_conn!(conn, |c| diesel::delete(
                class_staff::table.filter(class_staff::user_id.eq(id))
            )
            .execute(c)
            .await)?;
            id.to_owned()
        }
        None => {
            let id = new_id();
            crate::models::users::insert(
                conn,
                &crate::models::users::NewUser {
                    id: id.clone(),
                    created_at: at,
                    updated_at: at,
                    forename: fields.forename.clone(),
                    surname: fields.surname.clone(),
                    title: None,
                    email: fields.email.clone(),
                    email_verified: None,
                    password_updated_at: None,
                    password: None,
                    activated: fields.activated,
                    disabled: fields.disabled,
                    leader: false,
                    school_id: Some(school_id.to_owned()),
                    role: fields.role,
                },
            )
            .await?;
            id
        }
    };
    for class_id in &fields.class_ids {
        crate::models::users::add_to_class(conn, &id, class_id).await?;
    }
    Ok(id)
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
    let counts: Vec<(Option<String>, i64)> = with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        .filter(students::form_group_id.is_not_null())
        .group_by(students::form_group_id)
        .select((students::form_group_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    Ok(with_counts(
        rows,
        counts
            .into_iter()
            .filter_map(|(id, n)| id.map(|id| (id, n)))
            .collect(),
    ))
}

/// Every (shared) year group by name, with how many of the school's pupils are in each.
pub async fn list_year_groups(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<GroupRow>> {
    let rows: Vec<(String, String)> = with_conn!(conn, |c| year_groups::table
        .order((year_groups::name.asc(), year_groups::id.asc()))
        .select((year_groups::id, year_groups::name))
        .load(c)
        .await)?;
    let counts: Vec<(Option<String>, i64)> = with_conn!(conn, |c| students::table
        .filter(students::school_id.eq(school_id))
        .filter(students::year_group_id.is_not_null())
        .group_by(students::year_group_id)
        .select((students::year_group_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    Ok(with_counts(
        rows,
        counts
            .into_iter()
            .filter_map(|(id, n)| id.map(|id| (id, n)))
            .collect(),
    ))
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

/// The id of the year group called `name`, if any (case-insensitive).
pub async fn year_group_named(conn: &mut DbConn<'_>, name: &str) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| year_groups::table
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
            Ok((n == 1).then(|| id.to_owned()))
        }
        None => {
            let class = groups::NewClass {
                id: new_id(),
                created_at: at,
                updated_at: at,
                name: name.to_owned(),
                school_id: school_id.to_owned(),
            };
            groups::insert_class(conn, &class).await?;
            Ok(Some(class.id))
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
            Ok((n == 1).then(|| id.to_owned()))
        }
        None => {
            let group = groups::NewFormGroup {
                id: new_id(),
                created_at: at,
                updated_at: at,
                name: name.to_owned(),
                school_id: school_id.to_owned(),
            };
            groups::insert_form_group(conn, &group).await?;
            Ok(Some(group.id))
        }
    }
}

/// How many pupils of schools other than `school_id` are in year group `id`.
pub async fn year_group_used_elsewhere(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<bool> {
    let n: i64 = with_conn!(conn, |c| students::table
        .filter(students::year_group_id.eq(id))
        .filter(students::school_id.ne(school_id))
        .count()
        .get_result(c)
        .await)?;
    Ok(n > 0)
}

/// Renames the (shared) year group `id`.
pub async fn rename_year_group(conn: &mut DbConn<'_>, id: &str, name: &str) -> QueryResult<bool> {
    let at = now();
    let n = with_conn!(conn, |c| diesel::update(year_groups::table.find(id))
        .set((year_groups::name.eq(name), year_groups::updated_at.eq(at)))
        .execute(c)
        .await)?;
    Ok(n == 1)
}

/// The school's settings.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = schools)]
pub struct SchoolSettings {
    pub name: String,
    pub postcode: Option<String>,
    #[diesel(column_name = type_)]
    pub org_type: OrgType,
    pub notify_parents_general: bool,
    pub notify_parents_assignment: bool,
    pub notifications_frequency: NotificationFrequency,
}

pub async fn school_settings(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<SchoolSettings>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(SchoolSettings::as_select())
        .first(c)
        .await
        .optional())
}

pub async fn save_school_settings(
    conn: &mut DbConn<'_>,
    school_id: &str,
    settings: &SchoolSettings,
) -> QueryResult<()> {
    let at = now();
    with_conn!(conn, |c| diesel::update(schools::table.find(school_id))
        .set((
            schools::name.eq(&settings.name),
            schools::postcode.eq(&settings.postcode),
            schools::type_.eq(settings.org_type),
            schools::notify_parents_general.eq(settings.notify_parents_general),
            schools::notify_parents_assignment.eq(settings.notify_parents_assignment),
            schools::notifications_frequency.eq(settings.notifications_frequency),
            schools::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// One clean row of a pupil import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group: Option<String>,
    pub form_group: Option<String>,
}

/// Writes every row (creating year and form groups that do not exist yet); run it inside
/// one transaction so that a failure imports nothing.
pub async fn import_pupils(
    conn: &mut DbConn<'_>,
    school_id: &str,
    rows: &[ImportRow],
    at: NaiveDateTime,
) -> QueryResult<usize> {
    let mut year_ids: HashMap<String, String> = HashMap::new();
    let mut form_ids: HashMap<String, String> = HashMap::new();
    for row in rows {
        let year_group_id = match &row.year_group {
            Some(name) => {
                let key = name.to_lowercase();
                if let Some(id) = year_ids.get(&key) {
                    Some(id.clone())
                } else {
                    let id = match year_group_named(conn, name).await? {
                        Some(id) => id,
                        None => groups::year_group_id(conn, name).await?,
                    };
                    year_ids.insert(key, id.clone());
                    Some(id)
                }
            }
            None => None,
        };
        let form_group_id = match &row.form_group {
            Some(name) => {
                let key = name.to_lowercase();
                if let Some(id) = form_ids.get(&key) {
                    Some(id.clone())
                } else {
                    let id = match form_group_named(conn, school_id, name).await? {
                        Some(id) => id,
                        None => save_form_group(conn, school_id, None, name)
                            .await?
                            .unwrap_or_default(),
                    };
                    form_ids.insert(key, id.clone());
                    Some(id)
                }
            }
            None => None,
        };
        crate::models::students::insert(
            conn,
            &crate::models::students::NewStudent {
                id: new_id(),
                created_at: at,
                updated_at: at,
                forename: row.forename.clone(),
                surname: row.surname.clone(),
                email: row.email.clone(),
                parent_email: row.parent_email.clone(),
                upn: row.upn.clone(),
                school_id: school_id.to_owned(),
                year_group_id,
                form_group_id,
            },
        )
        .await?;
    }
    Ok(rows.len())
}

/// The records of a CSV text (RFC 4180: commas, double-quoted fields with `""` for a quote,
/// CRLF or LF line ends), each with the line number it starts on (1 = the first line).
/// Empty lines are skipped. Errors name the line of an unterminated quote.
pub fn parse_csv(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut line = 1;
    let mut start_line = 1;
    let mut field = String::new();
    let mut record: Vec<String> = Vec::new();
    let mut in_quotes = false;
    let mut chars = text.chars().peekable();
    let mut record_has_content = false;
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                '\n' => {
                    line += 1;
                    field.push('\n');
                }
                other => field.push(other),
            }
            continue;
        }
        match c {
            '"' => {
                in_quotes = true;
                record_has_content = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                record_has_content = true;
            }
            '\r' => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                if record_has_content || record.iter().any(|f| !f.trim().is_empty()) {
                    records.push((start_line, std::mem::take(&mut record)));
                } else {
                    record.clear();
                }
                record_has_content = false;
                line += 1;
                start_line = line;
            }
            other => {
                field.push(other);
                record_has_content = true;
            }
        }
    }
    if in_quotes {
        return Err(format!("Line {start_line}: a quoted value is not closed."));
    }
    if record_has_content || !field.is_empty() {
        record.push(field);
        if record.iter().any(|f| !f.trim().is_empty()) || record.len() > 1 {
            records.push((start_line, record));
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_records_know_their_line() {
        let text = "a,b\n\n\"x, y\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",z\nlast,1";
        let records = parse_csv(text).expect("parses");
        assert_eq!(
            records,
            vec![
                (1, vec!["a".to_owned(), "b".to_owned()]),
                (3, vec!["x, y".to_owned(), "say \"hi\"".to_owned()]),
                (4, vec!["multi\nline".to_owned(), "z".to_owned()]),
                (6, vec!["last".to_owned(), "1".to_owned()]),
            ]
        );
        assert_eq!(
            parse_csv("a\n\"open").expect_err("unclosed"),
            "Line 2: a quoted value is not closed."
        );
    }
}
