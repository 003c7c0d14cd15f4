//! `taskContent.addRecording {taskId, key, transcript?}` → the item: marks a file uploaded
//! with `leader.uploadTaskFile` as a recording made on the spot (the dictation drawer's
//! WAV). With the drawer's transcript it is stored as the item's text and the item is
//! READY at once; without one the file is transcribed like any other recording.

use core_wasm::limits::{text_error, MAX_TEXT_CHARS};
use serde::Deserialize;

use crate::models::task_items;
use crate::models::now;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::task_content::{item_not_found, require_task, view_in, TaskContentItem};
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddRecordingInput {
    pub task_id: String,
    /// The key `leader.uploadTaskFile` answered.
    pub key: String,
    #[serde(default)]
    pub transcript: Option<String>,
    /// The outbox's key: a replay answers as the first call did.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
}

impl Ts for AddRecordingInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("AddRecordingInput", |gen| {
            vec![
                ("taskId".into(), String::ts(gen)),
                ("key".into(), String::ts(gen)),
                ("transcript?".into(), Option::<String>::ts(gen)),
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
            ]
        });
        "AddRecordingInput".into()
    }
}

pub async fn handler(ctx: &Ctx, input: AddRecordingInput) -> RpcResult<TaskContentItem> {
    let once = Once::new(ctx, &input.idempotency_key)?;
    if let Some(first) = once.replay(&mut ctx.conn().await?.db()).await? {
        return Ok(first);
    }
    let transcript = input
        .transcript
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if let Some(err) = transcript.and_then(|t| text_error(t, MAX_TEXT_CHARS)) {
        return Err(RpcError::field("transcript", err));
    }
    require_task(ctx, &input.task_id).await?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (item, file) = task_items::find_by_key(&mut conn, &input.task_id, &input.key)
        .await?
        .ok_or_else(item_not_found)?;
    let file = file.ok_or_else(item_not_found)?;
    let at = now();
    // The item's row first, then its transcript: the order the processing job takes them
    // in (`jobs::task_process`), so the two never wait on each other (PostgreSQL found a
    // deadlock when this took the transcript first).
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        task_items::make_recording(c, &item.id, transcript.is_some(), at).await?;
        if let Some(text) = transcript {
            task_items::save_transcript(c, &file.key, text, at).await?;
        }
        let view = view_in(c, &input.task_id, &item.id).await?;
        once.store(c, &view).await?;
        Ok::<_, RpcError>(view)
    })
}
