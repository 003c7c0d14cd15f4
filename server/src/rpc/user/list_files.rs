//! `user.listFiles`: the caller's uploaded files that have not expired, newest first, each
//! with a download URL valid for an hour. An upload not yet known to have arrived is
//! checked in the store (S3 does not tell us when a browser's PUT completes).

use core_wasm::uploads::arrived_whole;

use crate::models::now;
use crate::models::stored_files;
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::uploads::download_url;
use crate::rpc::{Ctx, RpcResult};
use crate::storage::FileStore;

rpc_type! {
    pub struct UploadedFile {
        pub key: String,
        pub filename: String,
        pub content_type: String,
        pub size: i64,
        pub created_at: JsDate,
        pub expires_at: Option<JsDate>,
        pub url: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<UploadedFile>> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    let files = stored_files::live_uploads(&mut pooled.db(), school_id, &user.id, at).await?;
    let mut listed = Vec::with_capacity(files.len());
    for mut file in files {
        if file.uploaded_at.is_none() {
            let declared = file.size_bytes.map(|size| size.max(0) as u64);
            let arrived = match ctx.state.storage.size(&file.key).await {
                Ok(Some(size)) if arrived_whole(size, declared) => size,
                _ => continue,
            };
            stored_files::mark_uploaded(&mut pooled.db(), &file.id, arrived, at).await?;
            file.size_bytes = Some(arrived as i64);
        }
        listed.push(UploadedFile {
            url: download_url(ctx, &file),
            key: file.key,
            filename: file.filename,
            content_type: file.content_type,
            size: file.size_bytes.unwrap_or(0),
            created_at: file.created_at.into(),
            expires_at: file.expires_at.map(JsDate::from),
        });
    }
    Ok(listed)
}
