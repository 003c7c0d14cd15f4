//! The audit log: who read or changed which pupil data, and when (one row per event).

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::audit_log;
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
