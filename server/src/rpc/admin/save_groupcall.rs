//! `admin.saveGroupcall`: connects the caller's school to Groupcall Xporter. The Groupcall
//! id and secret are checked against Xporter's token exchange first (so a typo or an
//! unreachable Xporter is said at once, in plain words), then stored, the secret sealed
//! (`crypto::SecretBox`), Wonde's credentials cleared (a school has one MIS source), and a
//! full sync is queued. A blank secret keeps the saved one (the page never has it to send
//! back).

use super::require_admin;
use crate::jobs::mis_sync;
use crate::mis::sync::save_groupcall_credentials;
use crate::mis::SyncKind;
use crate::models::mis as store;
use crate::providers::xporter::XporterError;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};

const MAX_ID_CHARS: usize = core_wasm::limits::MAX_MIS_ID_CHARS;
const MAX_SECRET_CHARS: usize = core_wasm::limits::MAX_MIS_SECRET_CHARS;

rpc_type! {
    pub struct SaveGroupcall {
        pub groupcall_id: String,
        /// Blank: keep the saved secret.
        pub secret: Option<String>,
    }
}

rpc_type! {
    pub struct SavedGroupcall {
        pub groupcall_id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: SaveGroupcall) -> RpcResult<SavedGroupcall> {
    let school_id = require_admin(ctx)?;
    let mut errors = FieldErrors::default();
    let groupcall_id = input.groupcall_id.trim().to_owned();
    if groupcall_id.is_empty() {
        errors.add("groupcallId", "Enter the school's Groupcall id.");
    } else if groupcall_id.chars().count() > MAX_ID_CHARS
        || !groupcall_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '|'))
    {
        errors.add(
            "groupcallId",
            "A Groupcall id has only letters, digits, '-', '_', '.' and '|', e.g. 3281102.",
        );
    }
    let typed = input
        .secret
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    if typed
        .as_ref()
        .is_some_and(|t| t.chars().count() > MAX_SECRET_CHARS)
    {
        errors.add(
            "secret",
            format!("Use at most {MAX_SECRET_CHARS} characters."),
        );
    }
    errors.into_result()?;
    let mut pooled = ctx.conn().await?;
    let secret = match typed {
        Some(secret) => secret,
        None => {
            let saved = store::groupcall_credentials(&mut pooled.db(), school_id)
                .await?
                .and_then(|(_, secret)| secret);
            match saved.map(|sealed| ctx.state.secrets.open(&sealed)) {
                Some(Ok(secret)) => secret,
                _ => return Err(RpcError::field("secret", "Enter the Groupcall secret.")),
            }
        }
    };
    let client = ctx.state.providers.xporter.as_ref().ok_or_else(|| {
        RpcError::field(
            "groupcallId",
            "Groupcall Xporter is not available on this server.",
        )
    })?;
    client.token(&groupcall_id, &secret).await.map_err(|err| match err {
        XporterError::Refused { .. } => RpcError::field(
            "secret",
            "Groupcall Xporter refused this id and secret. Check both, and that the school has approved Voicemark in Xporter.",
        ),
        XporterError::Unreachable(_) | XporterError::TimedOut => RpcError::field(
            "groupcallId",
            "Groupcall Xporter could not be reached. Check the connection and try again; nothing was saved.",
        ),
        other => RpcError::field(
            "groupcallId",
            format!("Groupcall Xporter's answer was not usable ({other}); nothing was saved."),
        ),
    })?;
    let mut conn = pooled.db();
    crate::transaction!(&mut conn, |tx| {
        save_groupcall_credentials(tx, &ctx.state.secrets, school_id, &groupcall_id, &secret)
            .await?;
        mis_sync::queue_now(tx, school_id, SyncKind::Full).await?;
        mis_sync::schedule_next(tx, &ctx.state.config, school_id, crate::models::now()).await?;
        Ok::<_, diesel::result::Error>(())
    })?;
    Ok(SavedGroupcall { groupcall_id })
}
