//! `leader.uploadTaskFile {filename, contentType, taskId, size?}` → `{key, url, headers,
//! expiresAt}`: adds a file to a task's content and answers the signed URL the browser
//! PUTs it to (15 minutes; `headers` must be sent as given). The file is a FILE item,
//! QUEUED; once its bytes arrive (the local PUT, or on S3 the next `leader.listTaskFiles`)
//! its text is read by the `task.process_item` job. Task files never expire; one whose
//! bytes never arrive is swept after a day, with its item.

use serde::Deserialize;

use crate::ids::new_id;
use crate::models::now;
use crate::models::stored_files::{self, FileKind};
use crate::models::task_items::{self, TaskItem};
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::uploads::{start_upload, Declared, UploadTicket};
use crate::rpc::{Ctx, RpcResult};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadTaskFileInput {
    pub filename: String,
    pub content_type: String,
    pub task_id: String,
    #[serde(default)]
    pub size: Option<i64>,
    /// The outbox's key: a replay answers as the first call did.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
}

impl Ts for UploadTaskFileInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("UploadTaskFileInput", |gen| {
            vec![
                ("filename".into(), String::ts(gen)),
                ("contentType".into(), String::ts(gen)),
                ("taskId".into(), String::ts(gen)),
                ("size?".into(), Option::<i64>::ts(gen)),
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
            ]
        });
        "UploadTaskFileInput".into()
    }
}

pub async fn handler(ctx: &Ctx, input: UploadTaskFileInput) -> RpcResult<UploadTicket> {
    let once = Once::new(ctx, &input.idempotency_key)?;
    require_task(ctx, &input.task_id).await?;
    start_upload(
        ctx,
        FileKind::Upload,
        Declared {
            filename: &input.filename,
            content_type: &input.content_type,
            size: input.size,
        },
        None,
        None,
        Some(&input.task_id),
        &once,
    )
    .await
}
/// Adds the caller's new upload at `key` to task `task_id` as a FILE item, QUEUED until its
/// bytes arrive (also used by `upload.start` for a task file sent in parts).
pub async fn add_file_item(ctx: &Ctx, task_id: String, key: &str) -> RpcResult<()> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let file = stored_files::find_by_key(&mut conn, key)
        .await?
        .ok_or_else(|| crate::rpc::RpcError::internal("the new upload's row is missing"))?;
    let at = now();
    task_items::insert(
        &mut conn,
        &TaskItem {
            id: new_id(),
            submission_id: task_id,
            user_id: user.id.clone(),
            kind: task_items::FILE.to_owned(),
            file_id: Some(file.id),
            name: file.filename,
            content_type: Some(file.content_type),
            notes: None,
            status: task_items::QUEUED.to_owned(),
            error: None,
            created_at: at,
            updated_at: at,
        },
    )
    .await?;
    Ok(())
}
