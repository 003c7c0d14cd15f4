//! `taskContent.addVoiceNotes {taskId, voiceNoteIds}` → `{added}`: pulls the caller's own
//! voice notes into a task. Each becomes a VOICE_NOTE item sharing the note's file (the
//! note stays in the personal folder); one whose transcript is known is READY at once, the
//! others are queued for transcription. A note already in the task is skipped; a note that
//! is not the caller's is NOT_FOUND and nothing is added.

use crate::ids::new_id;
use crate::jobs::task_process;
use crate::models::stored_files::{self, FileKind, Owner};
use crate::models::task_items::{self, TaskItem};
use crate::models::now;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

/// The most voice notes pulled in by one call.
pub const MAX_NOTES: usize = 100;

rpc_type! {
    pub struct AddVoiceNotesInput {
        pub task_id: String,
        pub voice_note_ids: Vec<String>,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

rpc_type! {
    pub struct AddedItems {
        pub added: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: AddVoiceNotesInput) -> RpcResult<AddedItems> {
    let once = Once::new(ctx, &input.idempotency_key)?;
    if let Some(first) = once.replay(&mut ctx.conn().await?.db()).await? {
        return Ok(first);
    }
    if input.voice_note_ids.is_empty() {
        return Err(RpcError::field("voiceNoteIds", "Choose at least one voice note."));
    }
    if input.voice_note_ids.len() > MAX_NOTES {
        return Err(RpcError::field(
            "voiceNoteIds",
            core_wasm::limits::too_many_message(MAX_NOTES),
        ));
    }
    require_task(ctx, &input.task_id).await?;
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let owner = Owner {
        school_id,
        user_id: &user.id,
        kind: FileKind::VoiceNote,
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let mut notes = Vec::new();
    for id in &input.voice_note_ids {
        let note = stored_files::find_owned(&mut conn, owner, id)
            .await?
            .filter(|n| n.in_personal_folder)
            .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "Voice note not found."))?;
        if !notes.iter().any(|n: &stored_files::StoredFile| n.id == note.id) {
            notes.push(note);
        }
    }
    let ids: Vec<String> = notes.iter().map(|n| n.id.clone()).collect();
    let present = task_items::files_in_task(&mut conn, &input.task_id, &ids).await?;
    let keys: Vec<String> = notes.iter().map(|n| n.key.clone()).collect();
    let known = task_items::transcripts(&mut conn, &keys).await?;
    let at = now();
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        let mut added = 0;
        for note in notes.iter().filter(|n| !present.contains(&n.id)) {
            let ready = known.iter().any(|(key, _)| *key == note.key);
            let item = TaskItem {
                id: new_id(),
                submission_id: input.task_id.clone(),
                user_id: user.id.clone(),
                kind: task_items::VOICE_NOTE.to_owned(),
                file_id: Some(note.id.clone()),
                name: note.filename.clone(),
                content_type: Some(note.content_type.clone()),
                notes: None,
                status: if ready { task_items::READY } else { task_items::QUEUED }.to_owned(),
                error: None,
                created_at: at,
                updated_at: at,
            };
            task_items::insert(c, &item).await?;
            if !ready {
                task_process::queue(c, &item.id, item.updated_at).await?;
            }
            added += 1;
        }
        let answer = AddedItems { added };
        once.store(c, &answer).await?;
        Ok::<_, RpcError>(answer)
    })
}
