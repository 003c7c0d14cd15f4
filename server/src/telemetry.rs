//! Structured logs: text for people, JSON for machines; `RUST_LOG` filters.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests) are ignored.
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,diesel=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    let _ = if json { builder.json().try_init() } else { builder.try_init() };
}
