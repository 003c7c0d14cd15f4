//! `taskContent.*`: what a task is made from, besides the uploads of `leader.uploadTaskFile`
//! and the list of `leader.listTaskFiles`: voice notes pulled in, photo notes, recordings,
//! removing an item and retrying a failed one. Only the task's owner and the colleagues it
//! is shared with reach it; anyone else gets NOT_FOUND (docs/leaders.md, "Task content").

pub mod add_photo_notes;
pub mod add_recording;
pub mod add_voice_notes;
pub mod import_microsoft;
pub mod remove;
pub mod retry;
pub mod voice_notes;

use std::collections::HashMap;

use core_wasm::uploads::{task_processing, TaskProcessing};

use crate::db::DbConn;
use crate::models::task_items::{self, ItemFile, TaskItem};
use crate::models::task_submissions;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "taskContent.addPhotoNotes" => add_photo_notes),
        procedure!(Mutation "taskContent.addRecording" => add_recording),
        procedure!(Mutation "taskContent.addVoiceNotes" => add_voice_notes),
        procedure!(Mutation "taskContent.importMicrosoft" => import_microsoft),
        procedure!(Mutation "taskContent.remove" => remove),
        procedure!(Mutation "taskContent.retry" => retry),
        procedure!(Query "taskContent.voiceNotes" => voice_notes),
    ]
}

pub fn task_not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Task not found.")
}

pub fn item_not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "This item is not part of the task.")
}

/// Checks that the caller may add to and see the content of task `task_id` (owner or
/// collaborator, same school); NOT_FOUND otherwise.
pub async fn require_task(ctx: &Ctx, task_id: &str) -> RpcResult<()> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    task_submissions::access(&mut pooled.db(), &user.id, school_id, task_id)
        .await?
        .map(|_| ())
        .ok_or_else(task_not_found)
}

rpc_type! {
    /// One item of a task's content. `status`: QUEUED, PROCESSING, READY or FAILED (with
    /// `error`, a sentence for the user); `processing` says what PROCESSING means:
    /// TRANSCRIBE (audio, video), EXTRACT (PDF, Word, text) or NONE. `text`: the
    /// transcript, the extracted text or the photo notes.
    pub struct TaskContentItem {
        pub id: String,
        pub kind: String,
        pub name: String,
        pub content_type: Option<String>,
        pub status: String,
        pub processing: String,
        pub error: Option<String>,
        pub text: Option<String>,
        /// Whether the file's bytes have arrived (always true without a file).
        pub arrived: bool,
        pub size: Option<i64>,
        pub created_at: JsDate,
    }
}

/// What PROCESSING means for a file of `content_type`.
pub fn processing_of(content_type: Option<&str>) -> &'static str {
    match content_type.map(task_processing) {
        Some(TaskProcessing::Transcribe) => "TRANSCRIBE",
        Some(TaskProcessing::Pdf | TaskProcessing::Word | TaskProcessing::Text) => "EXTRACT",
        _ => "NONE",
    }
}

/// The wire form of `item`; `texts` maps file keys to their stored text.
pub fn view(
    item: TaskItem,
    file: Option<ItemFile>,
    texts: &HashMap<String, String>,
) -> TaskContentItem {
    let text = match &file {
        Some(file) => texts.get(&file.key).cloned(),
        None => item.notes.clone(),
    };
    TaskContentItem {
        processing: processing_of(item.content_type.as_deref()).to_owned(),
        arrived: file.as_ref().is_none_or(|f| f.uploaded_at.is_some()),
        size: file.as_ref().and_then(|f| f.size_bytes),
        id: item.id,
        kind: item.kind,
        name: item.name,
        content_type: item.content_type,
        status: item.status,
        error: item.error,
        text,
        created_at: item.created_at.into(),
    }
}

/// Item `item_id` of task `task_id` as the caller now sees it.
pub async fn load_view(ctx: &Ctx, task_id: &str, item_id: &str) -> RpcResult<TaskContentItem> {
    let mut pooled = ctx.conn().await?;
    view_in(&mut pooled.db(), task_id, item_id).await
}

/// [`load_view`] on `conn` (inside the transaction that made the item).
pub async fn view_in(
    conn: &mut DbConn<'_>,
    task_id: &str,
    item_id: &str,
) -> RpcResult<TaskContentItem> {
    let (item, file) = task_items::find(conn, task_id, item_id)
        .await?
        .ok_or_else(item_not_found)?;
    let keys: Vec<String> = file.iter().map(|f| f.key.clone()).collect();
    let texts: HashMap<String, String> = task_items::transcripts(conn, &keys)
        .await?
        .into_iter()
        .collect();
    Ok(view(item, file, &texts))
}
