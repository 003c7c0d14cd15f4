//! `admin.listStaff`: every user of the caller's school, with their classes.

use super::require_admin;
use crate::models::users::{self, StaffRow};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

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

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<Staff>> {
    let school_id = require_admin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let rows = users::list_staff(&mut pooled.db(), school_id).await?;
    Ok(rows.into_iter().map(Staff::from).collect())
}
