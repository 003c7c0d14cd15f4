//! `notification.analyseImage`: photos of a pupil's work and the teacher's prompt go to the
//! configured OpenAI-compatible vision model; its text comes back as suggested feedback, or,
//! in the `NOTES` mode ("convert the images to notes"), as notes the model wrote from the photos.
//! Any signed-in user. The photos are checked (1 to 10 JPEGs, each within the upload limit),
//! sent once and not stored; the prompt and the answer are kept as an AssistantQuery row.

use base64::Engine as _;
use core_wasm::limits::{photo_count_error, MAX_UPLOAD_BYTES};

use crate::models::{assistant_queries, now};
use crate::providers::vision::VisionMode;
use crate::providers::ProviderError;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

/// The largest request body this procedure accepts (the transport's limit for it; every other
/// procedure keeps the small default). Ten photos prepared by the browser (longest side
/// 1600 px, about 0.3-1 MB each) are 4-14 MB as base64; 40 MB leaves room for larger phone
/// photos while bounding what one signed-in request can make the server hold in memory.
pub const MAX_BODY: usize = 40 * 1024 * 1024;
/// The longest prompt, in characters.
pub const MAX_PROMPT_CHARS: usize = core_wasm::limits::MAX_PROMPT_CHARS;

/// Shown when AI photo analysis is not configured.
pub const NOT_CONFIGURED: &str =
    "AI photo analysis is not switched on for your school yet. Ask your administrator.";

rpc_type! {
    pub struct AnalyseImageInput {
        /// Base64 JPEGs, with or without a `data:image/jpeg;base64,` prefix.
        pub images: Vec<String>,
        /// What to ask about the photos; empty asks for strengths and next steps.
        #[serde(default)]
        pub prompt: String,
        /// Feedback on the work (the default) or notes of what the photos show.
        #[serde(default)]
        pub mode: AnalysisMode,
        /// The outbox's key: a replay answers as the first call did, and the photos go to
        /// the AI service once.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

/// What the model writes from the photos.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AnalysisMode {
    #[default]
    #[serde(rename = "FEEDBACK")]
    Feedback,
    #[serde(rename = "NOTES")]
    Notes,
}

impl crate::rpc::typescript::Ts for AnalysisMode {
    fn ts(_: &mut crate::rpc::typescript::TsGen) -> String {
        "'FEEDBACK' | 'NOTES'".into()
    }
}

impl From<AnalysisMode> for VisionMode {
    fn from(mode: AnalysisMode) -> Self {
        match mode {
            AnalysisMode::Feedback => VisionMode::Feedback,
            AnalysisMode::Notes => VisionMode::Notes,
        }
    }
}

rpc_type! {
    pub struct AnalyseImageOutput {
        pub text: String,
    }
}

pub async fn handler(ctx: &Ctx, input: AnalyseImageInput) -> RpcResult<AnalyseImageOutput> {
    let user_id = ctx.require_user()?.id.clone();
    let once = Once::new(ctx, &input.idempotency_key)?;
    if let Some(first) = once.replay(&mut ctx.conn().await?.db()).await? {
        return Ok(first);
    }
    let vision = ctx
        .state
        .providers
        .vision
        .clone()
        .ok_or_else(|| RpcError::new(ErrorCode::PreconditionFailed, NOT_CONFIGURED))?;
    let jpegs = decode_photos(&input.images)?;
    let prompt = input.prompt.trim();
    if prompt.chars().count() > MAX_PROMPT_CHARS {
        return Err(RpcError::field(
            "prompt",
            core_wasm::limits::too_long_message(MAX_PROMPT_CHARS),
        ));
    }
    let mode = VisionMode::from(input.mode);
    let prompt = if prompt.is_empty() {
        mode.default_prompt()
    } else {
        prompt
    };
    // The decoded photos are the only copy now; drop the base64 before the long wait.
    drop(input.images);
    // The provider call cannot run inside a transaction: the key is taken first, so a
    // replay arriving meanwhile is told to wait instead of calling the provider again.
    if let Some(first) = once.reserve(ctx).await? {
        return Ok(first);
    }
    let text = match vision.describe(mode, prompt, &jpegs).await {
        Ok(text) => text,
        Err(err) => {
            // Failures are not kept: the client's retry asks the provider again.
            once.release(ctx).await;
            return Err(user_error(err));
        }
    };
    drop(jpegs);
    let answer = AnalyseImageOutput { text };
    record_query(ctx, &user_id, prompt, &answer, &once).await;
    Ok(answer)
}

/// Each photo's JPEG bytes, or the first problem as the user should read it.
pub fn decode_photos(images: &[String]) -> RpcResult<Vec<Vec<u8>>> {
    let refuse = |message: String| RpcError::field("images", message);
    if images.is_empty() {
        return Err(refuse("Add at least one photo.".into()));
    }
    // The camera's own limit and text, from the core.
    if let Some(message) = photo_count_error(images.len()) {
        return Err(refuse(message.into()));
    }
    images
        .iter()
        .enumerate()
        .map(|(index, image)| {
            let n = index + 1;
            let data = base64_part(image);
            // Refuse before decoding: base64 is 4 characters for every 3 bytes.
            if (data.len() as u64) / 4 * 3 > MAX_UPLOAD_BYTES + 3 {
                return Err(refuse(format!("Photo {n} must be 50 MB or smaller.")));
            }
            let bytes = decode_base64(data)
                .ok_or_else(|| refuse(format!("Photo {n} is not a JPEG image.")))?;
            if bytes.len() as u64 > MAX_UPLOAD_BYTES {
                return Err(refuse(format!("Photo {n} must be 50 MB or smaller.")));
            }
            // Every JPEG starts with the SOI marker and the first segment's marker byte.
            if !bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
                return Err(refuse(format!("Photo {n} is not a JPEG image.")));
            }
            Ok(bytes)
        })
        .collect()
}

/// The base64 text of an image: without a `data:…;base64,` prefix.
fn base64_part(image: &str) -> &str {
    let image = image.trim();
    match image.strip_prefix("data:") {
        Some(rest) => rest
            .split_once(";base64,")
            .map(|(_, data)| data)
            .unwrap_or(rest),
        None => image,
    }
}

/// Standard base64, padded or not, line breaks allowed.
fn decode_base64(data: &str) -> Option<Vec<u8>> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    if data.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        LENIENT.decode(compact).ok()
    } else {
        LENIENT.decode(data).ok()
    }
}

/// A provider failure as the teacher reads it ("Something went wrong" and this message); the
/// specifics go to the log.
fn user_error(err: ProviderError) -> RpcError {
    let message = match &err {
        ProviderError::Answered { message, .. } => format!("The AI service answered: {message}"),
        ProviderError::Declined(reason) => {
            format!("The AI service declined to answer: {reason}")
        }
        ProviderError::Unreachable(_) => {
            "Could not reach the AI service. Please try again later.".to_owned()
        }
        ProviderError::TimedOut => {
            "The AI service took too long to answer. Please try again, perhaps with fewer photos."
                .to_owned()
        }
        ProviderError::Malformed(_) => {
            "The AI service sent an answer Voicemark could not read.".to_owned()
        }
    };
    RpcError {
        code: ErrorCode::InternalServerError,
        message,
        fields: None,
        detail: Some(format!("vision: {err}")),
    }
}

/// Keeps the question and answer (the spec's AssistantQuery) and, with a key, the answer
/// for replays, in one transaction. The teacher already has the answer: a failure here is
/// logged, not shown (and the key is freed, so a replay asks the provider again).
async fn record_query(
    ctx: &Ctx,
    user_id: &str,
    prompt: &str,
    answer: &AnalyseImageOutput,
    once: &Once,
) {
    let at = now();
    let result = async {
        let mut pooled = ctx.conn().await?;
        transaction!(&mut pooled.db(), |c| {
            assistant_queries::insert(c, user_id, prompt, &answer.text, at).await?;
            once.store(c, answer).await?;
            Ok::<(), RpcError>(())
        })
    }
    .await;
    if let Err(err) = result {
        tracing::error!(detail = ?err.detail, "could not record the assistant query");
        once.release(ctx).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_wasm::limits::PHOTO_LIMIT_MESSAGE;

    #[test]
    fn photos_with_or_without_a_data_url_prefix_decode() {
        let photos = decode_photos(&[
            "/9j/4AAQ".into(),
            "data:image/jpeg;base64,/9j/4AAQ".into(),
            "/9j/\n4AA".into(),
        ])
        .expect("photos");
        assert!(photos.iter().all(|p| p.starts_with(&[0xFF, 0xD8, 0xFF])));
    }

    #[test]
    fn bad_photos_are_named_by_position() {
        let err = decode_photos(&["/9j/4AAQ".into(), "iVBORw0KGgo=".into()]).expect_err("refused");
        assert_eq!(err.message, "Photo 2 is not a JPEG image.");
        let err = decode_photos(&["not base64!".into()]).expect_err("refused");
        assert_eq!(err.message, "Photo 1 is not a JPEG image.");
        assert_eq!(
            decode_photos(&[]).expect_err("refused").message,
            "Add at least one photo."
        );
        let eleven = vec!["/9j/4AAQ".to_owned(); 11];
        assert_eq!(
            decode_photos(&eleven).expect_err("refused").message,
            PHOTO_LIMIT_MESSAGE
        );
    }
}
