//! `task.process_item` `{itemId}`: reads the text of one item of a task's content and
//! stores it in `resource_transcripts` under the file's key. Audio and video go to
//! the transcription server (`VOICEMARK_TRANSCRIPTION_URL`) or else Deepgram's
//! pre-recorded API, as a stream from the file store (never whole in memory);
//! PDF, Word and text files are read here (`task_extract`). The item goes QUEUED →
//! PROCESSING → READY, or FAILED with a sentence for the user in `error`; Retry
//! (`taskContent.retry`) queues it again.
//!
//! Queued once per (item, queueing): the key is `task.process_item:{id}:{updated_at}`, so
//! the upload's arrival noticed twice queues one job, and a Retry (which moves
//! `updated_at`) queues a new one.

use chrono::NaiveDateTime;
use core_wasm::uploads::{task_processing, TaskProcessing};
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::task_items::{self, ItemFile};
use crate::models::now;
use crate::providers::ProviderError;
use crate::state::AppState;
use crate::storage::{FileStore, StoreError};
use crate::transaction;

/// Shown on audio and video items when this server has no speech provider.
pub const NOT_SET_UP: &str =
    "Transcription is not switched on for your school yet. Ask your administrator.";
/// The file's bytes are gone from the store.
pub const FILE_MISSING: &str = "The file is no longer in storage. Remove it and upload it again.";
/// The store could not be read.
pub const STORE_FAILED: &str = "The file could not be read from storage. Try again.";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProcessTaskItem {
    pub item_id: String,
}

/// Queues the processing of item `item_id` (last changed at `updated_at`), once.
pub async fn queue(
    conn: &mut DbConn<'_>,
    item_id: &str,
    updated_at: NaiveDateTime,
) -> diesel::result::QueryResult<()> {
    let key = format!(
        "{}:{item_id}:{}",
        <ProcessTaskItem as BackgroundJob>::KIND,
        updated_at.and_utc().timestamp_micros()
    );
    let job = ProcessTaskItem {
        item_id: item_id.to_owned(),
    };
    enqueue(conn, &job, now(), Some(key)).await?;
    Ok(())
}

/// The bytes of stored file `file_id` have arrived: queues its task items still waiting.
pub async fn on_arrival(conn: &mut DbConn<'_>, file_id: &str) -> diesel::result::QueryResult<()> {
    for (id, updated_at) in task_items::queued_for_file(conn, file_id).await? {
        queue(conn, &id, updated_at).await?;
    }
    Ok(())
}

/// The user's sentence for a failed transcription.
pub fn speech_failure(err: &ProviderError) -> String {
    match err {
        ProviderError::Answered { message, .. } | ProviderError::Declined(message) => {
            format!("The speech service answered: {message}")
        }
        ProviderError::Unreachable(_) => {
            "Could not reach the speech service. Try again later.".to_owned()
        }
        ProviderError::TimedOut => "The speech service took too long to answer. Try again.".to_owned(),
        ProviderError::Malformed(_) => {
            "The speech service sent an answer Voicemark could not read.".to_owned()
        }
    }
}

fn store_failure(key: &str, err: StoreError) -> String {
    match err {
        StoreError::NotFound => FILE_MISSING.to_owned(),
        other => {
            tracing::warn!(%key, err = %other, "task file could not be read");
            STORE_FAILED.to_owned()
        }
    }
}

/// The text of `file`: `Ok(None)` when it has none to read; `Err` is the user's sentence.
pub(crate) async fn read_text(state: &AppState, file: &ItemFile) -> Result<Option<String>, String> {
    let how = task_processing(&file.content_type);
    match how {
        TaskProcessing::Nothing => Ok(None),
        TaskProcessing::Transcribe => {
            let providers = &state.providers;
            if !providers.transcribes_recordings() {
                return Err(NOT_SET_UP.to_owned());
            }
            let (stream, length) = state
                .storage
                .get_stream(&file.key)
                .await
                .map_err(|e| store_failure(&file.key, e))?;
            let body = reqwest::Body::wrap_stream(stream);
            // The transcription server when one is set (docs/providers.md), else Deepgram.
            let transcribed = match (&providers.transcription, &providers.speech) {
                (Some(server), _) => server.transcribe(body, &file.filename, &file.content_type, length).await,
                (None, Some(speech)) => speech.transcribe(body, &file.content_type, length).await,
                (None, None) => return Err(NOT_SET_UP.to_owned()),
            };
            transcribed
                .map(Some)
                .map_err(|err| {
                    tracing::info!(key = %file.key, %err, "transcription failed");
                    speech_failure(&err)
                })
        }
        _ => {
            let bytes = state
                .storage
                .get(&file.key)
                .await
                .map_err(|e| store_failure(&file.key, e))?;
            super::task_extract::extract(how, bytes).await
        }
    }
}

impl BackgroundJob for ProcessTaskItem {
    const KIND: &'static str = "task.process_item";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let found = task_items::find_any(&mut pooled.db(), &self.item_id).await?;
        // Removed meanwhile, or photo notes (nothing to read): nothing to do.
        let Some((item, Some(file))) = found else {
            return Ok(());
        };
        if !task_items::start(&mut pooled.db(), &item.id, now()).await? {
            return Ok(());
        }
        // A voice note transcribed when it was filed (`voice_note.transcribe`) is not sent
        // to Deepgram twice: its transcript is already kept under its key.
        let known = !task_items::transcripts(&mut pooled.db(), std::slice::from_ref(&file.key))
            .await?
            .is_empty();
        drop(pooled);
        let outcome = if known {
            Ok(None)
        } else {
            read_text(state, &file).await
        };
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let at = now();
        transaction!(&mut conn, |c| {
            match &outcome {
                Ok(text) => {
                    // Only while still PROCESSING: a recording made READY with its own
                    // transcript meanwhile keeps it.
                    let finished = task_items::finish(c, &item.id, None, at).await?;
                    if let (true, Some(text)) = (finished, text) {
                        task_items::save_transcript(c, &file.key, text, at).await?;
                    }
                }
                Err(reason) => {
                    task_items::finish(c, &item.id, Some(reason), at).await?;
                }
            }
            Ok::<_, diesel::result::Error>(())
        })?;
        Ok(())
    }
}
