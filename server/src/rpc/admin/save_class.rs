//! `admin.saveClass`: creates a class of the caller's school, or renames one of its classes.

use super::{group_name, not_found, require_admin, saved_group, Group, SaveGroup};
use crate::models::groups;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

const TAKEN: &str = "A class with this name already exists.";

pub async fn handler(ctx: &Ctx, input: SaveGroup) -> RpcResult<Group> {
    let school_id = require_admin(ctx)?;
    let name = group_name(&input.name)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let id = input.id.as_deref();
    transaction!(&mut conn, |c| {
        let saved = match (id, groups::class_named(c, school_id, &name).await?) {
            (None, Some(existing)) => existing,
            (Some(id), Some(other)) if other != id => {
                return Err(RpcError::field("name", TAKEN));
            }
            _ => groups::save_class(c, school_id, id, &name)
                .await?
                .ok_or_else(|| not_found("Class"))?,
        };
        let rows = groups::list_classes(c, school_id).await?;
        saved_group(rows, &saved, id.is_none(), &name, "Class", TAKEN)
    })
}
