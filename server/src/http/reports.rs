//! `/api/reports`: the report generator's two plain-HTTP routes (docs/leaders.md, "Report
//! generator"). Both take the session cookie like tRPC; the report procedures themselves
//! (`report.*`) are in `rpc/report/`.
//!
//! * `POST /api/reports/generate` — `{taskIds, voiceNoteIds, instructions, title}` in,
//!   `text/event-stream` out: `progress` `{step, of, label}`, `text` `{delta}`, then
//!   `done` `{}` or `error` `{message}`. Refusals before the stream starts (signed out,
//!   cross-site, bad input, a task not found, the model not set up) are plain JSON
//!   `{error, fieldErrors?}` with their status.
//! * `GET /api/reports/{id}/download?format=docx|pdf` — the caller's own report as a Word
//!   document or a PDF, `Content-Disposition: attachment` named after its title.

mod docx;
mod generate;
pub(crate) mod markdown;
pub(crate) mod pdf;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::auth::session::{current_user, SessionUser};
use crate::models::reports::{self, Author};
use crate::state::AppState;
use crate::storage::content_disposition;

pub use generate::{GENERATION_BUDGET_CHARS, NOT_CONFIGURED};

/// The routes under `/api/reports`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/generate", post(generate::generate))
        .route("/{id}/download", get(download))
}

/// A refusal before any work: `{error, fieldErrors?}` with `status`.
pub(crate) fn refusal(
    status: StatusCode,
    message: &str,
    fields: Option<serde_json::Value>,
) -> Response {
    let mut body = serde_json::json!({ "error": message });
    if let Some(fields) = fields {
        body["fieldErrors"] = fields;
    }
    (status, Json(body)).into_response()
}

/// The signed-in caller with a school, or the refusal to answer.
pub(crate) async fn caller(state: &AppState, headers: &HeaderMap) -> Result<SessionUser, Response> {
    let secure = crate::auth::routes::is_secure(&state.config);
    let found = current_user(&state.db, headers, secure)
        .await
        .map_err(|err| crate::error::AppError::from(err).into_response())?;
    match found {
        Some(session) if !session.user.disabled && session.user.school_id.is_some() => Ok(session),
        Some(session) if !session.user.disabled => Err(refusal(
            StatusCode::FORBIDDEN,
            crate::rpc::context::no_school_message(session.user.role),
            None,
        )),
        _ => Err(refusal(
            StatusCode::UNAUTHORIZED,
            "Please sign in again.",
            None,
        )),
    }
}

pub(crate) fn author_of(session: &SessionUser) -> Author<'_> {
    Author {
        school_id: session.user.school_id.as_deref().unwrap_or_default(),
        user_id: &session.user.id,
    }
}

#[derive(Debug, Deserialize)]
struct DownloadQuery {
    #[serde(default)]
    format: Option<String>,
}

async fn download(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<DownloadQuery>,
    headers: HeaderMap,
) -> Response {
    let session = match caller(&state, &headers).await {
        Ok(session) => session,
        Err(refused) => return refused,
    };
    let format = query.format.as_deref().unwrap_or("docx");
    if !matches!(format, "docx" | "pdf") {
        return refusal(
            StatusCode::BAD_REQUEST,
            "Choose a format: docx or pdf.",
            None,
        );
    }
    let found = match state.db.conn().await {
        Ok(mut pooled) => reports::find(&mut pooled.db(), author_of(&session), &id).await,
        Err(err) => return crate::error::AppError::from(err).into_response(),
    };
    let report = match found {
        Ok(Some(report)) => report,
        Ok(None) => return refusal(StatusCode::NOT_FOUND, "Report not found.", None),
        Err(err) => return crate::error::AppError::from(err).into_response(),
    };
    let blocks = markdown::blocks(&report.body);
    let (bytes, content_type, extension) = if format == "pdf" {
        (
            pdf::render(&report.title, &blocks),
            "application/pdf",
            "pdf",
        )
    } else {
        match docx::render(&report.title, &blocks) {
            Ok(bytes) => (
                bytes,
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                "docx",
            ),
            Err(detail) => return crate::error::AppError::Internal(detail).into_response(),
        }
    };
    let name = report.title.trim();
    let name = if name.is_empty() { "Report" } else { name };
    let disposition = content_disposition(&format!("{name}.{extension}"));
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}
