//! `user.*`: the signed-in user's own account, settings and counters.

pub mod create_billing_portal_session;
pub mod feedback_hub_count;
pub mod list_files;
pub mod mark_tutorial_complete;
pub mod settings;
pub mod update_email_preferences;
pub mod update_profile;
pub mod upload_file;
pub mod invite;
pub mod invite_from_csv;
pub mod list;
pub mod list_all;
pub mod resend_invite;
pub mod revoke_invite;
pub mod set_disabled;
pub mod set_leader;
pub mod set_role;

use core_wasm::roles::role_rank;
use core_wasm::UserRole;

use crate::db::DbConn;
use crate::models::audit::{self, AuditAction};
use crate::models::user_directory::{self, DirectoryRow};
use crate::models::users::User;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{cursor, Ctx, ErrorCode, RpcError, RpcResult};

/// Manage Users' procedures (the other `user.*` are listed in the registry itself).
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "user.invite" => invite),
        procedure!(Mutation "user.inviteFromCsv" => invite_from_csv),
        procedure!(Query "user.list" => list),
        procedure!(Query "user.listAll" => list_all),
        procedure!(Mutation "user.resendInvite" => resend_invite),
        procedure!(Mutation "user.revokeInvite" => revoke_invite),
        procedure!(Mutation "user.setDisabled" => set_disabled),
        procedure!(Mutation "user.setLeader" => set_leader),
        procedure!(Mutation "user.setRole" => set_role),
    ]
}

rpc_type! {
    /// A user as Manage Users lists them.
    pub struct ManagedUser {
        pub id: String,
        pub forename: String,
        pub surname: String,
        pub email: String,
        /// TEACHER, ADMIN, ORG_ADMIN, MAT_USER or SUPERADMIN (the app shows its label).
        pub role: String,
        /// active (activated, not disabled), inactive (disabled) or pending (invited).
        pub status: String,
        pub last_active: Option<JsDate>,
        pub leader: bool,
        pub school_id: Option<String>,
        pub school_name: Option<String>,
    }
}

rpc_type! {
    /// A page of users by name (`user.list`, `user.listAll`).
    pub struct UserPage {
        pub users: Vec<ManagedUser>,
        /// How many users match in all.
        pub total: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

/// The page of users matching `filter` after `cursor` (from the first without), `size` at most.
async fn page_of(
    conn: &mut DbConn<'_>,
    filter: &user_directory::DirectoryFilter,
    cursor: Option<&str>,
    size: i64,
) -> RpcResult<UserPage> {
    let after = cursor::name_key("cursor", cursor)?;
    // One more than a page tells whether another follows.
    let (mut rows, total) = user_directory::search_all(conn, filter, after.as_ref(), size + 1).await?;
    let next_cursor = if rows.len() as i64 > size {
        rows.truncate(size as usize);
        rows.last().map(|r| cursor::of_name(&r.key()))
    } else {
        None
    };
    Ok(UserPage { users: rows.into_iter().map(ManagedUser::from).collect(), total, next_cursor })
}

impl From<DirectoryRow> for ManagedUser {
    fn from(row: DirectoryRow) -> Self {
        let status = core_wasm::roles::user_status(row.disabled, row.activated).as_str();
        ManagedUser {
            id: row.id,
            forename: row.forename,
            surname: row.surname,
            email: row.email,
            role: row.role.as_str().to_owned(),
            status: status.to_owned(),
            last_active: row.last_active.map(JsDate::from),
            leader: row.leader,
            school_id: row.school_id,
            school_name: row.school_name,
        }
    }
}

/// The caller, when they manage users: an admin or org admin (over their school) or a
/// superadmin (over every school).
pub(crate) fn manager(ctx: &Ctx) -> RpcResult<&User> {
    ctx.require_role(&[UserRole::Admin, UserRole::OrgAdmin])
}

/// The school a manager's user changes are limited to: their own (or active) school; none
/// for a superadmin, who may change anyone.
pub(crate) fn manager_scope(ctx: &Ctx) -> RpcResult<Option<&str>> {
    let user = manager(ctx)?;
    if user.role == UserRole::Superadmin {
        Ok(None)
    } else {
        ctx.school_id().map(Some)
    }
}

/// The user `id` a manager may change: in the manager's school (else NOT_FOUND) and not
/// above the manager's own role (else FORBIDDEN).
pub(crate) async fn target(
    conn: &mut DbConn<'_>,
    caller: &User,
    scope: Option<&str>,
    id: &str,
) -> RpcResult<DirectoryRow> {
    let row = user_directory::find(conn, id, scope)
        .await?
        .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "User not found."))?;
    if role_rank(row.role) > role_rank(caller.role) {
        return Err(RpcError::forbidden(
            "You cannot change someone above your own role.",
        ));
    }
    Ok(row)
}

/// Records a manager's change to user `row` in the audit log (entity `user`), in the
/// change's transaction: `detail` names it ("role ADMIN", "disable", "revoke invite", ...).
pub(crate) async fn audit_change(
    conn: &mut DbConn<'_>,
    caller: &User,
    row: &DirectoryRow,
    action: AuditAction,
    detail: &str,
) -> RpcResult<()> {
    audit::record_detail(
        conn,
        Some(&caller.id),
        row.school_id.as_deref(),
        action,
        "user",
        &row.id,
        detail,
    )
    .await?;
    Ok(())
}

/// The role named by `wire` (TEACHER, ADMIN, ...), or a field error on `field`.
pub(crate) fn parse_role(field: &str, wire: &str) -> RpcResult<UserRole> {
    wire.parse()
        .map_err(|_| RpcError::field(field, "Choose a role from the list."))
}
