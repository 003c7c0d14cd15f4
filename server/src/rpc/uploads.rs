//! What `leader.uploadVoiceNote` and `user.uploadFile` share: checking the declared file,
//! recording it in `stored_files` and handing back a signed upload URL
//! (docs/storage.md).

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDateTime, Utc};
use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::jobs::file_expiry;
use crate::models::now;
use crate::models::stored_files::{self, FileKind, NewStoredFile};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::storage::{sanitise_filename, SignedUpload, UploadSpec};
use crate::transaction;

pub const FILENAME_REQUIRED: &str = "Filename is required";
/// Longest filename kept, in characters.
const MAX_FILENAME: usize = 200;
/// How long a listed file's playback/download URL stays valid.
pub const DOWNLOAD_URL_VALIDITY: Duration = Duration::hours(1);

/// Voice notes: what browsers record (`MediaRecorder`) and what the app may send.
const VOICE_TYPES: &[&str] = &[
    "audio/mp4",
    "audio/webm",
    "audio/ogg",
    "audio/wav",
    "audio/mpeg",
    "audio/aac",
];
pub const VOICE_TYPE_REFUSED: &str =
    "A voice note must be a recording (MP4, WebM, Ogg, WAV, MP3 or AAC audio).";

/// `user.uploadFile`, besides any `audio/*`: images, PDF, MP4 video, office documents and
/// plain text.
const UPLOAD_TYPES: &[&str] = &[
    "image/jpeg",
    "image/png",
    "image/webp",
    "image/gif",
    "image/heic",
    "application/pdf",
    "video/mp4",
    "text/plain",
    "application/msword",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.ms-powerpoint",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.spreadsheet",
    "application/vnd.oasis.opendocument.presentation",
    "application/rtf",
];

/// `Record<string, string>` on the wire: the headers the browser must send with its PUT.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Headers(pub BTreeMap<String, String>);

impl Ts for Headers {
    fn ts(_: &mut TsGen) -> String {
        "Record<string, string>".into()
    }
}

rpc_type! {
    /// Where to PUT the file (`url`, with exactly `headers`, before `expiresAt`) and the
    /// key that names it afterwards.
    pub struct UploadTicket {
        pub key: String,
        pub url: String,
        pub headers: Headers,
        pub expires_at: JsDate,
    }
}

/// Which file, as the browser declares it.
#[derive(Debug, Clone)]
pub struct Declared<'a> {
    pub filename: &'a str,
    pub content_type: &'a str,
    pub size: i64,
}

/// A filename as shown and stored: no folders, no control characters, trimmed; the field
/// error 'Filename is required' when nothing is left.
pub fn clean_filename(raw: &str) -> Result<String, (&'static str, String)> {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean == "." || clean == ".." {
        return Err(("filename", FILENAME_REQUIRED.to_owned()));
    }
    if clean.chars().count() > MAX_FILENAME {
        return Err((
            "filename",
            format!("Filename must be at most {MAX_FILENAME} characters"),
        ));
    }
    Ok(clean.to_owned())
}

/// The media type without parameters, lower case: `audio/webm;codecs=opus` → `audio/webm`.
pub fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether `kind` accepts files declared as `content_type`.
pub fn type_allowed(kind: FileKind, content_type: &str) -> bool {
    let essence = essence(content_type);
    // The declared type goes back out as a header: it must be a plain header value.
    let sendable = !content_type.is_empty()
        && content_type.len() <= 200
        && content_type.bytes().all(|b| (0x20..0x7f).contains(&b));
    let audio = essence.len() > "audio/".len()
        && essence.starts_with("audio/")
        && essence["audio/".len()..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'));
    sendable
        && match kind {
            FileKind::VoiceNote => VOICE_TYPES.contains(&essence.as_str()),
            FileKind::Upload => audio || UPLOAD_TYPES.contains(&essence.as_str()),
        }
}

/// Checks every declared field at once; returns the clean filename.
fn check(kind: FileKind, declared: &Declared<'_>) -> RpcResult<String> {
    let mut errors = FieldErrors::default();
    let filename = match clean_filename(declared.filename) {
        Ok(name) => Some(name),
        Err((field, message)) => {
            errors.add(field, message);
            None
        }
    };
    if !type_allowed(kind, declared.content_type) {
        errors.add(
            "contentType",
            match kind {
                FileKind::VoiceNote => VOICE_TYPE_REFUSED,
                FileKind::Upload => crate::http::submission_files::BAD_TYPE,
            },
        );
    }
    if let Err(err) = core_wasm::limits::check_upload_size(declared.size.max(0) as u64) {
        errors.add("size", err.to_string());
    }
    errors.into_result()?;
    Ok(filename.unwrap_or_default())
}

/// 128 random bits as hex: the part of a key nobody can guess.
fn random_segment() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Records the caller's new file of `kind` and signs its upload URL. `expires_at` marks
/// the file as expiring (deleted by `files.expire` then; tagged on S3).
pub async fn start_upload(
    ctx: &Ctx,
    kind: FileKind,
    declared: Declared<'_>,
    task_id: Option<String>,
    expires_at: Option<NaiveDateTime>,
) -> RpcResult<UploadTicket> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?.to_owned();
    let filename = check(kind, &declared)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let task_id = task_id.filter(|t| !t.trim().is_empty());
    if let Some(task) = &task_id {
        if !stored_files::task_in_school(&mut conn, &school_id, task).await? {
            return Err(RpcError::new(ErrorCode::NotFound, "Task not found."));
        }
    }
    let key = format!(
        "{school_id}/{}/{}/{}",
        kind.key_segment(),
        random_segment(),
        sanitise_filename(&filename)
    );
    let at = now();
    let row = NewStoredFile {
        id: crate::ids::new_id(),
        key: key.clone(),
        school_id: Some(school_id),
        user_id: Some(user.id.clone()),
        task_id,
        kind: kind.as_str().to_owned(),
        filename: filename.clone(),
        content_type: declared.content_type.to_owned(),
        size_bytes: Some(declared.size),
        in_personal_folder: false,
        expires_at,
        created_at: at,
        updated_at: Some(at),
    };
    transaction!(&mut conn, |c| {
        stored_files::insert(c, &row).await?;
        // The sweeps that will remove it: at its expiry, and a day on if it never arrives.
        if let Some(expiry) = expires_at {
            file_expiry::schedule(c, expiry).await?;
        }
        file_expiry::schedule(c, at + file_expiry::ABANDON_AFTER).await?;
        Ok::<_, RpcError>(())
    })?;
    let SignedUpload {
        url,
        headers,
        expires_at,
    } = ctx.state.storage.sign_upload(
        &UploadSpec {
            key: &key,
            filename: &filename,
            content_type: declared.content_type,
            size: declared.size as u64,
            expiring: row.expires_at.is_some(),
        },
        Utc::now(),
    );
    Ok(UploadTicket {
        key,
        url,
        headers: Headers(headers),
        expires_at: JsDate(expires_at),
    })
}

/// A signed URL that plays or downloads `file` for the next hour.
pub fn download_url(ctx: &Ctx, file: &stored_files::StoredFile) -> String {
    ctx.state.storage.sign_download(
        &file.key,
        &file.content_type,
        &file.filename,
        Utc::now(),
        DOWNLOAD_URL_VALIDITY,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voice_notes_take_recordings_only() {
        assert!(type_allowed(FileKind::VoiceNote, "audio/webm;codecs=opus"));
        assert!(type_allowed(FileKind::VoiceNote, "audio/mp4"));
        assert!(!type_allowed(FileKind::VoiceNote, "audio/flac"));
        assert!(!type_allowed(FileKind::VoiceNote, "video/mp4"));
        assert!(!type_allowed(FileKind::VoiceNote, "audio/mp4\r\nx-evil: 1"));
        assert!(type_allowed(FileKind::Upload, "audio/flac"));
        assert!(type_allowed(FileKind::Upload, "application/pdf"));
        assert!(type_allowed(FileKind::Upload, "image/heic"));
        assert!(!type_allowed(FileKind::Upload, "text/html"));
        assert!(!type_allowed(FileKind::Upload, "image/svg+xml"));
        assert!(!type_allowed(FileKind::Upload, "audio/"));
    }

    #[test]
    fn filenames_lose_folders_and_control_characters() {
        assert_eq!(
            clean_filename("  ../a/Week 3\u{7}.m4a "),
            Ok("Week 3.m4a".into())
        );
        assert_eq!(
            clean_filename("  "),
            Err(("filename", FILENAME_REQUIRED.to_owned()))
        );
        assert!(clean_filename(&"x".repeat(201)).is_err());
    }
}
