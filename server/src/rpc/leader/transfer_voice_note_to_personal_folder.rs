//! `leader.transferVoiceNoteToPersonalFolder`: once the browser's PUT has finished, files
//! the caller's voice note in their personal folder. The store is asked whether the bytes
//! really arrived, whole (local: the file and its size; S3: `HEAD`): the declared size, or
//! without one, 1 byte to 50 MB. Filing it queues its transcription (`voice_note.transcribe`)
//! when a speech provider is set up.

use core_wasm::uploads::arrived_whole;

use crate::jobs::voice_note_transcribe;
use crate::models::now;
use crate::models::stored_files::{self, FileKind, Owner};
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::storage::FileStore;
use crate::transaction;

pub const NOT_ARRIVED: &str = "The upload has not arrived yet.";

rpc_type! {
    pub struct VoiceNoteKeyInput {
        pub key: String,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

rpc_type! {
    pub struct VoiceNoteId {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: VoiceNoteKeyInput) -> RpcResult<VoiceNoteId> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let owner = Owner {
        school_id,
        user_id: &user.id,
        kind: FileKind::VoiceNote,
    };
    let once = Once::new(ctx, &input.idempotency_key)?;
    let mut pooled = ctx.conn().await?;
    if let Some(first) = once.replay(&mut pooled.db()).await? {
        return Ok(first);
    }
    let file = stored_files::find_owned_by_key(&mut pooled.db(), owner, &input.key)
        .await?
        .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "Voice note not found."))?;
    drop(pooled);
    let stored = ctx
        .state
        .storage
        .size(&file.key)
        .await
        .map_err(|e| RpcError::internal(format!("checking {}: {e}", file.key)))?;
    let declared = file.size_bytes.map(|size| size.max(0) as u64);
    let Some(size) = stored.filter(|&size| arrived_whole(size, declared)) else {
        return Err(RpcError::bad_request(NOT_ARRIVED));
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let speech = ctx.state.providers.transcribes_recordings();
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        stored_files::move_to_personal_folder(c, &file.id, size, now()).await?;
        // Its words, for reports and tasks (only where a speech provider is set up).
        if speech {
            voice_note_transcribe::queue(c, &file.key, "filed").await?;
        }
        let filed = VoiceNoteId { id: file.id.clone() };
        once.store(c, &filed).await?;
        Ok::<_, RpcError>(filed)
    })
}
