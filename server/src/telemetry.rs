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

/// `text` safe to put in a log line as a `%` (Display) field: control characters (C0 such
/// as newline, CR and the ANSI escape, DEL, C1) and the Unicode line and paragraph
/// separators become visible escapes (`\n`, `\u{1b}`), so a client string can neither start
/// a forged line nor recolour the terminal. Other text is kept as it is.
pub fn escape_log(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_log;

    #[test]
    fn control_characters_cannot_forge_a_line() {
        let escaped = escape_log("a\nforged line\r\u{1b}[31mred\u{85}\u{2028}end\ttab");
        assert!(!escaped.contains(['\n', '\r', '\u{1b}', '\u{85}', '\u{2028}', '\t']));
        assert_eq!(
            escaped,
            "a\\nforged line\\r\\u{1b}[31mred\\u{85}\\u{2028}end\\ttab"
        );
        assert_eq!(escape_log("plain text, é ü"), "plain text, é ü");
    }
}
