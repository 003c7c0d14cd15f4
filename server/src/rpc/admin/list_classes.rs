//! `admin.listClasses`: the school's classes by name, with pupil counts.

use super::{require_admin, Group};
use crate::models::groups;
use crate::rpc::registry::NoInput;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<Group>> {
    let school_id = require_admin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let rows = groups::list_classes(&mut pooled.db(), school_id).await?;
    Ok(rows.into_iter().map(Group::from).collect())
}
