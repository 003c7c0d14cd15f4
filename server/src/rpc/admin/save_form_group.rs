//! `admin.saveFormGroup`: creates a form group of the caller's school, or renames one.

use super::{group_name, not_found, require_admin, Group, SaveGroup};
use crate::models::groups;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

pub async fn handler(ctx: &Ctx, input: SaveGroup) -> RpcResult<Group> {
    let school_id = require_admin(ctx)?;
    let name = group_name(&input.name)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let id = input.id.as_deref();
    transaction!(&mut conn, |c| {
        if let Some(other) = groups::form_group_named(c, school_id, &name).await? {
            if Some(other.as_str()) != id {
                return Err(RpcError::field(
                    "name",
                    "A form group with this name already exists.",
                ));
            }
        }
        let saved = groups::save_form_group(c, school_id, id, &name)
            .await?
            .ok_or_else(|| not_found("Form group"))?;
        let rows = groups::list_form_groups(c, school_id).await?;
        rows.into_iter()
            .find(|r| r.id == saved)
            .map(Group::from)
            .ok_or_else(|| not_found("Form group"))
    })
}
