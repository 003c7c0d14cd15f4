//! `voice_note.transcribe` `{key}`: the transcript of a voice note, so the report generator
//! (and a task that pulls the note in later) can use what was said. Queued when a voice
//! note is filed in its owner's folder (on a server with a speech provider) and by
//! `voiceNote.transcribe` for notes saved before. The audio streams from the file store to
//! the transcription server or Deepgram, as for a task's recordings (`task_process::read_text`),
//! and the text is kept in `resource_transcripts` under the file's key.

use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::task_process::{read_text, FILE_MISSING};
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::task_items::{self, ItemFile};
use crate::models::{now, stored_files};
use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscribeVoiceNote {
    pub key: String,
}

/// Queues the transcription of the voice note stored at `key`. `attempt` makes the
/// idempotency key: the same one twice queues one job; a new one (a user's retry) another.
pub async fn queue(
    conn: &mut DbConn<'_>,
    key: &str,
    attempt: &str,
) -> diesel::result::QueryResult<()> {
    let job = TranscribeVoiceNote {
        key: key.to_owned(),
    };
    let idempotency = format!(
        "{}:{key}:{attempt}",
        <TranscribeVoiceNote as BackgroundJob>::KIND
    );
    enqueue(conn, &job, now(), Some(idempotency)).await?;
    Ok(())
}

impl BackgroundJob for TranscribeVoiceNote {
    const KIND: &'static str = "voice_note.transcribe";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        if !state.providers.transcribes_recordings() {
            // Nothing to do on a server without a speech provider; the pages say so.
            return Ok(());
        }
        let mut pooled = state.db.conn().await?;
        let Some(file) = stored_files::find_by_key(&mut pooled.db(), &self.key).await? else {
            return Ok(()); // deleted meanwhile
        };
        if !task_items::transcripts(&mut pooled.db(), std::slice::from_ref(&file.key))
            .await?
            .is_empty()
        {
            return Ok(()); // already transcribed (e.g. pulled into a task)
        }
        drop(pooled);
        let item = ItemFile {
            id: file.id.clone(),
            key: file.key.clone(),
            filename: file.filename.clone(),
            content_type: file.content_type.clone(),
            size_bytes: file.size_bytes,
            uploaded_at: file.uploaded_at,
        };
        match read_text(state, &item).await {
            Ok(Some(text)) => {
                let mut pooled = state.db.conn().await?;
                task_items::save_transcript(&mut pooled.db(), &file.key, &text, now()).await?;
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(reason) if reason == FILE_MISSING => Err(JobError::Permanent(reason)),
            Err(reason) => Err(JobError::Retry(reason)),
        }
    }
}
