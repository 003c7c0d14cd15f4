//! `school.admins`: who can change the caller's school's plan (its active admins and
//! organisation admins), so a teacher who chooses 'Upgrade to Pro' or 'Manage subscription'
//! reads whom to ask, with their addresses, instead of a refusal. Scoped to the caller's
//! school; any signed-in member may read it (staff already see each other's names).

use crate::models::users;
use crate::rpc::typescript::rpc_type;
use crate::rpc::registry::NoInput;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct SchoolAdmin {
        pub name: String,
        pub email: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<SchoolAdmin>> {
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let rows = users::plan_admins(&mut pooled.db(), school_id).await?;
    Ok(rows
        .into_iter()
        .map(|(forename, surname, email)| SchoolAdmin {
            name: format!("{forename} {surname}").trim().to_owned(),
            email,
        })
        .collect())
}
