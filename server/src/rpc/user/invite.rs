//! `user.invite`: an admin or org admin invites someone to their school by e-mail (a
//! superadmin names the school). The person is created pending, with a role the caller may
//! give, and gets a single-use link to set a password, which activates the account. An
//! address already in use is a field error (admins may learn that an address has an
//! account); an invite beyond the seats is refused with the way to get more.

use core_wasm::limits::MAX_PERSON_NAME_CHARS;
use core_wasm::roles::assignable_roles_for;
use core_wasm::UserRole;

use super::{manager, parse_role, ManagedUser};
use crate::addresses::normalise_email;
use crate::models::user_directory;
use crate::rpc::input::check_length;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::staffing::{self, InviteError, Invitee};
use crate::transaction;

rpc_type! {
    pub struct InviteUserInput {
        pub forename: String,
        pub surname: String,
        pub email: String,
        /// Absent: TEACHER.
        pub role: Option<String>,
        /// The school to invite into: a superadmin's choice; others invite into their own.
        pub school_id: Option<String>,
    }
}

/// Shown when the address already has an account.
pub const EMAIL_TAKEN: &str = "An account already uses this e-mail address.";

/// The school a caller invites into: their own; a superadmin's chosen one (or their own).
pub(crate) async fn invite_school(ctx: &Ctx, chosen: Option<String>) -> RpcResult<String> {
    let caller = manager(ctx)?;
    if caller.role != UserRole::Superadmin {
        return Ok(ctx.school_id()?.to_owned());
    }
    let Some(school_id) = chosen
        .filter(|s| !s.is_empty())
        .or_else(|| caller.school_id.clone())
    else {
        return Err(RpcError::field("schoolId", "Choose a school."));
    };
    let mut pooled = ctx.conn().await?;
    if user_directory::school_name(&mut pooled.db(), &school_id)
        .await?
        .is_none()
    {
        return Err(RpcError::new(ErrorCode::NotFound, "School not found."));
    }
    Ok(school_id)
}

/// The role `wire` names when `caller` may give it (empty: TEACHER).
pub(crate) fn invite_role(caller: UserRole, wire: &str) -> Result<UserRole, String> {
    let role = if wire.trim().is_empty() {
        UserRole::Teacher
    } else {
        parse_role("role", wire.trim()).map_err(|_| "Choose a role from the list.".to_owned())?
    };
    if assignable_roles_for(caller).contains(&role) {
        Ok(role)
    } else {
        Err("You cannot give this role.".to_owned())
    }
}

pub async fn handler(ctx: &Ctx, input: InviteUserInput) -> RpcResult<ManagedUser> {
    let caller = manager(ctx)?.clone();
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
    if let Some(message) = core_wasm::email::email_error(&email) {
        errors.add("email", message);
    }
    let role = match invite_role(caller.role, input.role.as_deref().unwrap_or("")) {
        Ok(role) => role,
        Err(message) => {
            errors.add("role", message);
            UserRole::Teacher
        }
    };
    errors.into_result()?;
    let school_id = invite_school(ctx, input.school_id).await?;
    let invitee = Invitee {
        forename,
        surname,
        email,
        role,
    };
    let config = &ctx.state.config;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let invited = transaction!(&mut conn, |c| {
        staffing::invite(c, config, Some(&caller.id), &school_id, std::slice::from_ref(&invitee)).await
    });
    let id = match invited {
        Ok(ids) => ids.into_iter().next().unwrap_or_default(),
        Err(InviteError::EmailTaken(_)) => return Err(RpcError::field("email", EMAIL_TAKEN)),
        Err(InviteError::SeatsFull(message)) => {
            return Err(RpcError::new(ErrorCode::Forbidden, message))
        }
        // Two invites of one address at once: the unique index refused the second.
        Err(InviteError::Db(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        ))) => return Err(RpcError::field("email", EMAIL_TAKEN)),
        Err(InviteError::Db(err)) => return Err(err.into()),
    };
    let row = user_directory::find(&mut pooled.db(), &id, Some(&school_id))
        .await?
        .ok_or_else(|| RpcError::internal("the invited user vanished"))?;
    Ok(ManagedUser::from(row))
}
