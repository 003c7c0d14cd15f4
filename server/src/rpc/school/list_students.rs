//! `school.listStudents`: every pupil of the caller's school with year and form group.

use crate::models::students;
use crate::rpc::registry::NoInput;
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

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<StudentSummary>> {
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let rows = students::list_for_school(&mut pooled.db(), school_id).await?;
    Ok(rows
        .into_iter()
        .map(|row| StudentSummary {
            id: row.id,
            forename: row.forename,
            surname: row.surname,
            year_group: row.year_group.map(|name| GroupName { name }),
            form_group: row.form_group.map(|name| GroupName { name }),
        })
        .collect())
}
