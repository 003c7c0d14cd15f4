//! `admin.saveStaff`: adds a teacher or admin to the caller's school, or edits one. New
//! staff get no password: they set one with "Forgot password" or sign in by e-mail link.
//! A member who is not disabled holds a seat (Manage Users): adding one, or enabling one,
//! is refused with the seat message when the school's seats are full, and disabling one
//! ends their sessions at once, as `user.setDisabled` does.

use core_wasm::UserRole;

use super::list_staff::Staff;
use super::{not_found, require_admin};
use crate::addresses::normalise_email;
use crate::models::audit::{self, AuditAction};
use crate::models::sessions::delete_user_sessions;
use crate::models::users::{self, StaffFields};
use crate::models::{groups, user_directory};
use crate::rpc::input::check_length;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::{staffing, transaction};
use core_wasm::limits::MAX_PERSON_NAME_CHARS;

rpc_type! {
    pub struct SaveStaff {
        /// Absent: a new member of staff.
        pub id: Option<String>,
        pub forename: String,
        pub surname: String,
        pub email: String,
        /// TEACHER or ADMIN.
        pub role: String,
        pub class_ids: Vec<String>,
        pub activated: bool,
        pub disabled: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: SaveStaff) -> RpcResult<Staff> {
    let school_id = require_admin(ctx)?;
    let caller_id = ctx.require_user()?.id.clone();
    let mut errors = FieldErrors::default();
    let forename = input.forename.trim().to_owned();
    let surname = input.surname.trim().to_owned();
    if forename.is_empty() {
        errors.add("forename", "Enter a forename.");
    }
    if surname.is_empty() {
        errors.add("surname", "Enter a surname.");
    }
    check_length(&mut errors, "forename", &forename, MAX_PERSON_NAME_CHARS);
    check_length(&mut errors, "surname", &surname, MAX_PERSON_NAME_CHARS);
    let email = normalise_email(&input.email);
    if !core_wasm::email::is_valid_email(&email) {
        errors.add("email", core_wasm::email::INVALID_EMAIL_MESSAGE);
    }
    let role = match input.role.as_str() {
        "TEACHER" => Some(UserRole::Teacher),
        "ADMIN" => Some(UserRole::Admin),
        _ => {
            errors.add("role", "Choose Teacher or Admin.");
            None
        }
    };
    if input.id.as_deref() == Some(caller_id.as_str()) {
        if input.disabled {
            errors.add("disabled", "You cannot disable your own account.");
        }
        if role != Some(UserRole::Admin) {
            errors.add("role", "You cannot remove your own admin role.");
        }
    }
    errors.into_result()?;
    let mut class_ids = input.class_ids;
    class_ids.sort();
    class_ids.dedup();
    let fields = StaffFields {
        forename,
        surname,
        email,
        role: role.unwrap_or(UserRole::Teacher),
        class_ids,
        activated: input.activated,
        disabled: input.disabled,
    };
    let id = input.id;
    let config = &ctx.state.config;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let saved = transaction!(&mut conn, |c| {
        // Whether the member holds a seat before this save (a new one holds none).
        let mut held_seat = false;
        if let Some(id) = id.as_deref() {
            match users::staff_role(c, school_id, id).await? {
                None => return Err(not_found("Member of staff")),
                Some((UserRole::Teacher | UserRole::Admin, disabled)) => held_seat = !disabled,
                Some(_) => {
                    return Err(RpcError::new(
                        ErrorCode::Forbidden,
                        "This account is managed by Voicemark or your organisation.",
                    ))
                }
            }
        }
        if let Some(other) = users::user_with_email(c, &fields.email).await? {
            if id.is_none() {
                // Checked below: the same member sent again (a double submit) answers
                // the member made; any other account is a clash.
                return Ok((other, false));
            }
            if Some(other.as_str()) != id.as_deref() {
                return Err(RpcError::field("email", EMAIL_TAKEN));
            }
        }
        let known = groups::classes_in_school(c, school_id, &fields.class_ids).await?;
        if known.len() != fields.class_ids.len() {
            return Err(RpcError::field("classIds", "Choose classes from the list."));
        }
        if !fields.disabled && !held_seat {
            user_directory::lock_school(c, school_id).await?;
            let seats = staffing::seats(c, config, school_id).await?;
            if !seats.fits(1) {
                return Err(RpcError::new(ErrorCode::Forbidden, seats.full_message(1)));
            }
        }
        let saved = users::save_staff(c, school_id, id.as_deref(), &fields).await?;
        if fields.disabled && held_seat {
            delete_user_sessions(c, &saved.0).await?;
        }
        if saved.1 {
            let action = if id.is_some() { AuditAction::Update } else { AuditAction::Create };
            audit::record_detail(c, Some(&caller_id), Some(school_id), action, "user", &saved.0, "staff record")
                .await?;
        }
        Ok::<_, RpcError>(saved)
    })?;
    let (saved, written) = saved;
    let only = users::StaffQuery { only_id: Some(saved.as_str()), ..Default::default() };
    let (rows, _) = users::list_staff(&mut pooled.db(), school_id, only, 1).await?;
    let row = rows.into_iter().next();
    if !written {
        // Not written: an account has this address. The same member of this school with
        // the same name is this request made twice; anything else is a clash.
        return match row {
            Some(row) if row.forename == fields.forename && row.surname == fields.surname => {
                Ok(Staff::from(row))
            }
            _ => Err(RpcError::field("email", EMAIL_TAKEN)),
        };
    }
    row.map(Staff::from)
        .ok_or_else(|| not_found("Member of staff"))
}

const EMAIL_TAKEN: &str = "Another account already uses this e-mail address.";
