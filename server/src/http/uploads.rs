//! `/api/uploads/{key}?expires=...&sig=...`: the local store's signed URLs (an S3 store
//! hands out the bucket's own presigned URLs instead).
//!
//! `PUT` receives a direct upload: the signature must match the upload's row (method, key,
//! expiry, declared type, disposition and size; see `storage::signed_url`) and the link
//! must not have expired (403 otherwise). The body must carry the declared content type
//! (415) and exactly the declared size, or, when no size was declared, at most 50 MB: more
//! bytes stop the upload at once with 413 and the core's message, fewer (or none) give
//! 400; a refused upload keeps nothing. Then the row is marked uploaded with its size. `GET` serves an uploaded file with its stored type and disposition.

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::put;
use axum::{Json, Router};
use chrono::Utc;
use core_wasm::limits::{MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE_MESSAGE};
use core_wasm::uploads::arrived_whole;
use futures_util::{StreamExt, TryStreamExt};
use serde::Deserialize;

use crate::error::AppError;
use crate::models::{now, stored_files};
use crate::state::AppState;
use crate::storage::signed_url::{same_signature, GetTerms, PutTerms};
use crate::storage::{content_disposition, is_valid_key, FileStore, Storage, StoreError};

/// The link was not made by us (or its terms were changed).
pub const INVALID_LINK: &str = "This upload link is invalid.";
/// The link's time is up.
pub const EXPIRED_LINK: &str = "This upload link has expired. Start the upload again.";
/// The body is not of the type the upload declared.
pub const WRONG_TYPE: &str = "The file's type does not match the upload that was started.";
/// Fewer bytes arrived than declared.
pub const INCOMPLETE: &str = "The upload did not arrive whole.";
/// A download link's time is up.
pub const DOWNLOAD_EXPIRED: &str = "This link has expired.";
/// The file was already sent once.
pub const ALREADY_UPLOADED: &str = "This file has already been uploaded.";

/// The routes under `/api/uploads`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/{*key}", put(upload).get(download))
}

#[derive(Debug, Deserialize)]
struct Signed {
    expires: Option<i64>,
    sig: Option<String>,
}

/// The row behind a well-formed signed link to `key` on the local store, with the link's
/// expiry and signature; or the refusal.
async fn lookup(
    state: &AppState,
    key: &str,
    query: Signed,
) -> Result<(stored_files::StoredFile, i64, String), AppError> {
    let (Some(expires), Some(sig)) = (query.expires, query.sig) else {
        return Err(AppError::Forbidden(INVALID_LINK));
    };
    if !is_valid_key(key) || !matches!(*state.storage, Storage::Local { .. }) {
        return Err(AppError::NotFound);
    }
    let mut pooled = state.db.conn().await?;
    match stored_files::find_by_key(&mut pooled.db(), key).await {
        Ok(Some(file)) => Ok((file, expires, sig)),
        // Same answer as a bad signature: a link to nothing tells nothing.
        Ok(None) => Err(AppError::Forbidden(INVALID_LINK)),
        Err(err) => Err(AppError::from(err)),
    }
}

async fn upload(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(query): Query<Signed>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, AppError> {
    let (file, expires, sig) = lookup(&state, &key, query).await?;
    let Some(signer) = state.storage.local_signer() else {
        return Err(AppError::NotFound);
    };
    // Without a declared size the link was signed for any size up to the limit.
    let declared = file.size_bytes.map(|size| size.max(0) as u64);
    let disposition = content_disposition(&file.filename);
    let expected = signer.put_signature(&PutTerms {
        key: &file.key,
        expires,
        content_type: &file.content_type,
        content_disposition: &disposition,
        size: declared,
    });
    if !same_signature(&expected, &sig) {
        return Err(AppError::Forbidden(INVALID_LINK));
    }
    if expires < Utc::now().timestamp() {
        return Err(AppError::Forbidden(EXPIRED_LINK));
    }
    if file.uploaded_at.is_some() {
        return Err(AppError::Conflict(ALREADY_UPLOADED));
    }
    let sent_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    if !sent_type.is_some_and(|t| t.eq_ignore_ascii_case(&file.content_type)) {
        return Err(AppError::UnsupportedType(WRONG_TYPE));
    }
    // S3 refuses a disposition other than the signed one; so do we (when one is sent).
    if headers
        .get(header::CONTENT_DISPOSITION)
        .is_some_and(|v| v.to_str().ok() != Some(disposition.as_str()))
    {
        return Err(AppError::Forbidden(INVALID_LINK));
    }
    let limit = declared.unwrap_or(MAX_UPLOAD_BYTES).min(MAX_UPLOAD_BYTES);
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if length.is_some_and(|length| length > limit) {
        return Err(AppError::TooLarge(UPLOAD_TOO_LARGE_MESSAGE));
    }

    let stream = body
        .into_data_stream()
        .map_err(std::io::Error::other)
        .boxed();
    let written = match state.storage.put(&file.key, stream, limit).await {
        Ok(written) => written,
        Err(StoreError::TooLarge { .. }) => {
            return Err(AppError::TooLarge(UPLOAD_TOO_LARGE_MESSAGE))
        }
        Err(StoreError::Body(err)) => {
            tracing::warn!(%err, "direct upload did not arrive whole");
            return Err(AppError::BadRequest(INCOMPLETE.into()));
        }
        // A store that cannot write (full, read-only) is the server's fault: 503, not 400.
        Err(err) => return Err(AppError::from_store("direct upload", err)),
    };
    if !arrived_whole(written, declared) {
        let _ = state.storage.delete(&file.key).await;
        return Err(AppError::BadRequest(INCOMPLETE.into()));
    }
    let marked = async {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let fresh = stored_files::mark_uploaded(&mut conn, &file.id, written, now()).await?;
        // A task's file: its text can be read now.
        crate::jobs::task_process::on_arrival(&mut conn, &file.id).await?;
        Ok::<_, crate::db::DbError>(fresh)
    }
    .await;
    match marked {
        Ok(_) => Ok((
            StatusCode::OK,
            Json(serde_json::json!({ "key": file.key, "size": written })),
        )
            .into_response()),
        Err(err) => {
            let _ = state.storage.delete(&file.key).await;
            Err(AppError::from(err))
        }
    }
}

/// The byte range `bytes=a-b`, `bytes=a-` or `bytes=-n` of a `len`-byte file, as
/// (first, last) inclusive; `None` for anything else (then the whole file is served).
/// Safari plays audio only from a server that answers ranges.
fn byte_range(header: Option<&str>, len: u64) -> Option<Result<(u64, u64), ()>> {
    let spec = header?.trim().strip_prefix("bytes=")?;
    if spec.contains(',') || len == 0 {
        return None;
    }
    let (start, end) = spec.split_once('-')?;
    let (start, end) = (start.trim(), end.trim());
    let range = if start.is_empty() {
        let n: u64 = end.parse().ok()?;
        (len.saturating_sub(n), len - 1)
    } else {
        let first: u64 = start.parse().ok()?;
        let last = if end.is_empty() {
            len - 1
        } else {
            end.parse::<u64>().ok()?.min(len - 1)
        };
        (first, last)
    };
    Some(if range.0 <= range.1 && range.0 < len {
        Ok(range)
    } else {
        Err(())
    })
}

async fn download(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(query): Query<Signed>,
    request_headers: HeaderMap,
) -> Result<Response, AppError> {
    let (file, expires, sig) = lookup(&state, &key, query).await?;
    let Some(signer) = state.storage.local_signer() else {
        return Err(AppError::NotFound);
    };
    let disposition = content_disposition(&file.filename);
    let expected = signer.get_signature(&GetTerms {
        key: &file.key,
        expires,
        content_type: &file.content_type,
        content_disposition: &disposition,
    });
    if !same_signature(&expected, &sig) {
        return Err(AppError::Forbidden(INVALID_LINK));
    }
    if expires < Utc::now().timestamp() {
        return Err(AppError::Forbidden(DOWNLOAD_EXPIRED));
    }
    let bytes = match state.storage.get(&file.key).await {
        Ok(bytes) => bytes,
        Err(StoreError::NotFound) => return Err(AppError::NotFound),
        Err(err) => return Err(AppError::from_store("direct download", err)),
    };
    let len = bytes.len() as u64;
    let range = byte_range(
        request_headers
            .get(header::RANGE)
            .and_then(|v| v.to_str().ok()),
        len,
    );
    let mut response = match range {
        Some(Ok((first, last))) => {
            let part = bytes[first as usize..=last as usize].to_vec();
            let mut response = (StatusCode::PARTIAL_CONTENT, Body::from(part)).into_response();
            if let Ok(value) = HeaderValue::from_str(&format!("bytes {first}-{last}/{len}")) {
                response.headers_mut().insert(header::CONTENT_RANGE, value);
            }
            response
        }
        Some(Err(())) => {
            let mut response = StatusCode::RANGE_NOT_SATISFIABLE.into_response();
            if let Ok(value) = HeaderValue::from_str(&format!("bytes */{len}")) {
                response.headers_mut().insert(header::CONTENT_RANGE, value);
            }
            return Ok(response);
        }
        None => Body::from(bytes).into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if let Ok(value) = HeaderValue::from_str(&file.content_type) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=300"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_as_media_players_send_them() {
        assert_eq!(byte_range(Some("bytes=0-"), 10), Some(Ok((0, 9))));
        assert_eq!(byte_range(Some("bytes=2-4"), 10), Some(Ok((2, 4))));
        assert_eq!(byte_range(Some("bytes=8-100"), 10), Some(Ok((8, 9))));
        assert_eq!(byte_range(Some("bytes=-3"), 10), Some(Ok((7, 9))));
        assert_eq!(byte_range(Some("bytes=10-"), 10), Some(Err(())));
        assert_eq!(byte_range(Some("bytes=0-1,4-5"), 10), None);
        assert_eq!(byte_range(Some("items=0-1"), 10), None);
        assert_eq!(byte_range(None, 10), None);
    }
}
