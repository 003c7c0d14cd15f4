//! `leader.uploadTaskFile {filename, contentType, taskId, size?}` → `{key, url, headers,
//! expiresAt}`: adds a file to a task's content and answers the signed URL the browser
//! PUTs it to (15 minutes; `headers` must be sent as given). The file is a FILE item,
//! QUEUED; once its bytes arrive (the local PUT, or on S3 the next `leader.listTaskFiles`)
//! its text is read by the `task.process_item` job. Task files never expire; one whose
//! bytes never arrive is swept after a day, with its item.

use serde::Deserialize;

use crate::models::stored_files::FileKind;
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
