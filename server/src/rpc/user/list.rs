//! `user.list` (spec section 7): the users of the caller's school for Manage Users, by
//! surname, searched by name or e-mail, a page of [`PAGE`] at a time after a stable cursor
//! (issue 30: 5,000 users answered 1.4 MB at once). Admins and org admins (and a superadmin
//! acting within a school); an org admin sees the school they are working in, like every
//! other tenant-scoped page.

use super::{manager, page_of, UserPage};
use crate::models::user_directory::DirectoryFilter;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// Users per page.
pub const PAGE: i64 = 100;

rpc_type! {
    pub struct UserListInput {
        /// Part of a name or an e-mail address.
        pub search: Option<String>,
        /// `nextCursor` of the page before; none for the first page.
        pub cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: Option<UserListInput>) -> RpcResult<UserPage> {
    manager(ctx)?;
    let input = input.unwrap_or(UserListInput { search: None, cursor: None });
    let filter = DirectoryFilter {
        search: input.search,
        school_id: Some(ctx.school_id()?.to_owned()),
        role: None,
    };
    let mut pooled = ctx.conn().await?;
    page_of(&mut pooled.db(), &filter, input.cursor.as_deref(), PAGE).await
}
