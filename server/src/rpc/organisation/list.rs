//! `organisation.list`: the schools the caller may act in (a MAT user's or organisation
//! admin's trust; every organisation for a superadmin), with a few figures each and which
//! one the session acts in.

use super::{recent_since, SWITCHERS};
use crate::models::organisations;
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};
use core_wasm::UserRole;

rpc_type! {
    /// One school the caller may switch to.
    pub struct OrganisationItem {
        pub id: String,
        pub name: String,
        pub postcode: Option<String>,
        pub org_type: String,
        pub trust_name: Option<String>,
        pub users: i64,
        pub pupils: i64,
        /// Tasks created in the last 30 days.
        pub recent_tasks: i64,
        /// The session acts in this school now.
        pub active: bool,
        /// The caller's own school.
        pub home: bool,
    }
}

rpc_type! {
    pub struct OrganisationList {
        pub organisations: Vec<OrganisationItem>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<OrganisationList> {
    let user = ctx.require_role(SWITCHERS)?;
    let home = ctx.home_school_id();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let figures = if user.role == UserRole::Superadmin {
        organisations::school_figures(&mut conn, None, recent_since()).await?
    } else {
        let ids = organisations::acting_school_ids(&mut conn, &user.id, home).await?;
        organisations::school_figures(&mut conn, Some(ids.as_slice()), recent_since()).await?
    };
    let active = user.school_id.as_deref();
    Ok(OrganisationList {
        organisations: figures
            .into_iter()
            .map(|f| OrganisationItem {
                active: active == Some(f.school.id.as_str()),
                home: home == Some(f.school.id.as_str()),
                id: f.school.id,
                name: f.school.name,
                postcode: f.school.postcode,
                org_type: f.school.org_type.as_str().to_owned(),
                trust_name: f.trust_name,
                users: f.users,
                pupils: f.pupils,
                recent_tasks: f.recent_tasks,
            })
            .collect(),
    })
}
