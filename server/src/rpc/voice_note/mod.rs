//! `voiceNote.*`: the caller's own voice notes in their personal folder (`/voice-notes`,
//! `/leaders/voice-notes`): list with playback URLs, rename, delete, transcribe. Someone else's note
//! is NOT_FOUND, never FORBIDDEN: its existence is not revealed.

pub mod delete;
pub mod list;
pub mod rename;
pub mod transcribe;

use crate::models::stored_files::{self, FileKind, Owner, StoredFile};
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "voiceNote.delete" => delete),
        procedure!(Query "voiceNote.list" => list),
        procedure!(Mutation "voiceNote.rename" => rename),
        procedure!(Mutation "voiceNote.transcribe" => transcribe),
    ]
}

pub fn not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Voice note not found.")
}

/// The caller's voice note `id`, or NOT_FOUND.
pub async fn own_note(ctx: &Ctx, id: &str) -> RpcResult<StoredFile> {
    let user = ctx.require_user()?;
    let owner = Owner {
        school_id: ctx.school_id()?,
        user_id: &user.id,
        kind: FileKind::VoiceNote,
    };
    let mut pooled = ctx.conn().await?;
    stored_files::find_owned(&mut pooled.db(), owner, id)
        .await?
        .ok_or_else(not_found)
}
