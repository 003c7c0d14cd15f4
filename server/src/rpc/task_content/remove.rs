//! `taskContent.remove {taskId, itemId}` → `{id}`: takes an item out of the task. A file
//! uploaded to the task goes with it (from the store too, with its text); a voice note
//! pulled in stays in its owner's personal folder.

use crate::models::task_items;
use crate::models::stored_files;
use crate::rpc::task_content::{item_not_found, require_task};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::FileStore;
use crate::transaction;

rpc_type! {
    pub struct TaskItemInput {
        pub task_id: String,
        pub item_id: String,
    }
}

rpc_type! {
    pub struct RemovedItem {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: TaskItemInput) -> RpcResult<RemovedItem> {
    require_task(ctx, &input.task_id).await?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (item, file) = task_items::find(&mut conn, &input.task_id, &input.item_id)
        .await?
        .ok_or_else(item_not_found)?;
    // The task's own files (uploads, recordings); a voice note belongs to its owner.
    let owned_file = file.filter(|_| item.kind != task_items::VOICE_NOTE);
    transaction!(&mut conn, |c| {
        task_items::delete(c, &item.id).await?;
        if let Some(file) = &owned_file {
            task_items::delete_transcript(c, &file.key).await?;
            stored_files::delete_rows(c, std::slice::from_ref(&file.id)).await?;
        }
        Ok::<_, RpcError>(())
    })?;
    drop(pooled);
    if let Some(file) = owned_file {
        if let Err(err) = ctx.state.storage.delete(&file.key).await {
            // The row is gone; the object is an orphan the bucket's lifecycle may remove.
            tracing::warn!(key = %file.key, %err, "a removed task file stayed in the store");
        }
    }
    Ok(RemovedItem { id: item.id })
}
