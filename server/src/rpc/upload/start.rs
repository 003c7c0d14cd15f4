//! `upload.start {kind, filename, contentType, size, taskId?, idempotencyKey?}` → `{key, uploadId, partSize,
//! partCount}`: checks the declared file with the same core rules as the single-PUT
//! procedures (filename; the kind's types; 1 byte to 50 MB), records it like them (a task
//! file becomes a QUEUED item of its task; a file expires like `user.uploadFile`'s) and
//! opens an upload in parts in the store. Parts are `partSize` bytes (5 MiB), the last
//! one the rest.
//!
//! With the outbox's `idempotencyKey` a replay answers the first call's upload, which the
//! client then resumes (`upload.listParts`), so a lost answer never opens a second upload
//! or a second task item. The store's upload cannot sit in a transaction, so it is opened
//! first; the file's row, its task item, the upload's row and the key's answer are then
//! written in one transaction that claims the key (`Once::claim`: a concurrent duplicate
//! waits for it, then answers the first upload and aborts its own in the store). A replay
//! whose upload has gone (the abandoned-upload sweep removed it a day later) frees the key
//! and opens a new one.

use chrono::Duration;
use serde::Deserialize;

use crate::models::multipart_uploads::{self, MultipartUpload};
use crate::models::now;
use crate::transaction;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::models::stored_files::FileKind;
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::upload::{own_upload, UploadChoice};
use crate::rpc::uploads::{insert_file, new_file, Declared};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
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
    /// The outbox's key: a replay answers the first call's upload.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
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
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
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
    let once = Once::new(ctx, &input.idempotency_key)?;
    if let Some(first) = once.replay::<StartedUpload>(&mut ctx.conn().await?.db()).await? {
        if still_open(ctx, &first).await? {
            return Ok(first);
        }
        // Swept as abandoned: this call opens the upload anew under the same key.
        once.forget(&mut ctx.conn().await?.db()).await?;
    }
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
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let row = new_file(ctx, &mut conn, kind, &declared, row_task, expires_at).await?;
    // The store's upload first (it cannot sit in a transaction), then the rows and the
    // key's answer in one transaction; a duplicate that took the key first wins, and this
    // call's store upload is aborted.
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
    let started = StartedUpload {
        key: row.key.clone(),
        upload_id: upload.id.clone(),
        part_size: upload.part_size,
        part_count: part_count(input.size.max(0) as u64, PART_SIZE),
    };
    let task_item = match input.kind {
        UploadChoice::TaskFile => input.task_id.as_deref(),
        _ => None,
    };
    let recorded = transaction!(&mut conn, |c| {
        if let Some(first) = once.claim::<StartedUpload>(c).await? {
            return Ok(Err(first));
        }
        insert_file(ctx, c, &row, task_item).await?;
        multipart_uploads::insert(c, &upload).await?;
        once.store(c, &started).await?;
        Ok::<_, RpcError>(Ok(()))
    });
    let abort = || ctx.state.storage.abort_multipart(&row.key, &upload.store_upload_id);
    match recorded {
        Ok(Ok(())) => Ok(started),
        Ok(Err(first)) => {
            let _ = abort().await;
            Ok(first)
        }
        Err(err) => {
            let _ = abort().await;
            Err(err)
        }
    }
}

/// Whether the upload a replay answers is still there to resume.
async fn still_open(ctx: &Ctx, started: &StartedUpload) -> RpcResult<bool> {
    match own_upload(ctx, &started.key, &started.upload_id).await {
        Ok(_) => Ok(true),
        Err(err) if err.code == ErrorCode::NotFound => Ok(false),
        Err(err) => Err(err),
    }
}
