//! `school.listStudents`: every pupil of the caller's school with year and form group. The
//! answer is encoded once per school and sent from memory until a pupil or group changes
//! (`models::roster::ROSTERS`, docs/performance.md): requests that miss it together share
//! one read, a browser that has it gets 304, and it is gzip-compressed once.

use crate::models::roster;
use crate::rpc::registry::NoInput;
use crate::rpc::encoded::Cached;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// A year or form group, by name.
    pub struct GroupName {
        /// Shared by the group's pupils: one string per group, not per pupil.
        pub name: std::sync::Arc<str>,
    }
}

rpc_type! {
    pub struct StudentSummary {
        pub id: String,
        pub forename: String,
        pub surname: String,
        pub year_group: Option<GroupName>,
        pub form_group: Option<GroupName>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Cached<Vec<StudentSummary>>> {
    let school_id = ctx.school_id()?;
    let shared = roster::ROSTERS
        .get_or_fill(school_id, || async { read(ctx, school_id).await.map(|roster| roster.shared()) })
        .await?;
    Ok(Cached::from_shared(shared))
}

/// The roster from the database, encoded.
async fn read(ctx: &Ctx, school_id: &str) -> RpcResult<Cached<Vec<StudentSummary>>> {
    let mut pooled = ctx.conn().await?;
    let rows = roster::list_for_school(&mut pooled.db(), school_id).await?;
    drop(pooled);
    let roster: Vec<StudentSummary> = rows
        .into_iter()
        .map(|row| StudentSummary {
            id: row.id,
            forename: row.forename,
            surname: row.surname,
            year_group: row.year_group.map(|name| GroupName { name }),
            form_group: row.form_group.map(|name| GroupName { name }),
        })
        .collect();
    Cached::encode(&roster)
        .map_err(|err| crate::rpc::RpcError::internal(format!("encoding the roster: {err}")))
}
