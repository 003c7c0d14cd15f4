//! The typed remote-procedure interface at `/api/trpc`, wire-compatible with tRPC v11 and
//! superjson: the transport, the registry, and one file per procedure under `<router>/`.

pub mod context;
pub mod cursor;
pub mod encoded;
pub mod error;
pub mod idempotent;
pub mod input;
pub mod registry;
pub mod shape;
pub mod superjson;
pub mod transport;
pub mod typescript;
pub mod uploads;
pub mod wire;

pub mod account;
pub mod ai;
pub mod assistant;
pub mod comment_bank;
pub mod admin;
pub mod dashboard;
pub mod feedback;
pub mod insights;
pub mod leader;
pub mod microsoft;
pub mod notification;
pub mod organisation;
pub mod preferences;
pub mod report;
pub mod school;
pub mod student;
pub mod submission;
pub mod support;
pub mod system;
pub mod template;
pub mod task_content;
pub mod task;
pub mod upload;
pub mod user;
pub mod voice_note;

use axum::routing::any;
use axum::Router;

use crate::state::AppState;

pub use context::Ctx;
pub use error::{ErrorCode, FieldErrors, RpcError, RpcResult};

/// The routes of `/api/trpc`, merged into the `/api` router: `/trpc` and `/trpc/` (no
/// procedure named) answer in tRPC's envelope too.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/trpc", any(transport::handle_root))
        .route("/trpc/", any(transport::handle_root))
        .route("/trpc/{*path}", any(transport::handle))
}
