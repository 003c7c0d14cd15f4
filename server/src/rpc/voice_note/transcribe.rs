//! `voiceNote.transcribe`: queues the transcript of one of the caller's voice notes (one
//! saved before transcription was set up, or whose transcription failed), for the report
//! generator and tasks. The note must have arrived; on a server without a speech provider
//! the answer says what to set.

use crate::jobs::task_process::NOT_SET_UP;
use crate::jobs::voice_note_transcribe;
use crate::models::now;
use crate::rpc::leader::transfer_voice_note_to_personal_folder::{VoiceNoteId, NOT_ARRIVED};
use crate::rpc::voice_note::own_note;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

pub async fn handler(ctx: &Ctx, input: VoiceNoteId) -> RpcResult<VoiceNoteId> {
    let note = own_note(ctx, &input.id).await?;
    if !ctx.state.providers.transcribes_recordings() {
        return Err(RpcError::new(ErrorCode::PreconditionFailed, NOT_SET_UP));
    }
    if note.uploaded_at.is_none() && !note.in_personal_folder {
        return Err(RpcError::bad_request(NOT_ARRIVED));
    }
    let mut pooled = ctx.conn().await?;
    let attempt = now().and_utc().timestamp_micros().to_string();
    voice_note_transcribe::queue(&mut pooled.db(), &note.key, &attempt).await?;
    Ok(VoiceNoteId { id: note.id })
}
