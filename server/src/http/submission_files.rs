//! `/api/submissions/{id}/{token}/files`: a pupil uploads files to their submission from
//! the public page (no sign-in; the link's token is the credential), and reads them back.
//!
//! Upload: `POST` with the file as the raw body, its name in `x-filename`
//! (percent-encoded, as `encodeURIComponent` writes it) and its type in `content-type`.
//! The server enforces the 50 MB total per submission while the body streams (413 as soon
//! as the limit is passed, or at once when `content-length` says so), the core's filename
//! rule (400) and the core's allowed types for submission files (415); a refused upload
//! keeps nothing. Answers 201 with the stored file.

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use core_wasm::filename::clean_filename;
use core_wasm::limits::MAX_UPLOAD_BYTES;
use core_wasm::uploads::{type_for_file, UploadKind};
use futures_util::{StreamExt, TryStreamExt};

use crate::db::DbConn;
use crate::error::AppError;
use crate::ids::new_id;
use crate::models::now;
use crate::models::stored_files;
use crate::models::submissions::{find_by_link, PublicSubmission, LINK_INVALID};
use crate::state::AppState;
use crate::storage::{content_disposition, FileStore, LocalStore, StoreError};
use crate::transaction;

/// The message of a refused upload over the limit (the core's, so the browser says the same).
const TOO_LARGE: &str = core_wasm::limits::UPLOAD_TOO_LARGE_MESSAGE;
/// The message of a refused file type (the core's, so the browser says the same).
pub const BAD_TYPE: &str = core_wasm::uploads::FILE_TYPE_REFUSED;
/// The message for uploads to a submission that is already marked.
pub const ALREADY_MARKED: &str = "This work has already been marked, so it cannot be changed.";

/// The routes under `/api/submissions`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/{id}/{token}/files", post(upload))
        .route("/{id}/{token}/files/{file_id}", get(download))
}

/// The submission behind the link, or the one refusal for any wrong, garbled or revoked link.
async fn by_link(
    conn: &mut DbConn<'_>,
    id: &str,
    token: &str,
) -> Result<PublicSubmission, AppError> {
    find_by_link(conn, id, token)
        .await?
        .ok_or(AppError::NotFoundWith(LINK_INVALID))
}

/// The `x-filename` header, percent-decoded, through the core's filename rule (no folders,
/// no control characters, 1 to 200 characters); `Err` with the sentence to answer.
fn filename_from(headers: &HeaderMap) -> Result<String, &'static str> {
    let decoded = headers
        .get("x-filename")
        .and_then(|raw| raw.to_str().ok())
        .and_then(|raw| {
            url::form_urlencoded::parse(format!("f={raw}").as_bytes())
                .next()
                .map(|(_, v)| v.into_owned())
        })
        .unwrap_or_default();
    clean_filename(&decoded).map_err(|refused| refused.message())
}

async fn upload(
    State(state): State<AppState>,
    Path((id, token)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, AppError> {
    let mut pooled = state.db.conn().await?;
    let submission = by_link(&mut pooled.db(), &id, &token).await?;
    if submission.marked_at.is_some() {
        return Err(AppError::Conflict(ALREADY_MARKED));
    }
    let filename = match filename_from(&headers) {
        Ok(filename) => filename,
        Err(message) => return Err(AppError::BadRequest(message.into())),
    };
    let declared = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let Some(content_type) = type_for_file(UploadKind::SubmissionFile, &filename, declared) else {
        return Err(AppError::UnsupportedType(BAD_TYPE));
    };
    let stored = stored_files::submission_bytes(&mut pooled.db(), &submission.id)
        .await?
        .max(0) as u64;
    let room = MAX_UPLOAD_BYTES.saturating_sub(stored);
    let declared_length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared_length.is_some_and(|length| length > room) {
        return Err(AppError::TooLarge(TOO_LARGE));
    }
    // Do not hold a connection while the body streams in.
    drop(pooled);

    let store = LocalStore::in_data_dir(&state.config.data_dir);
    let file_id = new_id();
    let key = format!("submissions/{}/{file_id}", submission.id);
    let stream = body
        .into_data_stream()
        .map_err(std::io::Error::other)
        .boxed();
    let size = match store.put(&key, stream, room).await {
        Ok(size) => size,
        Err(StoreError::TooLarge { .. }) => return Err(AppError::TooLarge(TOO_LARGE)),
        Err(StoreError::Body(err)) => {
            tracing::warn!(%err, "submission upload did not arrive whole");
            return Err(AppError::BadRequest(
                "The upload did not arrive whole.".into(),
            ));
        }
        // A store that cannot write (full, read-only) is the server's fault: 503, not 400.
        Err(err) => return Err(AppError::from_store("submission file", err)),
    };
    if size == 0 {
        let _ = store.delete(&key).await;
        return Err(AppError::BadRequest("The file is empty.".into()));
    }

    // Record it, checking the total again: another upload may have landed meanwhile.
    let at = now();
    let row = stored_files::NewSubmissionFile {
        id: file_id.clone(),
        key: key.clone(),
        school_id: Some(submission.school_id.clone()),
        submission_id: Some(submission.id.clone()),
        filename: filename.clone(),
        content_type: content_type.to_owned(),
        size_bytes: Some(size as i64),
        uploaded_at: Some(at),
        created_at: at,
    };
    let recorded: Result<Result<(), AppError>, crate::db::DbError> = async {
        let mut pooled = state.db.conn().await?;
        let outcome = transaction!(&mut pooled.db(), |c| {
            let total =
                stored_files::submission_bytes(c, &row.submission_id.clone().unwrap_or_default())
                    .await?;
            if total.max(0) as u64 + size > MAX_UPLOAD_BYTES {
                return Ok::<_, diesel::result::Error>(Err(AppError::TooLarge(TOO_LARGE)));
            }
            stored_files::insert_submission_file(c, &row).await?;
            Ok(Ok(()))
        })?;
        Ok(outcome)
    }
    .await;
    match recorded {
        Ok(Ok(())) => Ok((
            StatusCode::CREATED,
            Json(serde_json::json!({
                "id": file_id,
                "filename": filename,
                "contentType": content_type,
                "sizeBytes": size,
            })),
        )
            .into_response()),
        Ok(Err(refusal)) => {
            let _ = store.delete(&key).await;
            Err(refusal)
        }
        Err(err) => {
            let _ = store.delete(&key).await;
            Err(AppError::from(err))
        }
    }
}

/// `?inline=1`: the Feedback Hub shows a picture, a PDF or a recording in the page.
#[derive(serde::Deserialize)]
struct DownloadQuery {
    #[serde(default)]
    inline: Option<String>,
}

/// Whether a stored type may be shown in the page when asked (`?inline=1`): pictures the
/// browser decodes itself, PDFs (the browser's own viewer) and audio. Anything else, and
/// SVG or HTML above all, is always a download.
pub fn shown_inline(content_type: &str) -> bool {
    let essence = core_wasm::uploads::essence(content_type);
    matches!(
        essence.as_str(),
        "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "application/pdf"
    ) || essence.starts_with("audio/")
}

async fn download(
    State(state): State<AppState>,
    Path((id, token, file_id)): Path<(String, String, String)>,
    Query(query): Query<DownloadQuery>,
) -> Result<Response, AppError> {
    let mut pooled = state.db.conn().await?;
    let submission = by_link(&mut pooled.db(), &id, &token).await?;
    let file = stored_files::of_submission(&mut pooled.db(), &submission.id)
        .await?
        .into_iter()
        .find(|f| f.id == file_id);
    drop(pooled);
    let file = file.ok_or(AppError::NotFound)?;
    let store = LocalStore::in_data_dir(&state.config.data_dir);
    let bytes = match store.get(&file.key).await {
        Ok(bytes) => bytes,
        Err(StoreError::NotFound) => return Err(AppError::NotFound),
        Err(err) => return Err(AppError::from_store("submission file", err)),
    };
    // A download unless the page asks to show a picture, a PDF or a recording: uploaded HTML
    // or SVG is never rendered in our origin.
    let inline = query.inline.as_deref() == Some("1") && shown_inline(&file.content_type);
    let disposition = if inline {
        content_disposition(&file.filename).replacen("attachment", "inline", 1)
    } else {
        content_disposition(&file.filename)
    };
    let mut response = Body::from(bytes).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&file.content_type) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    if inline {
        if core_wasm::uploads::essence(&file.content_type) == "application/pdf" {
            // The Hub's PDF viewer is a frame of our own page (the browser's viewer refuses a
            // sandboxed PDF); every other answer keeps the app's `DENY`.
            headers.insert(
                header::X_FRAME_OPTIONS,
                HeaderValue::from_static("SAMEORIGIN"),
            );
        } else {
            // A picture or recording opened on its own runs nothing.
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("sandbox"),
            );
        }
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::shown_inline;

    #[test]
    fn only_pictures_pdfs_and_audio_are_shown_in_the_page() {
        for shown in ["image/jpeg", "image/PNG", "application/pdf", "audio/webm;codecs=opus", "audio/wav"] {
            assert!(shown_inline(shown), "{shown}");
        }
        for download in [
            "image/svg+xml",
            "text/html",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "text/plain",
            "",
        ] {
            assert!(!shown_inline(download), "{download}");
        }
    }
}
