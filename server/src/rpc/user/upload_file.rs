//! `user.uploadFile`: any signed-in user sends a file straight to storage through a signed
//! URL. The file expires: it is deleted `VOICEMARK_UPLOAD_TTL_HOURS` (default 24) later
//! (and tagged `expiring=true` on S3, for a bucket lifecycle rule as a second net).

use chrono::Duration;
use serde::Deserialize;

use crate::models::now;
use crate::models::stored_files::FileKind;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::uploads::{start_upload, Declared, UploadTicket};
use crate::rpc::{Ctx, RpcResult};

/// `{filename, contentType, size?}`: the spec's payload is `filename` and `contentType`
/// (section 7); `size`, when given, signs the upload for exactly that many bytes, and the
/// PUT stops at 50 MB either way.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadFileInput {
    pub filename: String,
    pub content_type: String,
    #[serde(default)]
    pub size: Option<i64>,
    /// The outbox's key: a replay answers as the first call did.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
}

impl Ts for UploadFileInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("UploadFileInput", |gen| {
            vec![
                ("filename".into(), String::ts(gen)),
                ("contentType".into(), String::ts(gen)),
                ("size?".into(), Option::<i64>::ts(gen)),
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
            ]
        });
        "UploadFileInput".into()
    }
}

pub async fn handler(ctx: &Ctx, input: UploadFileInput) -> RpcResult<UploadTicket> {
    let ttl = Duration::hours(i64::from(ctx.state.config.upload_ttl_hours));
    let once = Once::new(ctx, &input.idempotency_key)?;
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
        None,
        &once,
    )
    .await
}
