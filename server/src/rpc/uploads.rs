//! What `leader.uploadVoiceNote`, `leader.uploadTaskFile` and `user.uploadFile` share: checking the declared file,
//! recording it in `stored_files` and handing back a signed upload URL
//! (docs/storage.md).

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDateTime, Utc};
use core_wasm::filename::{clean_filename, key_safe_name};
use core_wasm::limits::check_upload_size;
use core_wasm::uploads::{type_allowed, UploadKind};
use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::file_expiry;
use crate::models::now;
use crate::models::stored_files::{self, FileKind, NewStoredFile};
use crate::models::task_items::{self, TaskItem};
use crate::rpc::idempotent::Once;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::storage::{SignedUpload, UploadSpec};
use crate::transaction;

/// How long a listed file's playback/download URL stays valid.
pub const DOWNLOAD_URL_VALIDITY: Duration = Duration::hours(1);

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

/// Which file, as the browser declares it. `size` is optional (the spec's payload has
/// only `filename` and `contentType`): when given, the upload URL is signed for exactly
/// that many bytes; either way the PUT stops at the 50 MB limit.
#[derive(Debug, Clone)]
pub struct Declared<'a> {
    pub filename: &'a str,
    pub content_type: &'a str,
    pub size: Option<i64>,
}

/// The core's upload rule for files of `kind`.
pub fn upload_kind(kind: FileKind) -> UploadKind {
    match kind {
        FileKind::VoiceNote => UploadKind::VoiceNote,
        FileKind::Upload => UploadKind::File,
    }
}

/// Checks every declared field at once against the core's rules; returns the clean
/// filename.
fn check(kind: FileKind, declared: &Declared<'_>) -> RpcResult<String> {
    let rule = upload_kind(kind);
    let mut errors = FieldErrors::default();
    let filename = match clean_filename(declared.filename) {
        Ok(name) => Some(name),
        Err(refused) => {
            errors.add("filename", refused.message());
            None
        }
    };
    if !type_allowed(rule, declared.content_type) {
        errors.add("contentType", rule.type_refused());
    }
    if let Some(size) = declared.size {
        if let Err(err) = check_upload_size(size.max(0) as u64) {
            errors.add("size", err.to_string());
        }
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
/// the file as expiring (deleted by `files.expire` then; tagged on S3). With `task_item`,
/// the file is also added to that task's content as a FILE item, QUEUED, in the same
/// transaction. `once` makes it happen once per idempotency key: a replay gets the first
/// ticket (signed again if its URL has expired meanwhile: same key, same file).
pub async fn start_upload(
    ctx: &Ctx,
    kind: FileKind,
    declared: Declared<'_>,
    task_id: Option<String>,
    expires_at: Option<NaiveDateTime>,
    task_item: Option<&str>,
    once: &Once,
) -> RpcResult<UploadTicket> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if let Some(first) = once.replay(&mut conn).await? {
        return still_valid(ctx, &mut conn, first).await;
    }
    let row = new_file(ctx, &mut conn, kind, &declared, task_id, expires_at).await?;
    let ticket = transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(Err(first));
        }
        insert_file(ctx, c, &row, task_item).await?;
        let ticket = sign(
            ctx,
            &UploadSpec {
                key: &row.key,
                filename: &row.filename,
                content_type: declared.content_type,
                size: declared.size.map(|size| size.max(0) as u64),
                expiring: row.expires_at.is_some(),
            },
        );
        once.store(c, &ticket).await?;
        Ok::<_, RpcError>(Ok(ticket))
    })?;
    match ticket {
        Ok(ticket) => Ok(ticket),
        Err(first) => still_valid(ctx, &mut conn, first).await,
    }
}

/// The ticket of `spec`: its URL signed from now.
fn sign(ctx: &Ctx, spec: &UploadSpec<'_>) -> UploadTicket {
    let SignedUpload {
        url,
        headers,
        expires_at,
    } = ctx.state.storage.sign_upload(spec, Utc::now());
    UploadTicket {
        key: spec.key.to_owned(),
        url,
        headers: Headers(headers),
        expires_at: JsDate(expires_at),
    }
}

/// A kept ticket as a replay gets it: as it was while its URL is valid; once that has
/// expired, the same file's upload signed again (an outbox replaying days later can still
/// send the bytes, and nothing new is recorded).
async fn still_valid(
    ctx: &Ctx,
    conn: &mut crate::db::DbConn<'_>,
    ticket: UploadTicket,
) -> RpcResult<UploadTicket> {
    if ticket.expires_at.0 > Utc::now() {
        return Ok(ticket);
    }
    let file = stored_files::find_by_key(conn, &ticket.key)
        .await?
        .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "This upload has expired."))?;
    Ok(sign(
        ctx,
        &UploadSpec {
            key: &file.key,
            filename: &file.filename,
            content_type: &file.content_type,
            size: file.size_bytes.map(|size| size.max(0) as u64),
            expiring: file.expires_at.is_some(),
        },
    ))
}

/// Checks the declared file against the core's rules (and that a voice note's task is the
/// school's) and makes the caller's new file of `kind`, not yet recorded: [`insert_file`]
/// records it. Shared by the single-PUT procedures and `upload.start` (uploads in parts).
pub async fn new_file(
    ctx: &Ctx,
    conn: &mut DbConn<'_>,
    kind: FileKind,
    declared: &Declared<'_>,
    task_id: Option<String>,
    expires_at: Option<NaiveDateTime>,
) -> RpcResult<NewStoredFile> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?.to_owned();
    let filename = check(kind, declared)?;
    let task_id = task_id.filter(|t| !t.trim().is_empty());
    if let Some(task) = &task_id {
        if !stored_files::task_in_school(conn, &school_id, task).await? {
            return Err(RpcError::new(ErrorCode::NotFound, "Task not found."));
        }
    }
    let key = format!(
        "{school_id}/{}/{}/{}",
        kind.key_segment(),
        random_segment(),
        key_safe_name(&filename)
    );
    let at = now();
    Ok(NewStoredFile {
        id: crate::ids::new_id(),
        key,
        school_id: Some(school_id),
        user_id: Some(user.id.clone()),
        task_id,
        kind: kind.as_str().to_owned(),
        filename,
        content_type: declared.content_type.to_owned(),
        size_bytes: declared.size,
        in_personal_folder: false,
        expires_at,
        created_at: at,
        updated_at: Some(at),
    })
}

/// Inside the caller's transaction: records `row` with the sweeps that will remove it (at
/// its expiry, and a day on if it never arrives) and, with `task_item`, adds it to that
/// task's content as a FILE item, QUEUED until its bytes arrive.
pub async fn insert_file(
    ctx: &Ctx,
    c: &mut DbConn<'_>,
    row: &NewStoredFile,
    task_item: Option<&str>,
) -> RpcResult<()> {
    let user = ctx.require_user()?;
    let at = row.created_at;
    stored_files::insert(c, row).await?;
    if let Some(expiry) = row.expires_at {
        file_expiry::schedule(c, expiry).await?;
    }
    file_expiry::schedule(c, at + file_expiry::ABANDON_AFTER).await?;
    if let Some(task) = task_item {
        task_items::insert(
            c,
            &TaskItem {
                id: crate::ids::new_id(),
                submission_id: task.to_owned(),
                user_id: user.id.clone(),
                kind: task_items::FILE.to_owned(),
                file_id: Some(row.id.clone()),
                name: row.filename.clone(),
                content_type: Some(row.content_type.clone()),
                notes: None,
                status: task_items::QUEUED.to_owned(),
                error: None,
                created_at: at,
                updated_at: at,
            },
        )
        .await?;
    }
    Ok(())
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
