//! `GET /api/ready`: whether a load balancer should send this process requests
//! (docs/operations.md). 503 while the process starts (migrations run), while the database
//! does not answer a cheap `SELECT 1` within a second on readiness's own connection
//! (`db::probe`: a busy pool is still ready), and from SIGTERM on (the drain, while
//! requests already sent still get answers); 200 otherwise. `/api/health` stays liveness.
//!
//! While the process starts ([`gate`]) liveness answers 503 `starting` too (as scripts
//! that wait for a healthy server expect), and every other request waits for the
//! migrations (at most a minute) instead of meeting a schema that is not there yet.

use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use tokio::sync::Notify;

use crate::db::probe::{Probe, ProbeError};
use crate::db::DatabaseUrl;
use crate::state::AppState;

/// Where the process is in its life, as readiness reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Migrations run: not ready.
    Starting,
    /// Serving: ready while the database answers.
    Serving,
    /// SIGTERM came: not ready, still answering what is sent during the drain.
    Draining,
}

/// The process's phase and the database probe, shared by every clone of the state.
pub struct Readiness {
    phase: AtomicU8,
    changed: Notify,
    /// A connection of its own, outside the pool (`db::probe`): a busy pool is still ready.
    probe: Probe,
}

impl Readiness {
    pub fn new(url: DatabaseUrl) -> Readiness {
        Readiness {
            phase: AtomicU8::new(Phase::Serving as u8),
            changed: Notify::new(),
            probe: Probe::new(url),
        }
    }

    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Acquire) {
            0 => Phase::Starting,
            1 => Phase::Serving,
            _ => Phase::Draining,
        }
    }

    pub fn set(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::Release);
        self.changed.notify_waiters();
    }

    /// Waits (at most `limit`) until the process has started; whether it has.
    pub async fn started(&self, limit: Duration) -> bool {
        let wait = async {
            loop {
                let changed = self.changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                if self.phase() != Phase::Starting {
                    return;
                }
                changed.await;
            }
        };
        tokio::time::timeout(limit, wait).await.is_ok()
    }
}

/// How long the database gets to answer `SELECT 1` on the probe's connection.
const WAIT: Duration = Duration::from_secs(1);
/// How long a request sent while the process starts waits for the migrations.
const START_WAIT: Duration = Duration::from_secs(60);

pub async fn ready(State(state): State<AppState>) -> Response {
    let (status, why) = match state.readiness.phase() {
        Phase::Starting => (StatusCode::SERVICE_UNAVAILABLE, "starting"),
        Phase::Draining => (StatusCode::SERVICE_UNAVAILABLE, "draining"),
        Phase::Serving => match state.readiness.probe.ping(WAIT).await {
            Ok(()) => (StatusCode::OK, "ready"),
            Err(ProbeError::Failed(err)) => {
                tracing::warn!(error = %err, "readiness: the database is unreachable");
                (StatusCode::SERVICE_UNAVAILABLE, "database unreachable")
            }
            Err(ProbeError::Slow) => (StatusCode::SERVICE_UNAVAILABLE, "database slow"),
        },
    };
    (status, Json(json!({ "status": why }))).into_response()
}

/// Middleware: while the process starts, liveness answers 503 `starting` and every other
/// request but readiness waits until the migrations are applied.
pub async fn gate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if state.readiness.phase() != Phase::Starting || path == "/api/ready" {
        return next.run(request).await;
    }
    if path == "/api/health" {
        let body = Json(json!({ "status": "starting" }));
        return (StatusCode::SERVICE_UNAVAILABLE, body).into_response();
    }
    if state.readiness.started(START_WAIT).await {
        return next.run(request).await;
    }
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(axum::http::header::RETRY_AFTER, "5")],
        "Voicemark is starting. Try again in a few seconds.",
    )
        .into_response()
}
