//! `upload.listParts {key, uploadId}` → `{parts: [{partNumber, etag, size}]}`: the parts the
//! store holds whole (of the right length), so a resumed upload sends only the rest.

use crate::rpc::typescript::rpc_type;
use crate::rpc::upload::{declared_size, own_upload, part_size, UploadRef};
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::multipart::part_length;
use crate::storage::StoreError;

rpc_type! {
    pub struct UploadedPart {
        pub part_number: u32,
        pub etag: String,
        pub size: i64,
    }
}

rpc_type! {
    pub struct UploadedParts {
        pub parts: Vec<UploadedPart>,
    }
}

pub async fn handler(ctx: &Ctx, input: UploadRef) -> RpcResult<UploadedParts> {
    let (upload, file) = own_upload(ctx, &input.key, &input.upload_id).await?;
    let size = declared_size(&file);
    let stored = match ctx
        .state
        .storage
        .list_parts(&file.key, &upload.store_upload_id)
        .await
    {
        Ok(parts) => parts,
        Err(StoreError::NotFound) => Vec::new(),
        Err(err) => return Err(RpcError::internal(format!("listing parts: {err}"))),
    };
    let parts = stored
        .into_iter()
        .filter(|p| part_length(size, part_size(&upload), p.number) == Some(p.size))
        .map(|p| UploadedPart {
            part_number: p.number,
            etag: p.etag,
            size: p.size as i64,
        })
        .collect();
    Ok(UploadedParts { parts })
}
