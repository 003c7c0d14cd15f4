//! Staff accounts (`users`): teachers, admins, leaders and Voicemark's own superadmins;
//! their class memberships (`class_staff`), the admin's staff list and form, sign-in fields.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{class_staff, users};
use crate::db::{like_pattern, lower, DbConn};
use crate::ids::new_id;
use crate::models::{now, NameKey};
use crate::after_name;
use crate::with_conn;

/// The fields a new user needs; flags not listed take their defaults (false).
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = users)]
pub struct NewUser {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub forename: String,
    pub surname: String,
    pub title: Option<String>,
    /// Always stored lowercased.
    pub email: String,
    pub email_verified: Option<NaiveDateTime>,
    pub password_updated_at: Option<NaiveDateTime>,
    /// The argon2id hash.
    pub password: Option<String>,
    pub activated: bool,
    pub disabled: bool,
    pub leader: bool,
    pub school_id: Option<String>,
    pub role: UserRole,
}

/// A user as sign-in and the session need it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub email: String,
    pub password: Option<String>,
    pub pro: bool,
    pub activated: bool,
    pub has_completed_tutorial: bool,
    pub leader: bool,
    pub disabled: bool,
    pub school_id: Option<String>,
    pub role: UserRole,
}

// E-mail addresses are compared without case and without surrounding spaces.
use crate::addresses::normalise_email;
use crate::db::changes::{self, Change};

pub async fn insert(conn: &mut DbConn<'_>, user: &NewUser) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(users::table)
        .values(user)
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn find_by_email(conn: &mut DbConn<'_>, email: &str) -> QueryResult<Option<User>> {
    let email = normalise_email(email);
    with_conn!(conn, |c| users::table
        .filter(users::email.eq(&email))
        .select(User::as_select())
        .first(c)
        .await
        .optional())
}

/// The user `id`, if any.
pub async fn find(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<User>> {
    with_conn!(conn, |c| users::table
        .find(id)
        .select(User::as_select())
        .first(c)
        .await
        .optional())
}

/// The password hash of user `id`: `None` when there is no such user, `Some(None)` when
/// the user has no password.
pub async fn password_hash(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<Option<String>>> {
    with_conn!(conn, |c| users::table
        .find(id)
        .select(users::password)
        .first(c)
        .await
        .optional())
}

/// Stores a new password hash, changed at `at`.
pub async fn set_password(
    conn: &mut DbConn<'_>,
    id: &str,
    hash: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .set((
            users::password.eq(hash),
            users::password_updated_at.eq(at),
            users::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

/// Records that the user's address is proven to be theirs (a link sent to it was used),
/// unless it already was.
pub async fn mark_email_verified(
    conn: &mut DbConn<'_>,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .filter(users::email_verified.is_null())
        .set((users::email_verified.eq(at), users::updated_at.eq(at)))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

/// Records a sign-in as the user's latest activity.
pub async fn touch_last_active(
    conn: &mut DbConn<'_>,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .set(users::last_active.eq(at))
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn count(conn: &mut DbConn<'_>) -> QueryResult<i64> {
    with_conn!(conn, |c| users::table.count().get_result(c).await)
}

/// Puts a member of staff in a class.
pub async fn add_to_class(conn: &mut DbConn<'_>, user_id: &str, class_id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(class_staff::table)
        .values((
            class_staff::class_id.eq(class_id),
            class_staff::user_id.eq(user_id)
        ))
        .execute(c)
        .await)?;
    Ok(())
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

/// What Manage School's staff list asks for: the school, an optional search of names and
/// e-mail, an optional single user, and where the page starts.
#[derive(Debug, Clone, Copy, Default)]
pub struct StaffQuery<'a> {
    pub search: Option<&'a str>,
    pub only_id: Option<&'a str>,
    pub after: Option<&'a NameKey>,
}

/// The school's users by surname, forename and id (searched by name or e-mail), at most
/// `limit` after `query.after`, and how many match the search in all.
pub async fn list_staff(
    conn: &mut DbConn<'_>,
    school_id: &str,
    query: StaffQuery<'_>,
    limit: i64,
) -> QueryResult<(Vec<StaffRow>, i64)> {
    let pattern = query.search.filter(|s| !s.trim().is_empty()).map(like_pattern);
    macro_rules! filtered {
        () => {{
            let mut q = users::table.filter(users::school_id.eq(school_id)).into_boxed();
            if let Some(id) = query.only_id {
                q = q.filter(users::id.eq(id));
            }
            if let Some(p) = &pattern {
                q = q.filter(
                    lower(users::forename)
                        .like(p.clone())
                        .escape('\\')
                        .or(lower(users::surname).like(p.clone()).escape('\\'))
                        .or(lower(users::forename.concat(" ").concat(users::surname))
                            .like(p.clone())
                            .escape('\\'))
                        .or(lower(users::email).like(p.clone()).escape('\\')),
                );
            }
            q
        }};
    }
    let total: i64 = with_conn!(conn, |c| filtered!().count().get_result(c).await)?;
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
    )> = with_conn!(conn, |c| {
        let mut q = filtered!();
        if let Some(k) = query.after {
            q = q.filter(after_name!(users, k));
        }
        q.order((users::surname.asc(), users::forename.asc(), users::id.asc()))
            .limit(limit)
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
            .await
    })?;
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
    let rows = rows
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
        .collect();
    Ok((rows, total))
}

/// The role of the school's user `id` and whether they are disabled, if that user belongs
/// to the school.
pub async fn staff_role(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<(UserRole, bool)>> {
    with_conn!(conn, |c| users::table
        .filter(users::id.eq(id))
        .filter(users::school_id.eq(school_id))
        .select((users::role, users::disabled))
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
///
/// Answers the member's id and whether it was written: a create whose e-mail address an
/// account already has (even one made by a create racing this one: the insert does
/// nothing on the unique index) writes nothing and answers that account's id.
pub async fn save_staff(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: Option<&str>,
    fields: &StaffFields,
) -> QueryResult<(String, bool)> {
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
            let user = NewUser {
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
            };
            let written = with_conn!(conn, |c| diesel::insert_into(users::table)
                .values(&user)
                .on_conflict_do_nothing()
                .execute(c)
                .await)?;
            if written == 0 {
                let other = user_with_email(conn, &fields.email).await?;
                return other
                    .map(|other| (other, false))
                    .ok_or(diesel::result::Error::NotFound);
            }
            id
        }
    };
    changes::publish(conn, Change::Users).await?;
    for class_id in &fields.class_ids {
        add_to_class(conn, &id, class_id).await?;
    }
    Ok((id, true))
}

/// Changes a user's name.
pub async fn update_name(
    conn: &mut DbConn<'_>,
    user_id: &str,
    forename: &str,
    surname: &str,
) -> QueryResult<()> {
    let at = crate::models::now();
    with_conn!(conn, |c| diesel::update(users::table.find(user_id))
        .set((
            users::forename.eq(forename),
            users::surname.eq(surname),
            users::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

/// Records that the user has finished (or skipped) the onboarding tour.
pub async fn mark_tutorial_complete(conn: &mut DbConn<'_>, user_id: &str) -> QueryResult<()> {
    let at = crate::models::now();
    with_conn!(conn, |c| diesel::update(users::table.find(user_id))
        .set((
            users::has_completed_tutorial.eq(true),
            users::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

/// The school's active admins and organisation admins, who may buy or change its plan:
/// (forename, surname, email), by surname and forename.
pub async fn plan_admins(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Vec<(String, String, String)>> {
    with_conn!(conn, |c| users::table
        .filter(users::school_id.eq(school_id))
        .filter(users::role.eq_any([UserRole::Admin, UserRole::OrgAdmin]))
        .filter(users::disabled.eq(false))
        .filter(users::activated.eq(true))
        .order((users::surname.asc(), users::forename.asc(), users::id.asc()))
        .select((users::forename, users::surname, users::email))
        .load(c)
        .await)
}
