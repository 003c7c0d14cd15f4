//! `leader.listTaskFiles {taskId}` → the task's content, oldest first: every item with its
//! kind, state and text (`TaskContentItem`). On S3 the browser's PUT goes to the bucket, so
//! this is where an upload's arrival is noticed (`HEAD`) and its processing queued.

use std::collections::HashMap;

use core_wasm::uploads::arrived_whole;

use crate::jobs::task_process;
use crate::models::task_items;
use crate::models::{now, stored_files};
use crate::rpc::task_content::voice_notes::TaskIdInput;
use crate::rpc::task_content::{require_task, view, TaskContentItem};
use crate::rpc::{Ctx, RpcResult};
use crate::storage::FileStore;

/// The most files checked with `HEAD` by one call.
const MAX_CHECKS: usize = 20;

pub async fn handler(ctx: &Ctx, input: TaskIdInput) -> RpcResult<Vec<TaskContentItem>> {
    require_task(ctx, &input.task_id).await?;
    let mut pooled = ctx.conn().await?;
    let mut rows = task_items::of_task(&mut pooled.db(), &input.task_id).await?;
    drop(pooled);
    if ctx.state.storage.local_signer().is_none() {
        let mut arrived = false;
        for (_, file) in rows.iter().filter(|(_, f)| f.as_ref().is_some_and(|f| f.uploaded_at.is_none())).take(MAX_CHECKS) {
            let Some(file) = file.as_ref().filter(|f| f.uploaded_at.is_none()) else {
                continue;
            };
            let declared = file.size_bytes.map(|s| s.max(0) as u64);
            if let Ok(Some(size)) = ctx.state.storage.size(&file.key).await {
                if arrived_whole(size, declared) {
                    let mut pooled = ctx.conn().await?;
                    let mut conn = pooled.db();
                    stored_files::mark_uploaded(&mut conn, &file.id, size, now()).await?;
                    task_process::on_arrival(&mut conn, &file.id).await?;
                    arrived = true;
                }
            }
        }
        if arrived {
            let mut pooled = ctx.conn().await?;
            rows = task_items::of_task(&mut pooled.db(), &input.task_id).await?;
        }
    }
    let keys: Vec<String> = rows
        .iter()
        .filter_map(|(_, f)| f.as_ref().map(|f| f.key.clone()))
        .collect();
    let mut pooled = ctx.conn().await?;
    let texts: HashMap<String, String> = task_items::transcripts(&mut pooled.db(), &keys)
        .await?
        .into_iter()
        .collect();
    Ok(rows
        .into_iter()
        .map(|(item, file)| view(item, file, &texts))
        .collect())
}
