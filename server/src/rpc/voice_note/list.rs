//! `voiceNote.list`: the caller's voice notes in their personal folder, newest first (then
//! by id), [`PAGE`] at a time after a stable cursor (docs/scaling.md "Paged lists"), each
//! with a playback URL valid for an hour. No payload answers the first page.

use crate::models::stored_files;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::uploads::download_url;
use crate::rpc::{cursor, Ctx, RpcResult};

/// Voice notes per page: each is a card with its own player (and a signed URL made for
/// it), so 20 keep the page quick to draw and to scroll on a phone; a school keeps about
/// 400 (the thousand-school data), a busy teacher hundreds.
pub const PAGE: i64 = 20;

rpc_type! {
    pub struct VoiceNoteListInput {
        /// `nextCursor` of the page before; none for the first page.
        pub cursor: Option<String>,
    }
}

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

rpc_type! {
    pub struct VoiceNotePage {
        pub notes: Vec<VoiceNote>,
        /// Every voice note in the caller's personal folder.
        pub total: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: Option<VoiceNoteListInput>) -> RpcResult<VoiceNotePage> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let after = cursor::time_key("cursor", input.and_then(|i| i.cursor).as_deref())?;
    let mut pooled = ctx.conn().await?;
    // One more than a page tells whether another follows.
    let (mut notes, total) =
        stored_files::personal_voice_notes_page(&mut pooled.db(), school_id, &user.id, after.as_ref(), PAGE + 1).await?;
    let next_cursor = if notes.len() as i64 > PAGE {
        notes.truncate(PAGE as usize);
        notes.last().map(|n| cursor::of_time(n.created_at, &n.id))
    } else {
        None
    };
    Ok(VoiceNotePage {
        notes: notes
            .iter()
            .map(|note| VoiceNote {
                id: note.id.clone(),
                filename: note.filename.clone(),
                content_type: note.content_type.clone(),
                size: note.size_bytes.unwrap_or(0),
                created_at: note.created_at.into(),
                url: download_url(ctx, note),
            })
            .collect(),
        total,
        next_cursor,
    })
}
