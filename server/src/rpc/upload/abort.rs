//! `upload.abort {key, uploadId}` → `{key}`: drops the upload's parts from the store. The
//! file's row stays without bytes, so the expiry sweep removes it (and a task file's item)
//! a day on, as for a single PUT that never arrived.

use crate::models::multipart_uploads;
use crate::rpc::typescript::rpc_type;
use crate::rpc::upload::{own_upload, UploadRef};
use crate::rpc::{Ctx, RpcError, RpcResult};

rpc_type! {
    pub struct AbortedUpload {
        pub key: String,
    }
}

pub async fn handler(ctx: &Ctx, input: UploadRef) -> RpcResult<AbortedUpload> {
    let (upload, file) = own_upload(ctx, &input.key, &input.upload_id).await?;
    ctx.state
        .storage
        .abort_multipart(&file.key, &upload.store_upload_id)
        .await
        .map_err(|e| RpcError::internal(format!("aborting an upload: {e}")))?;
    let mut pooled = ctx.conn().await?;
    multipart_uploads::delete(&mut pooled.db(), &upload.id).await?;
    Ok(AbortedUpload { key: file.key })
}
