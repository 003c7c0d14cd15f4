//! `user.settings`: the caller's name, e-mail and e-mail preferences (defaults when unset).

use crate::db::DbConn;
use crate::models::email_preferences;
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};
use core_wasm::NotificationFrequency;

rpc_type! {
    /// What e-mail a user wants, and in which language.
    pub struct EmailPreferences {
        pub general: bool,
        pub assignment: bool,
        pub frequency: NotificationFrequency,
        pub language: String,
    }
}

impl Default for EmailPreferences {
    fn default() -> Self {
        EmailPreferences {
            general: true,
            assignment: true,
            frequency: NotificationFrequency::Immediately,
            language: "en".into(),
        }
    }
}

rpc_type! {
    pub struct UserSettings {
        pub forename: String,
        pub surname: String,
        pub email: String,
        pub email_preferences: EmailPreferences,
    }
}

/// The preferences stored for `email`, or the defaults.
pub async fn preferences_for(conn: &mut DbConn<'_>, email: &str) -> RpcResult<EmailPreferences> {
    Ok(email_preferences::find_choices(conn, email)
        .await?
        .map(|p| EmailPreferences {
            general: p.general,
            assignment: p.assignment,
            frequency: p.frequency,
            language: p.language,
        })
        .unwrap_or_default())
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<UserSettings> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    let email_preferences = preferences_for(&mut pooled.db(), &user.email).await?;
    Ok(UserSettings {
        forename: user.forename.clone(),
        surname: user.surname.clone(),
        email: user.email.clone(),
        email_preferences,
    })
}
