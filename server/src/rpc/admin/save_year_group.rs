//! `admin.saveYearGroup`: adds a year group to the caller's school, or renames one of its
//! year groups. Year groups are each school's own (like classes and form groups): another
//! school's year group is NOT_FOUND here.

use super::{group_name, not_found, require_admin, saved_group, Group, SaveGroup};
use crate::models::groups;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

const TAKEN: &str = "A year group with this name already exists.";

pub async fn handler(ctx: &Ctx, input: SaveGroup) -> RpcResult<Group> {
    let school_id = require_admin(ctx)?;
    let name = group_name(&input.name)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let id = input.id.as_deref();
    transaction!(&mut conn, |c| {
        let saved = match (id, groups::year_group_named(c, school_id, &name).await?) {
            (None, Some(existing)) => existing,
            (None, None) => groups::year_group_id(c, school_id, &name).await?,
            (Some(id), Some(other)) if other != id => {
                return Err(RpcError::field("name", TAKEN));
            }
            (Some(id), _) => {
                if !groups::rename_year_group(c, school_id, id, &name).await? {
                    return Err(not_found("Year group"));
                }
                id.to_owned()
            }
        };
        let rows = groups::list_year_groups(c, school_id).await?;
        saved_group(rows, &saved, id.is_none(), &name, "Year group", TAKEN)
    })
}
