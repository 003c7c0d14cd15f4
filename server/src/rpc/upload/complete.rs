//! `upload.complete {key, uploadId, parts: [{partNumber, etag}]}` → `{key, size}`: joins the
//! parts into the file once every part of the declared size is there, then records its
//! arrival like a single PUT does (a task file's text is read next; a voice note is ready
//! for `leader.transferVoiceNoteToPersonalFolder`). Missing parts are refused with
//! 'The upload did not arrive whole.'; the parts stay, so the browser can send them.

use core_wasm::uploads::arrived_whole;
use serde::Deserialize;

use crate::http::uploads::INCOMPLETE;
use crate::models::{multipart_uploads, now, stored_files};
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::upload::{declared_size, own_upload, part_size};
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::multipart::{part_count, part_length};
use crate::storage::{FileStore, StoreError};
use crate::transaction;

rpc_type! {
    pub struct CompletedPart {
        pub part_number: u32,
        pub etag: String,
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompleteUploadInput {
    pub key: String,
    pub upload_id: String,
    pub parts: Vec<CompletedPart>,
}

impl Ts for CompleteUploadInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("CompleteUploadInput", |gen| {
            vec![
                ("key".into(), String::ts(gen)),
                ("uploadId".into(), String::ts(gen)),
                ("parts".into(), Vec::<CompletedPart>::ts(gen)),
            ]
        });
        "CompleteUploadInput".into()
    }
}

rpc_type! {
    pub struct CompletedUpload {
        pub key: String,
        pub size: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: CompleteUploadInput) -> RpcResult<CompletedUpload> {
    let (upload, file) = own_upload(ctx, &input.key, &input.upload_id).await?;
    let size = declared_size(&file);
    let count = part_count(size, part_size(&upload));
    let mut parts: Vec<(u32, String)> = input
        .parts
        .iter()
        .map(|p| (p.part_number, p.etag.clone()))
        .collect();
    parts.sort_by_key(|(n, _)| *n);
    parts.dedup_by_key(|(n, _)| *n);
    if parts.len() as u32 != count
        || parts
            .iter()
            .enumerate()
            .any(|(i, (n, _))| *n != i as u32 + 1)
    {
        return Err(RpcError::bad_request(INCOMPLETE));
    }
    // Each part as the store holds it must have its exact length (S3 cannot be told).
    let stored = ctx
        .state
        .storage
        .list_parts(&file.key, &upload.store_upload_id)
        .await
        .map_err(|e| RpcError::internal(format!("listing parts: {e}")))?;
    let whole = parts.iter().all(|(n, _)| {
        stored
            .iter()
            .any(|p| p.number == *n && Some(p.size) == part_length(size, part_size(&upload), *n))
    });
    if !whole {
        return Err(RpcError::bad_request(INCOMPLETE));
    }
    match ctx
        .state
        .storage
        .complete_multipart(&file.key, &upload.store_upload_id, &parts)
        .await
    {
        Ok(()) => {}
        Err(StoreError::Service(detail)) => {
            tracing::warn!(%detail, "completing an upload in parts");
            return Err(RpcError::bad_request(INCOMPLETE));
        }
        Err(err) => return Err(RpcError::internal(format!("completing an upload: {err}"))),
    }
    let arrived = ctx
        .state
        .storage
        .size(&file.key)
        .await
        .map_err(|e| RpcError::internal(format!("checking {}: {e}", file.key)))?;
    let Some(arrived) = arrived.filter(|&got| arrived_whole(got, Some(size))) else {
        let _ = ctx.state.storage.delete(&file.key).await;
        return Err(RpcError::bad_request(INCOMPLETE));
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        stored_files::mark_uploaded(c, &file.id, arrived, now()).await?;
        multipart_uploads::delete(c, &upload.id).await?;
        // A task's file: its text can be read now.
        crate::jobs::task_process::on_arrival(c, &file.id).await?;
        Ok::<_, RpcError>(())
    })?;
    Ok(CompletedUpload {
        key: file.key,
        size: arrived as i64,
    })
}
