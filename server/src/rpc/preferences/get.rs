//! `preferences.get { token }`: the choices of the address the link was sent to.

use crate::models::email_preferences;
use crate::rpc::preferences::{invalid_link, plausible_token, PublicPreferences};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct PreferencesToken {
        pub token: String,
    }
}

pub async fn handler(ctx: &Ctx, input: PreferencesToken) -> RpcResult<PublicPreferences> {
    if !plausible_token(&input.token) {
        return Err(invalid_link());
    }
    let mut pooled = ctx.conn().await?;
    let found = email_preferences::find_by_token(&mut pooled.db(), &input.token).await?;
    let p = found.ok_or_else(invalid_link)?;
    Ok(PublicPreferences {
        email: p.email,
        general: p.general,
        assignment: p.assignment,
        frequency: p.frequency,
        language: p.language,
    })
}
