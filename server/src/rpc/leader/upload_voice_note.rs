//! `leader.uploadVoiceNote`: records a voice note about to be uploaded and answers the
//! signed URL the browser PUTs it to (15 minutes; `headers` must be sent as given).

use serde::Deserialize;

use crate::models::stored_files::FileKind;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::uploads::{start_upload, Declared, UploadTicket};
use crate::rpc::{Ctx, RpcResult};

/// `{filename, contentType, size?, taskId?}`: the spec's payload is `filename` and
/// `contentType` (section 7); `size`, when the app knows it, signs the upload for exactly
/// that many bytes, and the PUT stops at 50 MB either way.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadVoiceNoteInput {
    pub filename: String,
    /// As `MediaRecorder` reports it (`audio/webm;codecs=opus`): kept whole for the
    /// upload's header, compared without parameters.
    pub content_type: String,
    #[serde(default)]
    pub size: Option<i64>,
    #[serde(default)]
    pub task_id: Option<String>,
    /// The outbox's key: a replay answers as the first call did.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
}

impl Ts for UploadVoiceNoteInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("UploadVoiceNoteInput", |gen| {
            vec![
                ("filename".into(), String::ts(gen)),
                ("contentType".into(), String::ts(gen)),
                ("size?".into(), Option::<i64>::ts(gen)),
                ("taskId?".into(), Option::<String>::ts(gen)),
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
            ]
        });
        "UploadVoiceNoteInput".into()
    }
}

pub async fn handler(ctx: &Ctx, input: UploadVoiceNoteInput) -> RpcResult<UploadTicket> {
    let once = Once::new(ctx, &input.idempotency_key)?;
    start_upload(
        ctx,
        FileKind::VoiceNote,
        Declared {
            filename: &input.filename,
            content_type: &input.content_type,
            size: input.size,
        },
        input.task_id,
        None,
        None,
        &once,
    )
    .await
}
