//! Structured logs: text for people, JSON for machines; `RUST_LOG` filters.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests) are ignored.
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,diesel=warn"));
    // Logs go to stderr so that a command's own output (seed, user add) stays clean on
    // stdout; colours only when a person is watching.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
