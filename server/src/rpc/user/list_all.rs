//! `user.listAll`: the superadmin's `/users` — every user of every school (and those of
//! none), searched by name or e-mail and filtered by school and role; [`PAGE`] rows at a
//! time after a stable cursor, with the total that matched. Superadmins only.

use super::{page_of, parse_role, UserPage};
use crate::models::user_directory::{self, DirectoryFilter};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// Users per page.
pub const PAGE: i64 = 200;

rpc_type! {
    pub struct ListAllUsersInput {
        pub search: Option<String>,
        pub school_id: Option<String>,
        /// TEACHER, ADMIN, ORG_ADMIN, MAT_USER or SUPERADMIN.
        pub role: Option<String>,
        /// `page.nextCursor` of the answer before; none for the first page.
        pub cursor: Option<String>,
    }
}

rpc_type! {
    pub struct SchoolOption {
        pub id: String,
        pub name: String,
    }
}

rpc_type! {
    pub struct AllUsers {
        pub page: UserPage,
        /// Every school, for the school filter.
        pub schools: Vec<SchoolOption>,
    }
}

pub async fn handler(ctx: &Ctx, input: ListAllUsersInput) -> RpcResult<AllUsers> {
    // An empty list: only a superadmin passes.
    ctx.require_role(&[])?;
    let role = match input.role.as_deref().filter(|r| !r.is_empty()) {
        Some(role) => Some(parse_role("role", role)?),
        None => None,
    };
    let filter = DirectoryFilter {
        search: input.search,
        school_id: input.school_id.filter(|s| !s.is_empty()),
        role,
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let page = page_of(&mut conn, &filter, input.cursor.as_deref(), PAGE).await?;
    let schools = user_directory::school_names(&mut conn).await?;
    Ok(AllUsers {
        page,
        schools: schools
            .into_iter()
            .map(|(id, name)| SchoolOption { id, name })
            .collect(),
    })
}
