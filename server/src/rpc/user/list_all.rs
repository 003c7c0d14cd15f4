//! `user.listAll`: the superadmin's `/users` — every user of every school (and those of
//! none), searched by name or e-mail and filtered by school and role; at most
//! [`MAX_LISTED`] rows with the total that matched. Superadmins only.

use super::{parse_role, ManagedUser};
use crate::models::user_directory::{self, DirectoryFilter};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// The most users one answer lists.
pub const MAX_LISTED: i64 = 200;

rpc_type! {
    pub struct ListAllUsersInput {
        pub search: Option<String>,
        pub school_id: Option<String>,
        /// TEACHER, ADMIN, ORG_ADMIN, MAT_USER or SUPERADMIN.
        pub role: Option<String>,
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
        pub users: Vec<ManagedUser>,
        /// How many users matched (more than listed when over the limit).
        pub total: i64,
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
    let (rows, total) = user_directory::search_all(&mut conn, &filter, MAX_LISTED).await?;
    let schools = user_directory::school_names(&mut conn).await?;
    Ok(AllUsers {
        users: rows.into_iter().map(ManagedUser::from).collect(),
        total,
        schools: schools
            .into_iter()
            .map(|(id, name)| SchoolOption { id, name })
            .collect(),
    })
}
