//! `voiceNote.delete`: removes one of the caller's voice notes, the stored object first
//! (a missing object counts as removed), then its row.

use crate::models::stored_files;
use crate::rpc::leader::transfer_voice_note_to_personal_folder::VoiceNoteId;
use crate::rpc::voice_note::own_note;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::FileStore;

pub async fn handler(ctx: &Ctx, input: VoiceNoteId) -> RpcResult<VoiceNoteId> {
    let note = own_note(ctx, &input.id).await?;
    ctx.state
        .storage
        .delete(&note.key)
        .await
        .map_err(|e| RpcError::internal(format!("deleting {}: {e}", note.key)))?;
    let mut pooled = ctx.conn().await?;
    stored_files::delete_rows(&mut pooled.db(), std::slice::from_ref(&note.id)).await?;
    Ok(VoiceNoteId { id: note.id })
}
