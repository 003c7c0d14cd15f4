//! `preferences.update { token, general, assignment, frequency, language }`: saves the choices
//! of the address the link was sent to.

use core_wasm::NotificationFrequency;

use crate::models::email_preferences::{self, StoredChoices};
use crate::rpc::preferences::{invalid_link, plausible_token, PublicPreferences};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcResult};

rpc_type! {
    pub struct UpdatePreferencesInput {
        pub token: String,
        pub general: bool,
        pub assignment: bool,
        pub frequency: NotificationFrequency,
        pub language: String,
    }
}

pub async fn handler(ctx: &Ctx, input: UpdatePreferencesInput) -> RpcResult<PublicPreferences> {
    if !plausible_token(&input.token) {
        return Err(invalid_link());
    }
    let language = input.language.trim().to_owned();
    let mut errors = FieldErrors::default();
    if let Some(message) = core_wasm::languages::language_error(&language) {
        errors.add("language", message);
    }
    errors.into_result()?;
    let choices = StoredChoices {
        general: input.general,
        assignment: input.assignment,
        frequency: input.frequency,
        language,
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if !email_preferences::update_by_token(&mut conn, &input.token, &choices).await? {
        return Err(invalid_link());
    }
    let p = email_preferences::find_by_token(&mut conn, &input.token)
        .await?
        .ok_or_else(invalid_link)?;
    Ok(PublicPreferences {
        email: p.email,
        general: p.general,
        assignment: p.assignment,
        frequency: p.frequency,
        language: p.language,
    })
}
