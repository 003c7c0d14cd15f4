//! `GET /api/health`: 200 when the database answers and takes a write and the local file
//! folder can be written; 503 with a reason when not.
//!
//! The database check is a real write (the one row of `health_checks`), because a full
//! disk or a read-only file still answers `SELECT 1`. The file check creates and removes a
//! probe file in `{data_dir}/files`, the local store (submission files live there even
//! when uploads go to a bucket).

use std::path::Path;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

use crate::db::fault::Fault;
use crate::db::DbError;
use crate::state::AppState;

/// The health report.
#[derive(Debug, Serialize)]
pub struct Health {
    pub status: &'static str,
    /// `ok`, `down`, `full`, `read-only` or `cannot write`.
    pub database: &'static str,
    /// The local file folder: `ok`, `full`, `read-only` or `cannot write`.
    pub storage: &'static str,
    pub backend: &'static str,
    pub version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

const WAIT: Duration = Duration::from_secs(3);

pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let backend = state.db.backend().as_str();
    let version = env!("CARGO_PKG_VERSION");
    let database = check_database(&state).await;
    let storage = check_storage(&state.config.data_dir.join("files")).await;
    let reason = database.1.clone().or_else(|| storage.1.clone());
    let status = if reason.is_none() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(Health {
            status: if reason.is_none() {
                "ok"
            } else {
                "unavailable"
            },
            database: database.0,
            storage: storage.0,
            backend,
            version,
            reason,
        }),
    )
}

/// (state, reason when not ok) of the database: it answers, then it takes a write.
async fn check_database(state: &AppState) -> (&'static str, Option<String>) {
    match tokio::time::timeout(WAIT, state.db.ping()).await {
        Err(_) => {
            return (
                "down",
                Some("The database did not answer within 3 seconds.".into()),
            )
        }
        Ok(Err(err)) => {
            tracing::warn!(error = %err, "health check failed");
            return ("down", Some("The database is unreachable.".into()));
        }
        Ok(Ok(())) => {}
    }
    match tokio::time::timeout(WAIT, state.db.probe_write()).await {
        Err(_) => (
            "cannot write",
            Some("The database did not accept a write within 3 seconds.".into()),
        ),
        Ok(Err(err)) => {
            tracing::warn!(error = %err, "health check: the database refused a write");
            let fault = match &err {
                DbError::Query(query) => Fault::of(query),
                _ => Fault::Unavailable,
            };
            let (state, reason) = match fault {
                Fault::DiskFull => ("full", "The database cannot write: its disk is full."),
                Fault::ReadOnly => ("read-only", "The database is read-only."),
                _ => ("cannot write", "The database refused a write."),
            };
            (state, Some(reason.into()))
        }
        Ok(Ok(())) => ("ok", None),
    }
}

/// (state, reason when not ok) of the local file folder: a probe file is made and removed.
async fn check_storage(folder: &Path) -> (&'static str, Option<String>) {
    let probe = folder.join(format!(".health-{}", crate::ids::new_id()));
    let written = async {
        tokio::fs::create_dir_all(folder).await?;
        tokio::fs::write(&probe, b"ok").await?;
        tokio::fs::remove_file(&probe).await
    };
    match tokio::time::timeout(WAIT, written).await {
        Ok(Ok(())) => ("ok", None),
        Err(_) => (
            "cannot write",
            Some("The file folder did not accept a write within 3 seconds.".into()),
        ),
        Ok(Err(err)) => {
            tracing::warn!(error = %err, folder = %folder.display(), "health check: the file folder refused a write");
            let _ = tokio::fs::remove_file(&probe).await;
            let (state, reason) = match Fault::of_io(&err) {
                Fault::DiskFull => (
                    "full",
                    "The file folder cannot be written: its disk is full.",
                ),
                Fault::ReadOnly => ("read-only", "The file folder is read-only."),
                _ => ("cannot write", "The file folder cannot be written."),
            };
            (state, Some(reason.into()))
        }
    }
}
