//! `PUT /api/upload-parts/{upload id}/{part number}?expires=...&sig=...`: one part of an
//! upload in parts on the local store (an S3 store hands out the bucket's own presigned
//! part URLs instead; docs/storage.md, "Uploads in parts").
//!
//! The signature binds the upload, the part's number, its exact length and the declared
//! type. The part must carry that type (415) and exactly that length: more stop it at once
//! with 413 and the core's message, fewer give 400; a refused part keeps nothing. Success
//! is `200 {"partNumber", "etag", "size"}` (the bytes kept) with the part's ETag in the `ETag` header (what S3
//! answers, and what completion needs). A part sent again replaces the earlier one.

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::put;
use axum::{Json, Router};
use chrono::Utc;
use core_wasm::limits::UPLOAD_TOO_LARGE_MESSAGE;
use futures_util::{StreamExt, TryStreamExt};
use serde::Deserialize;

use crate::error::AppError;
use crate::http::uploads::{EXPIRED_LINK, INCOMPLETE, INVALID_LINK, WRONG_TYPE};
use crate::models::multipart_uploads;
use crate::state::AppState;
use crate::storage::multipart::part_length;
use crate::storage::signed_url::{same_signature, PartTerms};
use crate::storage::{Storage, StoreError};

/// The routes under `/api/upload-parts`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/{upload_id}/{part_number}", put(upload_part))
}

#[derive(Debug, Deserialize)]
struct Signed {
    expires: Option<i64>,
    sig: Option<String>,
}

async fn upload_part(
    State(state): State<AppState>,
    Path((upload_id, part_number)): Path<(String, u32)>,
    Query(query): Query<Signed>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, AppError> {
    let (Some(expires), Some(sig)) = (query.expires, query.sig) else {
        return Err(AppError::Forbidden(INVALID_LINK));
    };
    let Storage::Local { store, signer } = &*state.storage else {
        return Err(AppError::NotFound);
    };
    let found = {
        let mut pooled = state.db.conn().await?;
        multipart_uploads::find_by_store_id(&mut pooled.db(), &upload_id).await?
    };
    // An upload completed, aborted or never made: the same answer as a bad signature.
    let Some((upload, file)) = found else {
        return Err(AppError::Forbidden(INVALID_LINK));
    };
    let declared = file.size_bytes.unwrap_or(0).max(0) as u64;
    let Some(length) = part_length(declared, upload.part_size.max(1) as u64, part_number) else {
        return Err(AppError::Forbidden(INVALID_LINK));
    };
    let expected = signer.part_signature(&PartTerms {
        upload_id: &upload_id,
        part_number,
        expires,
        content_type: &file.content_type,
        length,
    });
    if !same_signature(&expected, &sig) {
        return Err(AppError::Forbidden(INVALID_LINK));
    }
    if expires < Utc::now().timestamp() {
        return Err(AppError::Forbidden(EXPIRED_LINK));
    }
    let sent_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::trim);
    if !sent_type.is_some_and(|t| t.eq_ignore_ascii_case(&file.content_type)) {
        return Err(AppError::UnsupportedType(WRONG_TYPE));
    }
    let sent_length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if sent_length.is_some_and(|sent| sent > length) {
        return Err(AppError::TooLarge(UPLOAD_TOO_LARGE_MESSAGE));
    }
    let stream = body
        .into_data_stream()
        .map_err(std::io::Error::other)
        .boxed();
    let etag = match store
        .put_part(&upload_id, part_number, stream, length)
        .await
    {
        Ok(etag) => etag,
        Err(StoreError::TooLarge { .. }) => {
            return Err(AppError::TooLarge(UPLOAD_TOO_LARGE_MESSAGE))
        }
        Err(StoreError::Body(err)) => {
            tracing::warn!(%err, "upload part did not arrive whole");
            return Err(AppError::BadRequest(INCOMPLETE.into()));
        }
        Err(StoreError::NotFound) => return Err(AppError::Forbidden(INVALID_LINK)),
        Err(err) => return Err(AppError::from_store("upload part", err)),
    };
    let mut response = (
        StatusCode::OK,
        Json(serde_json::json!({ "partNumber": part_number, "etag": etag, "size": length })),
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        response.headers_mut().insert(header::ETAG, value);
    }
    Ok(response)
}
