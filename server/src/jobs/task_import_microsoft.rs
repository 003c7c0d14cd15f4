//! `task.import_microsoft` `{itemId, source}`: brings one OneDrive / SharePoint file or
//! Teams recording into a task's content (docs/microsoft-graph.md). The bytes stream from
//! Graph into the file store chunk by chunk (memory stays flat whatever the size, up to
//! [`MAX_IMPORT_BYTES`]); then a recording with Teams' own transcript is READY with that
//! text, and anything else goes to `task.process_item` like an upload. Queued once per item
//! (key `task.import_microsoft:{itemId}`) by `taskContent.importMicrosoft`.
//!
//! The connection is the item owner's (their delegated token, refreshed as needed): an
//! expired or missing connection fails the item with the sentence saying to connect again;
//! Graph's 429 waits its `Retry-After`; network trouble retries with the queue's backoff.

use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, task_process, BackgroundJob, Job, JobError};
use crate::microsoft_graph::{self, GraphAccess};
use crate::models::task_items;
use crate::models::{now, stored_files};
use crate::providers::msgraph::{is_graph_id, vtt_to_text, GraphError, MeetingArtifact};
use crate::state::AppState;
use crate::storage::{FileStore, StoreError};
use crate::transaction;

/// The largest file imported from Microsoft 365 (it never passes through a browser, so
/// the 50 MB upload limit does not bind it; a two-hour lesson recording is about 1 GB).
pub const MAX_IMPORT_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// Where an imported item's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum MicrosoftSource {
    /// A drive item (the caller's OneDrive when `drive_id` is absent).
    File {
        drive_id: Option<String>,
        item_id: String,
    },
    /// A Teams meeting recording, with Teams' transcript of it when there is one.
    Recording {
        meeting_id: String,
        recording_id: String,
        transcript_id: Option<String>,
    },
}

impl MicrosoftSource {
    /// Whether every id is one Graph could have given (checked again by the client).
    pub fn check_ids(&self) -> Result<(), ()> {
        let ok = is_graph_id;
        let all = match self {
            MicrosoftSource::File { drive_id, item_id } => {
                ok(item_id) && drive_id.as_deref().is_none_or(ok)
            }
            MicrosoftSource::Recording {
                meeting_id,
                recording_id,
                transcript_id,
            } => ok(meeting_id) && ok(recording_id) && transcript_id.as_deref().is_none_or(ok),
        };
        if all {
            Ok(())
        } else {
            Err(())
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportFromMicrosoft {
    pub item_id: String,
    pub source: MicrosoftSource,
}

/// Queues the import of item `item_id`, once.
pub async fn queue(
    conn: &mut DbConn<'_>,
    item_id: &str,
    source: &MicrosoftSource,
) -> diesel::result::QueryResult<()> {
    let key = format!("{}:{item_id}", ImportFromMicrosoft::KIND);
    let job = ImportFromMicrosoft {
        item_id: item_id.to_owned(),
        source: source.clone(),
    };
    enqueue(conn, &job, now(), Some(key)).await?;
    Ok(())
}

/// What went wrong, for the job queue: `Err` to retry, `Ok(sentence)` to fail the item.
fn graph_outcome(err: GraphError) -> Result<String, JobError> {
    if let Some(after) = err.retry_after() {
        return Err(JobError::RetryAfter {
            message: err.to_string(),
            after,
        });
    }
    if err.is_transient() {
        return Err(JobError::Retry(err.to_string()));
    }
    Ok(match err {
        GraphError::Api { status: 401, .. } => {
            "Your Microsoft connection has expired. Connect your Microsoft account again, then press Retry.".to_owned()
        }
        GraphError::Api { status: 403, .. } => {
            "Microsoft did not allow Voicemark to read this item.".to_owned()
        }
        GraphError::Api { status: 404, .. } => {
            "Microsoft could not find this item any more.".to_owned()
        }
        other => format!("Microsoft's answer could not be used ({other})."),
    })
}

impl BackgroundJob for ImportFromMicrosoft {
    const KIND: &'static str = "task.import_microsoft";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let found = {
            let mut pooled = state.db.conn().await?;
            task_items::find_any(&mut pooled.db(), &self.item_id).await?
        };
        // Removed meanwhile: nothing to do.
        let Some((item, Some(file))) = found else {
            return Ok(());
        };
        if file.uploaded_at.is_some() || item.status != task_items::QUEUED {
            return Ok(());
        }
        let Some(graph) = state.providers.graph.clone() else {
            return fail(state, &item.id, GraphAccess::NotConfigured.message()).await;
        };
        let token = match microsoft_graph::access_token(state, &item.user_id).await {
            Ok(token) => token,
            Err(GraphAccess::Unavailable(why)) => return Err(JobError::Retry(why)),
            Err(err @ (GraphAccess::Db(_) | GraphAccess::Pool(_))) => {
                return Err(JobError::Retry(err.to_string()))
            }
            Err(other) => return fail(state, &item.id, other.message()).await,
        };
        let download = match &self.source {
            MicrosoftSource::File { drive_id, item_id } => {
                graph.download_item(&token, drive_id.as_deref(), item_id).await
            }
            MicrosoftSource::Recording {
                meeting_id,
                recording_id,
                ..
            } => {
                graph
                    .download_recording(&token, &artifact(meeting_id, recording_id))
                    .await
            }
        };
        let download = match download {
            Ok(download) => download,
            Err(err) => return fail(state, &item.id, &graph_outcome(err)?).await,
        };
        let size = match state
            .storage
            .put(&file.key, download.body, MAX_IMPORT_BYTES)
            .await
        {
            Ok(size) => size,
            Err(StoreError::TooLarge { .. }) => {
                return fail(
                    state,
                    &item.id,
                    "The file is larger than 2 GB, the most Voicemark imports from Microsoft 365.",
                )
                .await
            }
            // The stream broke off (Microsoft or the network): try again.
            Err(StoreError::Body(err)) => return Err(JobError::Retry(err.to_string())),
            Err(err) => return Err(JobError::Retry(err.to_string())),
        };
        // Teams' own transcript, when the meeting has one; never fatal (the speech
        // provider is the fallback).
        let transcript = match &self.source {
            MicrosoftSource::Recording {
                meeting_id,
                transcript_id: Some(transcript_id),
                ..
            } => match graph
                .transcript_vtt(&token, &artifact(meeting_id, transcript_id))
                .await
            {
                Ok(vtt) => Some(vtt_to_text(&vtt)).filter(|t| !t.trim().is_empty()),
                Err(err) => {
                    tracing::info!(item = %item.id, error = %err, "no Teams transcript: transcribing instead");
                    None
                }
            },
            _ => None,
        };
        let at = now();
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        transaction!(&mut conn, |c| {
            stored_files::mark_uploaded(c, &file.id, size, at).await?;
            match &transcript {
                // The item, then its transcript: one lock order everywhere (add_recording).
                Some(text) => {
                    task_items::make_recording(c, &item.id, true, at).await?;
                    task_items::save_transcript(c, &file.key, text, at).await?;
                }
                None => task_process::queue(c, &item.id, item.updated_at).await?,
            }
            Ok::<_, diesel::result::Error>(())
        })?;
        Ok(())
    }
}

/// A meeting artefact addressed by its ids (`/me/onlineMeetings/{meeting}/…/{id}`).
fn artifact(meeting_id: &str, id: &str) -> MeetingArtifact {
    MeetingArtifact {
        id: id.to_owned(),
        meeting_id: meeting_id.to_owned(),
        created_date_time: None,
        end_date_time: None,
        content_correlation_id: None,
        recording_content_url: None,
        transcript_content_url: None,
    }
}

/// Fails the item with `reason` (QUEUED → PROCESSING → FAILED); the job itself is done.
async fn fail(state: &AppState, item_id: &str, reason: &str) -> Result<(), JobError> {
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    transaction!(&mut conn, |c| {
        if task_items::start(c, item_id, at).await? {
            task_items::finish(c, item_id, Some(reason), at).await?;
        }
        Ok::<_, diesel::result::Error>(())
    })?;
    Ok(())
}
