//! `taskContent.addPhotoNotes {taskId, name, notes}` → the new item: the text the photo
//! analyser read from photos of handwritten notes (its "notes" mode), kept as a
//! PHOTO_NOTES item, READY at once.

use core_wasm::limits::{text_error, MAX_TEXT_CHARS, MAX_TITLE_CHARS};

use crate::ids::new_id;
use crate::models::task_items::{self, TaskItem};
use crate::models::now;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::task_content::{require_task, view_in, TaskContentItem};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct AddPhotoNotesInput {
        pub task_id: String,
        pub name: String,
        pub notes: String,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

pub async fn handler(ctx: &Ctx, input: AddPhotoNotesInput) -> RpcResult<TaskContentItem> {
    let once = Once::new(ctx, &input.idempotency_key)?;
    if let Some(first) = once.replay(&mut ctx.conn().await?.db()).await? {
        return Ok(first);
    }
    let name = input.name.trim();
    let notes = input.notes.trim();
    let mut errors = FieldErrors::default();
    if name.is_empty() {
        errors.add("name", "Give the notes a name.");
    } else if let Some(err) = text_error(name, MAX_TITLE_CHARS) {
        errors.add("name", err);
    }
    if notes.is_empty() {
        errors.add("notes", "There is no text to add.");
    } else if let Some(err) = text_error(notes, MAX_TEXT_CHARS) {
        errors.add("notes", err);
    }
    errors.into_result()?;
    require_task(ctx, &input.task_id).await?;
    let user = ctx.require_user()?;
    let at = now();
    let item = TaskItem {
        id: new_id(),
        submission_id: input.task_id.clone(),
        user_id: user.id.clone(),
        kind: task_items::PHOTO_NOTES.to_owned(),
        file_id: None,
        name: name.to_owned(),
        content_type: None,
        notes: Some(notes.to_owned()),
        status: task_items::READY.to_owned(),
        error: None,
        created_at: at,
        updated_at: at,
    };
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        task_items::insert(c, &item).await?;
        let view = view_in(c, &input.task_id, &item.id).await?;
        once.store(c, &view).await?;
        Ok::<_, RpcError>(view)
    })
}
