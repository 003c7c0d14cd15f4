//! `user.updateProfile`: the caller changes their own name.

use crate::models::users;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcResult};

/// Names longer than this are refused.
const MAX_NAME: usize = core_wasm::limits::MAX_PERSON_NAME_CHARS;

rpc_type! {
    pub struct UpdateProfileInput {
        pub forename: String,
        pub surname: String,
    }
}

rpc_type! {
    pub struct Profile {
        pub forename: String,
        pub surname: String,
    }
}

/// Trims both names; each must have 1 to 100 characters.
pub fn validate(input: &UpdateProfileInput) -> RpcResult<Profile> {
    let (forename, surname) = (input.forename.trim(), input.surname.trim());
    let mut errors = FieldErrors::default();
    for (field, value, label) in [
        ("forename", forename, "forename"),
        ("surname", surname, "surname"),
    ] {
        if value.is_empty() {
            errors.add(field, format!("Enter your {label}."));
        } else if value.chars().count() > MAX_NAME {
            errors.add(
                field,
                core_wasm::limits::too_long_message(MAX_NAME),
            );
        }
    }
    errors.into_result()?;
    Ok(Profile {
        forename: forename.to_owned(),
        surname: surname.to_owned(),
    })
}

pub async fn handler(ctx: &Ctx, input: UpdateProfileInput) -> RpcResult<Profile> {
    let user = ctx.require_user()?;
    let profile = validate(&input)?;
    let mut pooled = ctx.conn().await?;
    users::update_name(
        &mut pooled.db(),
        &user.id,
        &profile.forename,
        &profile.surname,
    )
    .await?;
    Ok(profile)
}
