//! Staff accounts: teachers, admins, leaders and Voicemark's own superadmins.

use chrono::NaiveDateTime;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{class_staff, users};
use crate::db::DbConn;
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

/// E-mail addresses are compared without case and without surrounding spaces (the rule
/// lives in `crate::addresses`).
pub use crate::addresses::normalise_email;

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
    Ok(())
}
