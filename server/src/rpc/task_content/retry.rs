//! `taskContent.retry {taskId, itemId}` → the item: queues a FAILED item's processing
//! again (after the provider came back, or the server was set up). An item that has not
//! failed is refused with a plain sentence.

use crate::jobs::task_process;
use crate::models::now;
use crate::models::task_items;
use crate::rpc::task_content::remove::TaskItemInput;
use crate::rpc::task_content::{item_not_found, load_view, require_task, TaskContentItem};
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

pub async fn handler(ctx: &Ctx, input: TaskItemInput) -> RpcResult<TaskContentItem> {
    require_task(ctx, &input.task_id).await?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (item, _) = task_items::find(&mut conn, &input.task_id, &input.item_id)
        .await?
        .ok_or_else(item_not_found)?;
    let at = now();
    let requeued = transaction!(&mut conn, |c| {
        let requeued = task_items::requeue(c, &item.id, at).await?;
        if requeued {
            task_process::queue(c, &item.id, at).await?;
        }
        Ok::<_, RpcError>(requeued)
    })?;
    if !requeued {
        return Err(RpcError::bad_request("Only a failed item can be retried."));
    }
    drop(pooled);
    load_view(ctx, &input.task_id, &item.id).await
}
