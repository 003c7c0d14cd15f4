//! `school.listStudents`: every pupil of the caller's school with year and form group. The
//! answer is encoded once per school and sent from memory until a pupil or group changes
//! (`models::students::ROSTERS`, docs/performance.md).

use crate::models::students;
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::EncodedJson;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// A year or form group, by name.
    pub struct GroupName {
        pub name: String,
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

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<EncodedJson<Vec<StudentSummary>>> {
    let school_id = ctx.school_id()?;
    // Encoded once per school while nothing changes (models::students::ROSTERS).
    if let Some(raw) = students::ROSTERS.get(school_id, |_| true) {
        return Ok(EncodedJson::from_raw(raw));
    }
    let generation = students::ROSTERS.generation();
    let mut pooled = ctx.conn().await?;
    let rows = students::list_for_school(&mut pooled.db(), school_id).await?;
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
    let encoded = EncodedJson::encode(&roster)
        .map_err(|err| crate::rpc::RpcError::internal(format!("encoding the roster: {err}")))?;
    students::ROSTERS.put(school_id.to_owned(), encoded.raw(), generation);
    Ok(encoded)
}
