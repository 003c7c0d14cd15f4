//! `GET /api/health`: 200 when the database answers, 503 with a reason when it does not.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

use crate::state::AppState;

/// The health report.
#[derive(Debug, Serialize)]
pub struct Health {
    pub status: &'static str,
    pub database: &'static str,
    pub backend: &'static str,
    pub version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let backend = state.db.backend().as_str();
    let version = env!("CARGO_PKG_VERSION");
    match tokio::time::timeout(Duration::from_secs(3), state.db.ping()).await {
        Ok(Ok(())) => (
            StatusCode::OK,
            Json(Health {
                status: "ok",
                database: "ok",
                backend,
                version,
                reason: None,
            }),
        ),
        outcome => {
            let reason = match outcome {
                Err(_) => "The database did not answer within 3 seconds.".to_owned(),
                Ok(Err(err)) => {
                    tracing::warn!(error = %err, "health check failed");
                    "The database is unreachable.".to_owned()
                }
                Ok(Ok(())) => unreachable!("handled above"),
            };
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Health {
                    status: "unavailable",
                    database: "down",
                    backend,
                    version,
                    reason: Some(reason),
                }),
            )
        }
    }
}
