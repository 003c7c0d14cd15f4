//! `voiceNote.rename`: a new display name for one of the caller's voice notes (its key,
//! and so its stored object, stay the same).

use crate::models::{now, stored_files};
use crate::rpc::typescript::rpc_type;
use crate::rpc::voice_note::own_note;
use crate::rpc::{Ctx, RpcError, RpcResult};

rpc_type! {
    pub struct RenameVoiceNoteInput {
        pub id: String,
        pub filename: String,
    }
}

rpc_type! {
    pub struct RenamedVoiceNote {
        pub id: String,
        pub filename: String,
    }
}

pub async fn handler(ctx: &Ctx, input: RenameVoiceNoteInput) -> RpcResult<RenamedVoiceNote> {
    let filename = core_wasm::filename::clean_filename(&input.filename)
        .map_err(|refused| RpcError::field("filename", refused.message()))?;
    let note = own_note(ctx, &input.id).await?;
    let mut pooled = ctx.conn().await?;
    stored_files::rename(&mut pooled.db(), &note.id, &filename, now()).await?;
    Ok(RenamedVoiceNote {
        id: note.id,
        filename,
    })
}
