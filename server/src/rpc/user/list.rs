//! `user.list` (spec section 7): the users of the caller's school for Manage Users, by
//! surname. Admins and org admins (and a superadmin acting within a school); an org admin
//! sees the school they are working in, like every other tenant-scoped page.

use super::{manager, ManagedUser};
use crate::models::user_directory;
use crate::rpc::registry::NoInput;
use crate::rpc::{Ctx, RpcResult};

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<ManagedUser>> {
    manager(ctx)?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let rows = user_directory::list_school(&mut pooled.db(), school_id).await?;
    Ok(rows.into_iter().map(ManagedUser::from).collect())
}
