//! `GET /api/privacy/pupils/{id}/export`: everything held about one pupil as one zip, for a
//! subject access request (UK GDPR; the school is the controller). Signed in as an admin of
//! the pupil's school (superadmins pass the role rule); signed out 401, another role 403, a
//! pupil of another school or no pupil 404. The zip holds JSON documents (profile,
//! contacts and e-mail preferences, submissions, feedback, comments, notification receipts,
//! audit entries) and the pupil's handed-in files under `files/{submissionId}/`. A file
//! missing from the store is listed in `missing-files.json` rather than failing the export.
//! Each export is recorded in the audit log (READ, detail `export`). See docs/privacy.md.

use std::collections::HashSet;
use std::io::Write;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use core_wasm::roles::has_role;
use core_wasm::UserRole;
use serde_json::Value;

use crate::auth::session::current_user;
use crate::error::AppError;
use crate::models::audit::{self, AuditAction};
use crate::models::privacy::{self, PupilFile, PupilName, PupilRecords};
use crate::storage::{content_disposition, FileStore, StoreError};
use crate::state::AppState;

/// The routes under `/api/privacy`.
pub fn routes() -> Router<AppState> {
    Router::new().route("/pupils/{id}/export", get(export))
}

/// A name safe as one path segment inside the zip.
fn segment(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c == '/' || c == '\\' || c.is_control() { '_' } else { c })
        .collect();
    let cleaned = cleaned.trim_matches('.').trim();
    if cleaned.is_empty() { "file".to_owned() } else { cleaned.to_owned() }
}

/// The zip's path for a file, unique within the zip.
fn file_path(file: &PupilFile, used: &mut HashSet<String>) -> String {
    let base = format!("files/{}/{}", segment(&file.submission_id), segment(&file.filename));
    let mut path = base.clone();
    let mut n = 2;
    while !used.insert(path.clone()) {
        path = format!("{base} ({n})");
        n += 1;
    }
    path
}

async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let secure = crate::auth::routes::is_secure(&state.config);
    let Some(user) = current_user(&state.db, &headers, secure)
        .await?
        .map(|c| c.user)
        .filter(|u| !u.disabled)
    else {
        return Ok((StatusCode::UNAUTHORIZED, axum::Json(serde_json::json!({"error": "Sign in to export a pupil's data."}))).into_response());
    };
    if !has_role(user.role, &[UserRole::Admin]) {
        return Err(AppError::Forbidden("Only a school admin can export a pupil's data."));
    }
    let Some(school_id) = user.school_id.clone() else {
        return Err(AppError::NotFound);
    };
    let (pupil, records): (PupilName, PupilRecords) = {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let Some(pupil) = privacy::pupil_in_school(&mut conn, &school_id, &id).await? else {
            return Err(AppError::NotFound);
        };
        let records = privacy::records(&mut conn, &pupil.id).await?;
        (pupil, records)
    };

    let bytes = build_zip(&state, &records).await?;

    {
        let mut pooled = state.db.conn().await?;
        audit::record_detail(
            &mut pooled.db(),
            Some(&user.id),
            Some(&school_id),
            AuditAction::Read,
            "student",
            &pupil.id,
            audit::DETAIL_EXPORT,
        )
        .await?;
    }

    let name = format!("{} {} - data export.zip", pupil.forename, pupil.surname);
    let mut response = (StatusCode::OK, bytes).into_response();
    let out = response.headers_mut();
    out.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    if let Ok(value) = HeaderValue::from_str(&content_disposition(&name)) {
        out.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The zip: one JSON file per document, then the files read from the store.
async fn build_zip(state: &AppState, records: &PupilRecords) -> Result<Vec<u8>, AppError> {
    let zip_error = |e: &dyn std::fmt::Display| AppError::Internal(format!("export zip: {e}"));
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut used = HashSet::new();
    let mut missing: Vec<Value> = Vec::new();
    let mut contents: Vec<(String, Vec<u8>)> = Vec::new();
    for file in &records.files {
        match state.storage.get(&file.key).await {
            Ok(bytes) => contents.push((file_path(file, &mut used), bytes)),
            Err(StoreError::NotFound) | Err(StoreError::InvalidKey) => {
                missing.push(serde_json::json!({"submissionId": file.submission_id, "filename": file.filename}));
            }
            Err(err) => return Err(AppError::from_store("privacy export", err)),
        }
    }
    for (name, document) in &records.documents {
        zip.start_file(*name, options).map_err(|e| zip_error(&e))?;
        let text = serde_json::to_vec_pretty(document).map_err(|e| zip_error(&e))?;
        zip.write_all(&text).map_err(|e| zip_error(&e))?;
    }
    if !missing.is_empty() {
        zip.start_file("missing-files.json", options).map_err(|e| zip_error(&e))?;
        let text = serde_json::to_vec_pretty(&missing).map_err(|e| zip_error(&e))?;
        zip.write_all(&text).map_err(|e| zip_error(&e))?;
    }
    for (path, bytes) in contents {
        zip.start_file(path, options).map_err(|e| zip_error(&e))?;
        zip.write_all(&bytes).map_err(|e| zip_error(&e))?;
    }
    Ok(zip.finish().map_err(|e| zip_error(&e))?.into_inner())
}
