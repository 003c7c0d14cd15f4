//! `admin.saveYearGroup`: adds a year group, or renames one. Year groups are shared by
//! every school ("Year 7" is the same everywhere), so adding an existing name answers the
//! existing group, and a year group that another school's pupils are in cannot be renamed.

use super::{group_name, not_found, require_admin, Group, SaveGroup};
use crate::models::groups;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

pub async fn handler(ctx: &Ctx, input: SaveGroup) -> RpcResult<Group> {
    let school_id = require_admin(ctx)?;
    let name = group_name(&input.name)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        let existing = groups::year_group_named(c, &name).await?;
        let saved = match input.id.as_deref() {
            None => match existing {
                Some(id) => id,
                None => groups::year_group_id(c, &name).await?,
            },
            Some(id) => {
                if !groups::year_group_exists(c, id).await? {
                    return Err(not_found("Year group"));
                }
                if existing.as_deref().is_some_and(|other| other != id) {
                    return Err(RpcError::field(
                        "name",
                        "A year group with this name already exists.",
                    ));
                }
                if groups::year_group_used_elsewhere(c, school_id, id).await? {
                    return Err(RpcError::field(
                        "name",
                        "Other schools use this year group, so it cannot be renamed. Add a new one instead.",
                    ));
                }
                groups::rename_year_group(c, id, &name).await?;
                id.to_owned()
            }
        };
        let rows = groups::list_year_groups(c, school_id).await?;
        rows.into_iter()
            .find(|r| r.id == saved)
            .map(Group::from)
            .ok_or_else(|| not_found("Year group"))
    })
}
