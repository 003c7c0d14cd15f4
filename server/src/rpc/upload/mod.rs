//! `upload.*`: uploads in parts, which resume after a cut connection (docs/storage.md,
//! "Uploads in parts"). `start` checks the declared file like the single-PUT procedures
//! and opens the upload in the store; `signParts` hands out part URLs; `listParts` says
//! which parts the store holds; `complete` joins them; `abort` drops them. Everything is
//! scoped to the caller's school and to the caller: someone else's upload is NOT_FOUND.

pub mod abort;
pub mod complete;
pub mod list_parts;
pub mod sign_parts;
pub mod start;

use serde::{Deserialize, Serialize};

use crate::models::multipart_uploads::{self, MultipartUpload};
use crate::models::stored_files::StoredFile;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "upload.abort" => abort),
        procedure!(Mutation "upload.complete" => complete),
        procedure!(Query "upload.listParts" => list_parts),
        procedure!(Mutation "upload.signParts" => sign_parts),
        procedure!(Mutation "upload.start" => start),
    ]
}

/// What is being uploaded: the same choices as the single-PUT procedures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UploadChoice {
    /// `leader.uploadVoiceNote`: filed with `leader.transferVoiceNoteToPersonalFolder`.
    VoiceNote,
    /// `user.uploadFile`: expires like it.
    File,
    /// `leader.uploadTaskFile`: a task's content (needs `taskId`).
    TaskFile,
}

impl Ts for UploadChoice {
    fn ts(_: &mut TsGen) -> String {
        "'voiceNote' | 'file' | 'taskFile'".into()
    }
}

rpc_type! {
    /// Which upload: the key `upload.start` answered and its `uploadId`.
    pub struct UploadRef {
        pub key: String,
        pub upload_id: String,
    }
}

/// The answer to someone else's (or a finished) upload.
pub fn not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Upload not found.")
}

/// The caller's upload under way `upload_id` of the file at `key`, or NOT_FOUND.
pub async fn own_upload(
    ctx: &Ctx,
    key: &str,
    upload_id: &str,
) -> RpcResult<(MultipartUpload, StoredFile)> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    multipart_uploads::find_owned(&mut pooled.db(), school_id, &user.id, key, upload_id)
        .await?
        .ok_or_else(not_found)
}

/// The declared size of `file` (every upload in parts declares one).
pub fn declared_size(file: &StoredFile) -> u64 {
    file.size_bytes.unwrap_or(0).max(0) as u64
}

/// The part size of `upload`.
pub fn part_size(upload: &MultipartUpload) -> u64 {
    upload.part_size.max(1) as u64
}
