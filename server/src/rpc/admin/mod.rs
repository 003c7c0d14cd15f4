//! `admin.*`: Manage School — a school admin's pupils, staff, classes, year and form groups,
//! settings, the pupil CSV import and the MIS sync (Wonde). Every procedure passes [`require_admin`] and reads or
//! writes only the caller's school (`ctx.school_id()`); another school's id is NOT_FOUND.

pub mod erase_pupil;
pub mod import_pupils;
pub mod list_classes;
pub mod list_form_groups;
pub mod list_pupils;
pub mod list_staff;
pub mod list_year_groups;
pub mod mis_sync;
pub mod profile_views;
pub mod refused_addresses;
pub mod save_class;
pub mod save_form_group;
pub mod save_pupil;
pub mod save_school_settings;
pub mod save_staff;
pub mod save_groupcall;
pub mod save_wonde;
pub mod save_year_group;
pub mod school_settings;
pub mod sync_now;

use core_wasm::limits::{text_error, MAX_GROUP_NAME_CHARS};
use core_wasm::UserRole;

use crate::models::groups::GroupRow;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "admin.erasePupil" => erase_pupil),
        procedure!(Mutation "admin.importPupils" => import_pupils),
        procedure!(Query "admin.listClasses" => list_classes),
        procedure!(Query "admin.listFormGroups" => list_form_groups),
        procedure!(Query "admin.listPupils" => list_pupils),
        procedure!(Query "admin.listStaff" => list_staff),
        procedure!(Query "admin.listYearGroups" => list_year_groups),
        procedure!(Query "admin.misSync" => mis_sync),
        procedure!(Query "admin.profileViews" => profile_views),
        procedure!(Query "admin.refusedAddresses" => refused_addresses),
        procedure!(Mutation "admin.saveClass" => save_class),
        procedure!(Mutation "admin.saveFormGroup" => save_form_group),
        procedure!(Mutation "admin.savePupil" => save_pupil),
        procedure!(Mutation "admin.saveSchoolSettings" => save_school_settings),
        procedure!(Mutation "admin.saveStaff" => save_staff),
        procedure!(Mutation "admin.saveWonde" => save_wonde),
        procedure!(Mutation "admin.saveGroupcall" => save_groupcall),
        procedure!(Mutation "admin.saveYearGroup" => save_year_group),
        procedure!(Query "admin.schoolSettings" => school_settings),
        procedure!(Mutation "admin.syncNow" => sync_now),
    ]
}

/// The caller's school, when the caller is an admin (superadmins pass the role rule and
/// act in the organisation they chose; before choosing one they are told to).
pub fn require_admin(ctx: &Ctx) -> RpcResult<&str> {
    ctx.require_role(&[UserRole::Admin])?;
    ctx.school_id()
}

/// NOT_FOUND for an id that is not the caller's school's.
pub fn not_found(what: &str) -> RpcError {
    RpcError::new(ErrorCode::NotFound, format!("{what} not found."))
}

/// A text field trimmed; empty means absent.
pub fn optional_text(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

rpc_type! {
    /// A class, form group or year group with how many of the school's pupils are in it.
    pub struct Group {
        pub id: String,
        pub name: String,
        pub pupils: i64,
    }
}

/// The group `saved` as the list `rows` shows it. A create answers the existing group when
/// one of exactly that name was there (the same request again: a double submit answers
/// what the first one did); a name that differs only in case is `taken`, a field error.
pub fn saved_group(
    rows: Vec<GroupRow>,
    saved: &str,
    created: bool,
    name: &str,
    what: &str,
    taken: &str,
) -> RpcResult<Group> {
    let row = rows
        .into_iter()
        .find(|r| r.id == saved)
        .ok_or_else(|| not_found(what))?;
    if created && row.name != name {
        return Err(RpcError::field("name", taken));
    }
    Ok(Group::from(row))
}

impl From<GroupRow> for Group {
    fn from(row: GroupRow) -> Self {
        Group {
            id: row.id,
            name: row.name,
            pupils: row.pupils,
        }
    }
}

rpc_type! {
    /// The input of the group save procedures: no id creates.
    pub struct SaveGroup {
        pub id: Option<String>,
        pub name: String,
    }
}

/// The trimmed group name, or the field error.
pub fn group_name(name: &str) -> RpcResult<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(RpcError::field("name", "Enter a name."));
    }
    if let Some(message) = text_error(name, MAX_GROUP_NAME_CHARS) {
        return Err(RpcError::field("name", message));
    }
    Ok(name.to_owned())
}
