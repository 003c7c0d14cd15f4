//! Manage Users (`users`): the school's list and the superadmin's directory of every user,
//! seat counts, and the changes an admin makes (role, disabled, leader flag, activation,
//! removing a pending invite).

use chrono::NaiveDateTime;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{schools, users};
use crate::db::{like_pattern, lower, DbConn};
use crate::models::{now, NameKey};
use crate::after_name;
use crate::with_conn;
use crate::db::changes::{self, Change};

/// A user as Manage Users shows them.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct DirectoryRow {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub email: String,
    pub role: UserRole,
    pub activated: bool,
    pub disabled: bool,
    pub leader: bool,
    pub last_active: Option<NaiveDateTime>,
    pub school_id: Option<String>,
    pub school_name: Option<String>,
}

macro_rules! directory_columns {
    () => {
        (
            users::id,
            users::forename,
            users::surname,
            users::email,
            users::role,
            users::activated,
            users::disabled,
            users::leader,
            users::last_active,
            users::school_id,
            schools::name.nullable(),
        )
    };
}

/// The superadmin's filters over every user.
#[derive(Debug, Clone, Default)]
pub struct DirectoryFilter {
    /// Part of a name or an e-mail address.
    pub search: Option<String>,
    pub school_id: Option<String>,
    pub role: Option<UserRole>,
}

impl DirectoryRow {
    /// This row's place in the order by name.
    pub fn key(&self) -> NameKey {
        NameKey { surname: self.surname.clone(), forename: self.forename.clone(), id: self.id.clone() }
    }
}

/// Users matching `filter`, by surname, forename and id: at most `limit` after `after` (from
/// the first without), and how many match in all. The school's list reads the index on
/// (school, surname, forename) in order.
pub async fn search_all(
    conn: &mut DbConn<'_>,
    filter: &DirectoryFilter,
    after: Option<&NameKey>,
    limit: i64,
) -> QueryResult<(Vec<DirectoryRow>, i64)> {
    let pattern = filter
        .search
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .map(like_pattern);
    macro_rules! filtered {
        () => {{
            let mut query = users::table.left_join(schools::table).into_boxed();
            if let Some(school) = &filter.school_id {
                query = query.filter(users::school_id.eq(school.clone()));
            }
            if let Some(role) = filter.role {
                query = query.filter(users::role.eq(role));
            }
            if let Some(p) = &pattern {
                query = query.filter(
                    lower(users::forename)
                        .like(p.clone())
                        .escape('\\')
                        .or(lower(users::surname).like(p.clone()).escape('\\'))
                        .or(lower(users::forename.concat(" ").concat(users::surname))
                            .like(p.clone())
                            .escape('\\'))
                        .or(users::email.like(p.clone()).escape('\\')),
                );
            }
            query
        }};
    }
    let total: i64 = with_conn!(conn, |c| filtered!().count().get_result(c).await)?;
    let rows = with_conn!(conn, |c| {
        let mut query = filtered!();
        if let Some(k) = after {
            query = query.filter(after_name!(users, k));
        }
        query
        .order((users::surname.asc(), users::forename.asc(), users::id.asc()))
        .limit(limit)
        .select(directory_columns!())
        .load(c)
        .await
    })?;
    Ok((rows, total))
}

/// Every school's id and name, by name (the superadmin's school filter).
pub async fn school_names(conn: &mut DbConn<'_>) -> QueryResult<Vec<(String, String)>> {
    with_conn!(conn, |c| schools::table
        .order((schools::name.asc(), schools::id.asc()))
        .select((schools::id, schools::name))
        .load(c)
        .await)
}

/// The user `id` as Manage Users shows them; with `school_id`, only when they belong to
/// that school.
pub async fn find(
    conn: &mut DbConn<'_>,
    id: &str,
    school_id: Option<&str>,
) -> QueryResult<Option<DirectoryRow>> {
    with_conn!(conn, |c| {
        let mut query = users::table
            .left_join(schools::table)
            .filter(users::id.eq(id))
            .into_boxed();
        if let Some(school) = school_id {
            query = query.filter(users::school_id.eq(school));
        }
        query
            .select(directory_columns!())
            .first(c)
            .await
            .optional()
    })
}

/// Seats taken in a school: (active, pending). Active: activated and not disabled; pending:
/// invited (not activated) and not disabled. Disabled users hold no seat.
pub async fn seat_counts(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<(i64, i64)> {
    let rows: Vec<bool> = with_conn!(conn, |c| users::table
        .filter(users::school_id.eq(school_id))
        .filter(users::disabled.eq(false))
        .select(users::activated)
        .load(c)
        .await)?;
    let active = rows.iter().filter(|a| **a).count() as i64;
    Ok((active, rows.len() as i64 - active))
}

/// Holds the school's row until the transaction ends, so two invites cannot both take the
/// last seat (PostgreSQL: `FOR UPDATE`; SQLite's write transaction already holds the lock).
pub async fn lock_school(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<()> {
    if let DbConn::Postgres(ref mut pg) = conn {
        let pg: &mut diesel_async::AsyncPgConnection = pg;
        schools::table
            .find(school_id)
            .select(schools::id)
            .for_update()
            .load::<String>(pg)
            .await?;
    }
    Ok(())
}

/// Holds the user's row until the transaction ends, so two of their requests that count
/// and then insert (the Basic weekly task limit) run one after the other (PostgreSQL:
/// `FOR UPDATE`; SQLite's write transaction already holds the lock).
pub async fn lock_user(conn: &mut DbConn<'_>, user_id: &str) -> QueryResult<()> {
    if let DbConn::Postgres(ref mut pg) = conn {
        let pg: &mut diesel_async::AsyncPgConnection = pg;
        users::table
            .find(user_id)
            .select(users::id)
            .for_update()
            .load::<String>(pg)
            .await?;
    }
    Ok(())
}

pub async fn set_role(conn: &mut DbConn<'_>, id: &str, role: UserRole) -> QueryResult<()> {
    let at = now();
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .set((users::role.eq(role), users::updated_at.eq(at)))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

pub async fn set_disabled(conn: &mut DbConn<'_>, id: &str, disabled: bool) -> QueryResult<()> {
    let at = now();
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .set((users::disabled.eq(disabled), users::updated_at.eq(at)))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

pub async fn set_leader(conn: &mut DbConn<'_>, id: &str, leader: bool) -> QueryResult<()> {
    let at = now();
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .set((users::leader.eq(leader), users::updated_at.eq(at)))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

/// Activates an invited account (its invite link was used); its address is proven too.
pub async fn activate(conn: &mut DbConn<'_>, id: &str, at: NaiveDateTime) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(users::table.find(id))
        .set((users::activated.eq(true), users::updated_at.eq(at)))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(())
}

/// Removes a user who never activated their account (a revoked invite); their link tokens
/// and class places go with them (`ON DELETE CASCADE`). Answers whether a row went.
pub async fn delete_pending(conn: &mut DbConn<'_>, id: &str) -> QueryResult<bool> {
    let deleted = with_conn!(conn, |c| diesel::delete(
        users::table
            .filter(users::id.eq(id))
            .filter(users::activated.eq(false))
    )
    .execute(c)
    .await)?;
    changes::publish(conn, Change::Users).await?;
    Ok(deleted > 0)
}

/// The name of school `id`, if it exists.
pub async fn school_name(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| schools::table
        .find(id)
        .select(schools::name)
        .first(c)
        .await
        .optional())
}
