//! `user.updateEmailPreferences`: the caller's e-mail choices, created on first save.

use crate::ids::new_token;
use crate::models::email_preferences::{self, NewEmailPreference};
use crate::models::now;
use crate::rpc::user::settings::EmailPreferences;
use crate::rpc::{Ctx, FieldErrors, RpcResult};

pub async fn handler(ctx: &Ctx, input: EmailPreferences) -> RpcResult<EmailPreferences> {
    let user = ctx.require_user()?;
    let language = input.language.trim().to_owned();
    let mut errors = FieldErrors::default();
    if let Some(message) = core_wasm::languages::language_error(&language) {
        errors.add("language", message);
    }
    errors.into_result()?;
    let at = now();
    let row = NewEmailPreference {
        email: user.email.clone(),
        language,
        general: input.general,
        assignment: input.assignment,
        frequency: input.frequency,
        // Kept only when the row is new: the existing link stays valid.
        token: new_token(),
        created_at: at,
        updated_at: at,
    };
    let mut pooled = ctx.conn().await?;
    email_preferences::save_choices(&mut pooled.db(), &row).await?;
    Ok(EmailPreferences {
        general: row.general,
        assignment: row.assignment,
        frequency: row.frequency,
        language: row.language,
    })
}
