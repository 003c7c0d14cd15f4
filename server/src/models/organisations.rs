//! Trusts (multi-academy trusts) and the schools or businesses they group.

use chrono::NaiveDateTime;
use core_wasm::{NotificationFrequency, OrgType};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{schools, trusts};
use crate::db::DbConn;
use crate::models::now;
use crate::with_conn;

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = trusts)]
pub struct NewTrust {
    pub id: String,
    pub name: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// The fields a new school needs; the rest take their defaults.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = schools)]
pub struct NewSchool {
    pub id: String,
    pub trust_id: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub name: String,
    pub postcode: Option<String>,
    #[diesel(column_name = type_)]
    pub org_type: OrgType,
    /// Sends the school's users straight to the leaders area.
    pub redirect_to_leaders: bool,
    pub notifications_frequency: NotificationFrequency,
}

/// A school as most screens need it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = schools)]
pub struct SchoolSummary {
    pub id: String,
    pub trust_id: Option<String>,
    pub name: String,
    pub postcode: Option<String>,
    #[diesel(column_name = type_)]
    pub org_type: OrgType,
}

pub async fn insert_trust(conn: &mut DbConn<'_>, trust: &NewTrust) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(trusts::table)
        .values(trust)
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn insert_school(conn: &mut DbConn<'_>, school: &NewSchool) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(schools::table)
        .values(school)
        .execute(c)
        .await)?;
    Ok(())
}

/// The school with exactly this name, if any.
pub async fn find_school_by_name(
    conn: &mut DbConn<'_>,
    name: &str,
) -> QueryResult<Option<SchoolSummary>> {
    with_conn!(conn, |c| schools::table
        .filter(schools::name.eq(name))
        .select(SchoolSummary::as_select())
        .first(c)
        .await
        .optional())
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

/// What the session answer needs of a user's school: (redirect to the leaders' area,
/// Stripe product id); `None` when there is no such school.
pub async fn session_flags(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<(bool, Option<String>)>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((schools::redirect_to_leaders, schools::stripe_product_id))
        .first(c)
        .await
        .optional())
}

/// Gives a user (a MAT user or an organisation admin) access to one more school.
pub async fn add_membership(
    conn: &mut DbConn<'_>,
    user_id: &str,
    school_id: &str,
    role: core_wasm::UserRole,
    at: NaiveDateTime,
) -> QueryResult<()> {
    use crate::db::schema::organisation_memberships as m;
    with_conn!(conn, |c| diesel::insert_into(m::table)
        .values((
            m::user_id.eq(user_id),
            m::school_id.eq(school_id),
            m::role.eq(role),
            m::created_at.eq(at)
        ))
        .execute(c)
        .await)?;
    Ok(())
}

// Queries for background jobs.

/// A school's rules for e-mail: whether parents may get each type, and the frequency new
/// recipients start with (applied by `jobs::audience`).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = schools)]
pub struct SchoolMailRules {
    pub notify_parents_general: bool,
    pub notify_parents_assignment: bool,
    pub notifications_frequency: NotificationFrequency,
}

/// School `school_id`'s e-mail rules, if the school exists.
pub async fn school_mail_rules(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<SchoolMailRules>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(SchoolMailRules::as_select())
        .first(c)
        .await
        .optional())
}
