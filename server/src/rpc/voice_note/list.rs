//! `voiceNote.list`: the caller's voice notes in their personal folder, newest first,
//! each with a playback URL valid for an hour.

use crate::models::stored_files;
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::uploads::download_url;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct VoiceNote {
        pub id: String,
        pub filename: String,
        pub content_type: String,
        pub size: i64,
        pub created_at: JsDate,
        pub url: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<VoiceNote>> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let notes = stored_files::personal_voice_notes(&mut pooled.db(), school_id, &user.id).await?;
    Ok(notes
        .iter()
        .map(|note| VoiceNote {
            id: note.id.clone(),
            filename: note.filename.clone(),
            content_type: note.content_type.clone(),
            size: note.size_bytes.unwrap_or(0),
            created_at: note.created_at.into(),
            url: download_url(ctx, note),
        })
        .collect())
}
