//! `admin.saveWonde`: connects the caller's school to Wonde. The school id and token are
//! checked against Wonde first (so a typo or an unreachable Wonde is said at once, in plain
//! words), then stored, the token sealed (`crypto::SecretBox`), and a full sync is queued.
//! A blank token keeps the saved one (the page never has it to send back).

use super::require_admin;
use crate::jobs::mis_sync;
use crate::mis::sync::save_wonde_credentials;
use crate::mis::SyncKind;
use crate::models::mis as store;
use crate::providers::wonde::WondeError;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};

/// Wonde's ids are short (`A1930499544`); tokens are 40 hex characters.
const MAX_ID_CHARS: usize = core_wasm::limits::MAX_MIS_ID_CHARS;
const MAX_TOKEN_CHARS: usize = core_wasm::limits::MAX_MIS_SECRET_CHARS;

rpc_type! {
    pub struct SaveWonde {
        pub wonde_id: String,
        /// Blank: keep the saved token.
        pub token: Option<String>,
    }
}

rpc_type! {
    pub struct SavedWonde {
        pub wonde_id: String,
        pub school_name: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: SaveWonde) -> RpcResult<SavedWonde> {
    let school_id = require_admin(ctx)?;
    let mut errors = FieldErrors::default();
    let wonde_id = input.wonde_id.trim().to_owned();
    if wonde_id.is_empty() {
        errors.add("wondeId", "Enter the school's Wonde id.");
    } else if wonde_id.chars().count() > MAX_ID_CHARS
        || !wonde_id.chars().all(|c| c.is_ascii_alphanumeric())
    {
        errors.add("wondeId", "A Wonde school id has only letters and digits, e.g. A1930499544.");
    }
    let typed = input
        .token
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    if typed.as_ref().is_some_and(|t| t.chars().count() > MAX_TOKEN_CHARS) {
        errors.add("token", format!("Use at most {MAX_TOKEN_CHARS} characters."));
    }
    errors.into_result()?;
    let mut pooled = ctx.conn().await?;
    let token = match typed {
        Some(token) => token,
        None => {
            let saved = store::wonde_credentials(&mut pooled.db(), school_id)
                .await?
                .and_then(|(_, token)| token);
            match saved.map(|sealed| ctx.state.secrets.open(&sealed)) {
                Some(Ok(token)) => token,
                _ => return Err(RpcError::field("token", "Enter the Wonde access token.")),
            }
        }
    };
    let client = ctx
        .state
        .providers
        .wonde
        .as_ref()
        .ok_or_else(|| RpcError::field("wondeId", "Wonde is not available on this server."))?;
    let school = client.school(&token, &wonde_id).await.map_err(|err| match err {
        WondeError::NotFound(_) => RpcError::field(
            "wondeId",
            "Wonde does not know this school id for this token. Check the id, and that the school has approved Voicemark in Wonde.",
        ),
        WondeError::Refused { .. } => RpcError::field(
            "token",
            "Wonde refused this token. Check it, and that the school has approved Voicemark in Wonde.",
        ),
        WondeError::Unreachable(_) | WondeError::TimedOut => RpcError::field(
            "wondeId",
            "Wonde could not be reached. Check the connection and try again; nothing was saved.",
        ),
        other => RpcError::field("wondeId", format!("Wonde's answer was not usable ({other}); nothing was saved.")),
    })?;
    let mut conn = pooled.db();
    crate::transaction!(&mut conn, |tx| {
        save_wonde_credentials(tx, &ctx.state.secrets, school_id, &wonde_id, &token).await?;
        mis_sync::queue_now(tx, school_id, SyncKind::Full).await?;
        mis_sync::schedule_next(tx, &ctx.state.config, school_id, crate::models::now()).await?;
        Ok::<_, diesel::result::Error>(())
    })?;
    Ok(SavedWonde {
        wonde_id,
        school_name: school.name,
    })
}
