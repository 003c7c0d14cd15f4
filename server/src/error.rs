//! The HTTP error type: a status and a message safe to show. Internals are logged, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::db::fault::{self, Fault};
use crate::db::DbError;
use crate::storage::StoreError;

/// An error answered as JSON `{"error": message}`. The variants with a message carry the
/// sentence the user reads (the spec's or the core's text where there is one).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("Not found")]
    NotFound,
    /// 404 with its own sentence (e.g. a wrong or revoked public link).
    #[error("{0}")]
    NotFoundWith(&'static str),
    #[error("{0}")]
    BadRequest(String),
    /// 403: a link that is not ours, changed, or expired.
    #[error("{0}")]
    Forbidden(&'static str),
    /// 409: the thing is no longer in a state that allows the request.
    #[error("{0}")]
    Conflict(&'static str),
    /// 413: over the upload limit.
    #[error("{0}")]
    TooLarge(&'static str),
    /// 415: a file type that is not accepted here.
    #[error("{0}")]
    UnsupportedType(&'static str),
    #[error("The service is temporarily unavailable")]
    Unavailable,
    /// 503 with the reason the user reads (a full or read-only disk, a dropped database
    /// connection, a timeout); the cause goes to the log only.
    #[error("{reason}")]
    Fault {
        reason: &'static str,
        detail: String,
    },
    /// Something broke inside; the detail goes to the log only.
    #[error("Internal server error")]
    Internal(String),
}

impl From<DbError> for AppError {
    fn from(err: DbError) -> Self {
        match err {
            DbError::Query(err) => AppError::from(err),
            DbError::Pool(detail) => AppError::Fault {
                reason: fault::UNAVAILABLE,
                detail,
            },
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(err: diesel::result::Error) -> Self {
        let fault = Fault::of(&err);
        match fault.unavailable_message() {
            Some(reason) => AppError::Fault {
                reason,
                detail: err.to_string(),
            },
            None if fault == Fault::Duplicate => AppError::Conflict(fault::DUPLICATE),
            None => AppError::Internal(err.to_string()),
        }
    }
}

impl AppError {
    /// A store that failed while writing or reading: a full or read-only disk (or a
    /// folder the server may not write) is 503 with its reason; anything else is 500.
    /// `context` names the caller in the log. Refusals of the request itself (too large,
    /// a body that did not arrive whole) are the caller's to answer before this.
    pub fn from_store(context: &str, err: StoreError) -> AppError {
        let reason = match &err {
            StoreError::Io(io) => Fault::of_io(io).unavailable_message(),
            _ => None,
        };
        match reason {
            Some(reason) => AppError::Fault {
                reason,
                detail: format!("{context}: {err}"),
            },
            None => AppError::Internal(format!("{context}: {err}")),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = match &self {
            AppError::NotFound | AppError::NotFoundWith(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Fault { detail, .. } => {
                tracing::error!(%detail, "service fault");
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        (
            status,
            Json(serde_json::json!({ "error": self.to_string() })),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn refusals_keep_their_status_and_sentence() {
        let cases = [
            (
                AppError::NotFoundWith("Gone away."),
                StatusCode::NOT_FOUND,
                "Gone away.",
            ),
            (AppError::Forbidden("No."), StatusCode::FORBIDDEN, "No."),
            (
                AppError::Conflict("Marked."),
                StatusCode::CONFLICT,
                "Marked.",
            ),
            (
                AppError::TooLarge("Big."),
                StatusCode::PAYLOAD_TOO_LARGE,
                "Big.",
            ),
            (
                AppError::UnsupportedType("Odd."),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Odd.",
            ),
            (
                AppError::Internal("secret detail".into()),
                StatusCode::INTERNAL_SERVER_ERROR,
                "Internal server error",
            ),
        ];
        for (error, status, text) in cases {
            let response = error.into_response();
            assert_eq!(response.status(), status);
            let body = axum::body::to_bytes(response.into_body(), 1024)
                .await
                .expect("body");
            let json: serde_json::Value = serde_json::from_slice(&body).expect("json");
            assert_eq!(json, serde_json::json!({ "error": text }));
        }
    }
}
