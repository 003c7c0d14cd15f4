//! `upload.start {kind, filename, contentType, size, taskId?}` → `{key, uploadId, partSize,
//! partCount}`: checks the declared file with the same core rules as the single-PUT
//! procedures (filename; the kind's types; 1 byte to 50 MB), records it like them (a task
//! file becomes a QUEUED item of its task; a file expires like `user.uploadFile`'s) and
//! opens an upload in parts in the store. Parts are `partSize` bytes (5 MiB), the last
//! one the rest.

use chrono::Duration;
use serde::Deserialize;

use crate::models::multipart_uploads::{self, MultipartUpload};
use crate::models::now;
use crate::models::stored_files::FileKind;
use crate::rpc::leader::upload_task_file::add_file_item;
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::upload::UploadChoice;
use crate::rpc::uploads::{record_upload, Declared};
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::multipart::{part_count, MultipartSpec, PART_SIZE};

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartUploadInput {
    pub kind: UploadChoice,
    pub filename: String,
    pub content_type: String,
    pub size: i64,
    #[serde(default)]
    pub task_id: Option<String>,
}

impl Ts for StartUploadInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("StartUploadInput", |gen| {
            vec![
                ("kind".into(), UploadChoice::ts(gen)),
                ("filename".into(), String::ts(gen)),
                ("contentType".into(), String::ts(gen)),
                ("size".into(), i64::ts(gen)),
                ("taskId?".into(), Option::<String>::ts(gen)),
            ]
        });
        "StartUploadInput".into()
    }
}

rpc_type! {
    /// The new upload: its key, the id of the upload in parts and how it is cut.
    pub struct StartedUpload {
        pub key: String,
        pub upload_id: String,
        pub part_size: i64,
        pub part_count: u32,
    }
}

pub async fn handler(ctx: &Ctx, input: StartUploadInput) -> RpcResult<StartedUpload> {
    let declared = Declared {
        filename: &input.filename,
        content_type: &input.content_type,
        size: Some(input.size),
    };
    let (kind, expires_at) = match input.kind {
        UploadChoice::VoiceNote => (FileKind::VoiceNote, None),
        UploadChoice::File => {
            let ttl = Duration::hours(i64::from(ctx.state.config.upload_ttl_hours));
            (FileKind::Upload, Some(now() + ttl))
        }
        UploadChoice::TaskFile => {
            let Some(task_id) = input.task_id.as_deref().filter(|t| !t.trim().is_empty()) else {
                return Err(RpcError::bad_request(
                    "Choose the task this file belongs to.",
                ));
            };
            require_task(ctx, task_id).await?;
            (FileKind::Upload, None)
        }
    };
    // A voice note may name the task it is about, as with `leader.uploadVoiceNote`.
    let row_task = match input.kind {
        UploadChoice::VoiceNote => input.task_id.clone(),
        _ => None,
    };
    let row = record_upload(ctx, kind, &declared, row_task, expires_at).await?;
    if let (UploadChoice::TaskFile, Some(task_id)) = (input.kind, input.task_id.clone()) {
        add_file_item(ctx, task_id, &row.key).await?;
    }
    let store_upload_id = ctx
        .state
        .storage
        .create_multipart(&MultipartSpec {
            key: &row.key,
            filename: &row.filename,
            content_type: &row.content_type,
            expiring: row.expires_at.is_some(),
        })
        .await
        .map_err(|e| RpcError::internal(format!("opening an upload in parts: {e}")))?;
    let upload = MultipartUpload {
        id: crate::ids::new_id(),
        file_id: row.id.clone(),
        store_upload_id,
        part_size: PART_SIZE as i64,
        created_at: now(),
    };
    let mut pooled = ctx.conn().await?;
    if let Err(err) = multipart_uploads::insert(&mut pooled.db(), &upload).await {
        let _ = ctx
            .state
            .storage
            .abort_multipart(&row.key, &upload.store_upload_id)
            .await;
        return Err(err.into());
    }
    Ok(StartedUpload {
        key: row.key,
        upload_id: upload.id,
        part_size: upload.part_size,
        part_count: part_count(input.size.max(0) as u64, PART_SIZE),
    })
}
