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
use crate::db::changes::{self, Change};

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
    /// The AI assistant keeps its questions and answers (docs/assistant.md).
    pub assistant_history: bool,
    /// Opened e-mails are also counted by an invisible image (docs/reach.md, off by default).
    pub reach_pixel: bool,
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
            schools::assistant_history.eq(settings.assistant_history),
            schools::reach_pixel.eq(settings.reach_pixel),
            schools::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Whether the AI assistant keeps its questions and answers at `school_id` (true for an
/// unknown school: the caller's own history is theirs to delete).
pub async fn assistant_history_on(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<bool> {
    let on: Option<bool> = with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(schools::assistant_history)
        .first(c)
        .await
        .optional())?;
    Ok(on.unwrap_or(true))
}

/// Whether `school_id`'s e-mails carry the invisible image that counts them opened
/// (false for an unknown school).
pub async fn reach_pixel_on(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<bool> {
    let on: Option<bool> = with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(schools::reach_pixel)
        .first(c)
        .await
        .optional())?;
    Ok(on.unwrap_or(false))
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

/// The MAT users who may sign in (not disabled) and used a session since `since`, each
/// with their own school: whose trusts' Insights are prepared before the day starts
/// (`rpc::insights::prepare`). By id, so every run meets them in the same order.
pub async fn active_mat_users(
    conn: &mut DbConn<'_>,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, Option<String>)>> {
    use crate::db::schema::{sessions, users};
    with_conn!(conn, |c| users::table
        .filter(users::role.eq(core_wasm::UserRole::MatUser.as_str()))
        .filter(users::disabled.eq(false))
        .filter(users::id.eq_any(sessions::table.filter(sessions::last_seen_at.ge(since)).select(sessions::user_id)))
        .order(users::id.asc())
        .select((users::id, users::school_id))
        .load(c)
        .await)
}

// Acting in another school (docs/organisations.md "Active school").

/// The schools a MAT user or organisation admin may act in: their own school (`home`),
/// the schools of their memberships, and every school of a trust one of those belongs to.
/// Sorted by name.
pub async fn acting_school_ids(
    conn: &mut DbConn<'_>,
    user_id: &str,
    home: Option<&str>,
) -> QueryResult<Vec<String>> {
    use crate::db::schema::organisation_memberships as m;
    let mut base: Vec<String> = with_conn!(conn, |c| m::table
        .filter(m::user_id.eq(user_id))
        .select(m::school_id)
        .load(c)
        .await)?;
    base.extend(home.map(str::to_owned));
    if base.is_empty() {
        return Ok(base);
    }
    let trusts: Vec<Option<String>> = with_conn!(conn, |c| schools::table
        .filter(schools::id.eq_any(&base))
        .filter(schools::trust_id.is_not_null())
        .select(schools::trust_id)
        .load(c)
        .await)?;
    let trusts: Vec<String> = trusts.into_iter().flatten().collect();
    with_conn!(conn, |c| schools::table
        .filter(
            schools::id
                .eq_any(&base)
                .or(schools::trust_id.eq_any(&trusts))
        )
        .order((schools::name.asc(), schools::id.asc()))
        .select(schools::id)
        .load(c)
        .await)
}

/// Whether `user` may act in school `target` (the rule of docs/organisations.md): a
/// superadmin in any existing school; a MAT user or organisation admin in
/// [`acting_school_ids`] of their own school (`home`, not the active one); anyone else
/// only in their own school.
pub async fn may_act_in(
    conn: &mut DbConn<'_>,
    user_id: &str,
    role: core_wasm::UserRole,
    home: Option<&str>,
    target: &str,
) -> QueryResult<bool> {
    use core_wasm::UserRole;
    match role {
        UserRole::Superadmin => Ok(school_exists(conn, target).await?),
        UserRole::MatUser | UserRole::OrgAdmin => Ok(acting_school_ids(conn, user_id, home)
            .await?
            .iter()
            .any(|id| id == target)),
        UserRole::Admin | UserRole::Teacher => Ok(home == Some(target)),
    }
}

pub async fn school_exists(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<bool> {
    let found: Option<String> = with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(schools::id)
        .first(c)
        .await
        .optional())?;
    Ok(found.is_some())
}

/// The name of school `school_id`, if it exists.
pub async fn school_name(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(schools::name)
        .first(c)
        .await
        .optional())
}

/// The name and type (SCHOOL or BUSINESS) of `school_id`, for the session: the shell names
/// the organisation, and a business reads "learners" where a school reads "pupils".
pub async fn school_name_and_type(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<(String, OrgType)>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((schools::name, schools::type_))
        .first(c)
        .await
        .optional())
}

/// A school with the figures the organisation lists show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolFigures {
    pub school: SchoolRecord,
    pub trust_name: Option<String>,
    pub users: i64,
    pub pupils: i64,
    /// Tasks (task submissions) created since the `since` given to [`school_figures`].
    pub recent_tasks: i64,
}

/// A school row as the superadmin edits it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = schools)]
pub struct SchoolRecord {
    pub id: String,
    pub trust_id: Option<String>,
    pub name: String,
    pub postcode: Option<String>,
    #[diesel(column_name = type_)]
    pub org_type: OrgType,
    pub seats: Option<i32>,
    pub stripe_product_id: Option<String>,
    pub redirect_to_leaders: bool,
}

/// The schools `ids` (every school when `None`), by name, with their users, pupils and
/// tasks created since `since`: four grouped queries, whatever the number of schools.
pub async fn school_figures(
    conn: &mut DbConn<'_>,
    ids: Option<&[String]>,
    since: NaiveDateTime,
) -> QueryResult<Vec<SchoolFigures>> {
    use crate::db::schema::{students, task_submissions, users};
    use std::collections::HashMap;
    let records: Vec<(SchoolRecord, Option<String>)> = with_conn!(conn, |c| {
        let mut query = schools::table
            .left_join(trusts::table)
            .order((schools::name.asc(), schools::id.asc()))
            .select((SchoolRecord::as_select(), trusts::name.nullable()))
            .into_boxed();
        if let Some(ids) = ids {
            query = query.filter(schools::id.eq_any(ids.to_vec()));
        }
        query.load(c).await
    })?;
    let wanted: Vec<String> = records.iter().map(|(r, _)| r.id.clone()).collect();
    let user_counts: Vec<(Option<String>, i64)> = with_conn!(conn, |c| users::table
        .filter(users::school_id.eq_any(&wanted))
        .group_by(users::school_id)
        .select((users::school_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    let pupil_counts: Vec<(String, i64)> = with_conn!(conn, |c| students::table
        .filter(students::school_id.eq_any(&wanted))
        .group_by(students::school_id)
        .select((students::school_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    let task_counts: Vec<(Option<String>, i64)> = with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::school_id.eq_any(&wanted))
        .filter(task_submissions::created_at.ge(since))
        .group_by(task_submissions::school_id)
        .select((task_submissions::school_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    let flat = |rows: Vec<(Option<String>, i64)>| -> HashMap<String, i64> {
        rows.into_iter()
            .filter_map(|(id, n)| id.map(|id| (id, n)))
            .collect()
    };
    let users = flat(user_counts);
    let tasks = flat(task_counts);
    let pupils: HashMap<String, i64> = pupil_counts.into_iter().collect();
    Ok(records
        .into_iter()
        .map(|(school, trust_name)| SchoolFigures {
            users: users.get(&school.id).copied().unwrap_or(0),
            pupils: pupils.get(&school.id).copied().unwrap_or(0),
            recent_tasks: tasks.get(&school.id).copied().unwrap_or(0),
            school,
            trust_name,
        })
        .collect())
}

/// The school `school_id` as the superadmin edits it.
pub async fn school_record(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<SchoolRecord>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(SchoolRecord::as_select())
        .first(c)
        .await
        .optional())
}

/// Writes the superadmin's fields of an existing school.
pub async fn update_school_record(
    conn: &mut DbConn<'_>,
    record: &SchoolRecord,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(schools::table.find(&record.id))
        .set((
            schools::trust_id.eq(&record.trust_id),
            schools::name.eq(&record.name),
            schools::postcode.eq(&record.postcode),
            schools::type_.eq(record.org_type),
            schools::seats.eq(record.seats),
            schools::stripe_product_id.eq(&record.stripe_product_id),
            schools::redirect_to_leaders.eq(record.redirect_to_leaders),
            schools::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Creates a school from the superadmin's fields.
pub async fn insert_school_record(
    conn: &mut DbConn<'_>,
    record: &SchoolRecord,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(schools::table)
        .values((
            schools::id.eq(&record.id),
            schools::trust_id.eq(&record.trust_id),
            schools::name.eq(&record.name),
            schools::postcode.eq(&record.postcode),
            schools::type_.eq(record.org_type),
            schools::seats.eq(record.seats),
            schools::stripe_product_id.eq(&record.stripe_product_id),
            schools::redirect_to_leaders.eq(record.redirect_to_leaders),
            schools::notifications_frequency.eq(NotificationFrequency::Weekly),
            schools::created_at.eq(at),
            schools::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Every trust, by name: (id, name).
pub async fn list_trusts(conn: &mut DbConn<'_>) -> QueryResult<Vec<(String, String)>> {
    with_conn!(conn, |c| trusts::table
        .order((trusts::name.asc(), trusts::id.asc()))
        .select((trusts::id, trusts::name))
        .load(c)
        .await)
}

/// The id of the trust named exactly `name` (ignoring case), if any.
pub async fn find_trust_by_name(conn: &mut DbConn<'_>, name: &str) -> QueryResult<Option<String>> {
    let lowered = name.to_lowercase();
    with_conn!(conn, |c| trusts::table
        .filter(crate::db::sql::lower(trusts::name).eq(&lowered))
        .select(trusts::id)
        .first(c)
        .await
        .optional())
}

pub async fn trust_exists(conn: &mut DbConn<'_>, trust_id: &str) -> QueryResult<bool> {
    let found: Option<String> = with_conn!(conn, |c| trusts::table
        .find(trust_id)
        .select(trusts::id)
        .first(c)
        .await
        .optional())?;
    Ok(found.is_some())
}

// Sign-up: the organisation a registrant asked for, until the address is confirmed.

/// What a registrant asked for.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = crate::db::schema::pending_signups)]
pub struct PendingSignup {
    pub user_id: String,
    pub organisation_name: String,
    pub postcode: String,
    #[diesel(column_name = type_)]
    pub org_type: OrgType,
    pub created_at: NaiveDateTime,
}

pub async fn insert_pending_signup(
    conn: &mut DbConn<'_>,
    pending: &PendingSignup,
) -> QueryResult<()> {
    use crate::db::schema::pending_signups as p;
    with_conn!(conn, |c| diesel::insert_into(p::table)
        .values(pending)
        .execute(c)
        .await)?;
    Ok(())
}

/// Removes and returns the pending sign-up of `user_id`, if any.
pub async fn take_pending_signup(
    conn: &mut DbConn<'_>,
    user_id: &str,
) -> QueryResult<Option<PendingSignup>> {
    use crate::db::schema::pending_signups as p;
    let found: Option<PendingSignup> = with_conn!(conn, |c| p::table
        .find(user_id)
        .select(PendingSignup::as_select())
        .first(c)
        .await
        .optional())?;
    if found.is_some() {
        with_conn!(conn, |c| diesel::delete(p::table.find(user_id))
            .execute(c)
            .await)?;
    }
    Ok(found)
}

/// Makes a confirmed registrant the activated ADMIN (and leader) of the school their
/// sign-up created.
pub async fn make_founding_admin(
    conn: &mut DbConn<'_>,
    user_id: &str,
    school_id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    use crate::db::schema::users;
    with_conn!(conn, |c| diesel::update(users::table.find(user_id))
        .set((
            users::school_id.eq(school_id),
            users::role.eq(core_wasm::UserRole::Admin),
            users::activated.eq(true),
            users::leader.eq(true),
            users::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}
