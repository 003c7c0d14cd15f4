//! `admin.listStaff`: one page (50) of the caller's school's users by name, with their
//! classes, after a stable cursor (docs/scaling.md "Paged lists"), searchable by name or
//! e-mail.

use super::require_admin;
use crate::models::users::{self, StaffQuery, StaffRow};
use crate::models::NameKey;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{cursor, Ctx, RpcResult};

/// Staff per page.
pub const PAGE_SIZE: i64 = 50;

rpc_type! {
    pub struct ListStaff {
        /// Part of a name or an e-mail address.
        pub search: Option<String>,
        /// `nextCursor` of the page before; absent = the first page.
        pub cursor: Option<String>,
    }
}

rpc_type! {
    /// A member of staff as Manage School shows and edits them.
    pub struct Staff {
        pub id: String,
        pub forename: String,
        pub surname: String,
        pub email: String,
        /// A UserRole; Manage School edits TEACHER and ADMIN accounts only.
        pub role: String,
        pub activated: bool,
        pub disabled: bool,
        /// False until the user sets one ("forgot password") or signs in by e-mail link.
        pub has_password: bool,
        /// active, inactive or pending: `core_wasm::roles::user_status`, as Manage Users shows it.
        pub status: String,
        pub class_ids: Vec<String>,
    }
}

impl From<StaffRow> for Staff {
    fn from(r: StaffRow) -> Self {
        Staff {
            id: r.id,
            forename: r.forename,
            surname: r.surname,
            email: r.email,
            role: r.role.as_str().to_owned(),
            activated: r.activated,
            disabled: r.disabled,
            has_password: r.has_password,
            status: core_wasm::roles::user_status(r.disabled, r.activated)
                .as_str()
                .to_owned(),
            class_ids: r.class_ids,
        }
    }
}

rpc_type! {
    pub struct StaffPage {
        pub staff: Vec<Staff>,
        /// Every user matching the search, on every page.
        pub total: i64,
        pub page_size: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: Option<ListStaff>) -> RpcResult<StaffPage> {
    let school_id = require_admin(ctx)?;
    let input = input.unwrap_or(ListStaff { search: None, cursor: None });
    let after = cursor::name_key("cursor", input.cursor.as_deref())?;
    let mut pooled = ctx.conn().await?;
    // One more than a page tells whether another follows.
    let query = StaffQuery { search: input.search.as_deref(), only_id: None, after: after.as_ref() };
    let (mut rows, total) = users::list_staff(&mut pooled.db(), school_id, query, PAGE_SIZE + 1).await?;
    let next_cursor = if rows.len() as i64 > PAGE_SIZE {
        rows.truncate(PAGE_SIZE as usize);
        rows.last().map(|r| {
            cursor::of_name(&NameKey { surname: r.surname.clone(), forename: r.forename.clone(), id: r.id.clone() })
        })
    } else {
        None
    };
    Ok(StaffPage {
        staff: rows.into_iter().map(Staff::from).collect(),
        total,
        page_size: PAGE_SIZE,
        next_cursor,
    })
}
