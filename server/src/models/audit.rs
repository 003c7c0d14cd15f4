//! The audit log: who read or changed which pupil data, and when (one row per event).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{audit_log, students, users};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::now;
use crate::with_conn;

/// What was done to the entity (the `action` column's CHECK list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditAction {
    Read,
    Create,
    Update,
    Delete,
}

impl AuditAction {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditAction::Read => "READ",
            AuditAction::Create => "CREATE",
            AuditAction::Update => "UPDATE",
            AuditAction::Delete => "DELETE",
        }
    }
}

/// Writes one audit row. Call it inside the transaction of the change it records, so the
/// row exists exactly when the change was committed.
pub async fn record(
    conn: &mut DbConn<'_>,
    user_id: &str,
    school_id: Option<&str>,
    action: AuditAction,
    entity: &str,
    entity_id: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(audit_log::table)
        .values((
            audit_log::id.eq(new_id()),
            audit_log::at.eq(now()),
            audit_log::user_id.eq(user_id),
            audit_log::school_id.eq(school_id),
            audit_log::action.eq(action.as_str()),
            audit_log::entity.eq(entity),
            audit_log::entity_id.eq(entity_id),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// The audit rows of one entity, oldest first: (action, user id).
pub async fn for_entity(
    conn: &mut DbConn<'_>,
    entity: &str,
    entity_id: &str,
) -> QueryResult<Vec<(String, Option<String>)>> {
    with_conn!(conn, |c| audit_log::table
        .filter(audit_log::entity.eq(entity))
        .filter(audit_log::entity_id.eq(entity_id))
        .order((audit_log::at.asc(), audit_log::id.asc()))
        .select((audit_log::action, audit_log::user_id))
        .load(c)
        .await)
}

/// The `detail` of a pupil export's audit row (action READ, entity `student`).
pub const DETAIL_EXPORT: &str = "export";
/// The `detail` of a pupil erasure's audit row (action DELETE, entity `student`, the id
/// replaced by a tombstone).
pub const DETAIL_ERASE: &str = "erase";

/// Writes one audit row with a `detail` (what kind of read or change it was); `user_id`
/// `None`: done by Voicemark itself (the MIS sync), not by a person.
pub async fn record_detail(
    conn: &mut DbConn<'_>,
    user_id: Option<&str>,
    school_id: Option<&str>,
    action: AuditAction,
    entity: &str,
    entity_id: &str,
    detail: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(audit_log::table)
        .values((
            audit_log::id.eq(new_id()),
            audit_log::at.eq(now()),
            audit_log::user_id.eq(user_id),
            audit_log::school_id.eq(school_id),
            audit_log::action.eq(action.as_str()),
            audit_log::entity.eq(entity),
            audit_log::entity_id.eq(entity_id),
            audit_log::detail.eq(detail),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// One opening of a pupil's profile: who, which pupil (None once erased), when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileView {
    pub id: String,
    pub at: NaiveDateTime,
    pub viewer: Option<(String, String)>,
    pub pupil: Option<(String, String)>,
}

/// A page of the openings of pupils' profiles in `school_id` (`student.get`'s READ rows),
/// newest first, and how many there are.
pub async fn profile_views(
    conn: &mut DbConn<'_>,
    school_id: &str,
    page: i64,
    page_size: i64,
) -> QueryResult<(Vec<ProfileView>, i64)> {
    let offset = (page.max(1) - 1) * page_size;
    macro_rules! views {
        () => {
            audit_log::table
                .filter(audit_log::school_id.eq(school_id))
                .filter(audit_log::entity.eq("student"))
                .filter(audit_log::action.eq(AuditAction::Read.as_str()))
                .filter(audit_log::detail.is_null())
        };
    }
    let total: i64 = with_conn!(conn, |c| views!().count().get_result(c).await)?;
    type Row = (
        String,
        NaiveDateTime,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = with_conn!(conn, |c| views!()
        .left_join(users::table.on(audit_log::user_id.eq(users::id.nullable())))
        .left_join(students::table.on(audit_log::entity_id.eq(students::id)))
        .order((audit_log::at.desc(), audit_log::id.desc()))
        .limit(page_size)
        .offset(offset)
        .select((
            audit_log::id,
            audit_log::at,
            users::forename.nullable(),
            users::surname.nullable(),
            students::forename.nullable(),
            students::surname.nullable(),
        ))
        .load(c)
        .await)?;
    let views = rows
        .into_iter()
        .map(|(id, at, uf, us, pf, ps)| ProfileView {
            id,
            at,
            viewer: uf.zip(us),
            pupil: pf.zip(ps),
        })
        .collect();
    Ok((views, total))
}
