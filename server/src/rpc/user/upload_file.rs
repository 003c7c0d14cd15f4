//! `user.uploadFile`: any signed-in user sends a file straight to storage through a signed
//! URL. The file expires: it is deleted `VOICEMARK_UPLOAD_TTL_HOURS` (default 24) later
//! (and tagged `expiring=true` on S3, for a bucket lifecycle rule as a second net).

use chrono::Duration;

use crate::models::now;
use crate::models::stored_files::FileKind;
use crate::rpc::typescript::rpc_type;
use crate::rpc::uploads::{start_upload, Declared, UploadTicket};
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct UploadFileInput {
        pub filename: String,
        pub content_type: String,
        pub size: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: UploadFileInput) -> RpcResult<UploadTicket> {
    let ttl = Duration::hours(i64::from(ctx.state.config.upload_ttl_hours));
    start_upload(
        ctx,
        FileKind::Upload,
        Declared {
            filename: &input.filename,
            content_type: &input.content_type,
            size: input.size,
        },
        None,
        Some(now() + ttl),
    )
    .await
}
