//! Voicemark's domain core: the rules that the browser and the server must agree on
//! (limits, uploads, filenames, e-mail addresses, languages, passwords, plans, roles, dates).
//!
//! Plain Rust, tested natively with `cargo test`. The server depends on it as a normal
//! crate; the browser loads it as WebAssembly through the thin layer in `bindings.rs`,
//! the only file that knows about wasm.

pub mod comment_bank;
pub mod dates;
pub mod email;
pub mod enums;
pub mod filename;
pub mod languages;
pub mod limits;
#[cfg(feature = "media")]
pub mod media;
pub mod password;
pub mod plan;
pub mod roles;
pub mod uploads;

#[cfg(feature = "diesel")]
mod sql;

#[cfg(target_arch = "wasm32")]
mod bindings;
#[cfg(all(target_arch = "wasm32", feature = "media"))]
mod media_bindings;

pub use enums::{
    FeedbackSentiment, NotificationFrequency, NotificationType, OrgType, QuestionType,
    TemplateVisibility, UserRole,
};

/// The core's version, shown by the app so that a stale wasm bundle is easy to spot.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
