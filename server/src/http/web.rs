//! The web app, embedded in the binary: built files from `app/dist`, static files from
//! `public/`, and `index.html` for every other page path so that deep links load the app.

use axum::body::Body;
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

use crate::error::AppError;

/// The app built by Vite. Missing in a build made before the app (tests of the API need not build it).
#[derive(RustEmbed)]
#[folder = "../app/dist"]
#[allow_missing = true]
struct AppDist;

/// Static assets served as they are (logo, icons, manifest).
#[derive(RustEmbed)]
#[folder = "../public"]
#[allow_missing = true]
struct Public;

pub async fn serve_web(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return AppError::NotFound.into_response();
    }
    let path = uri.path().trim_start_matches('/');
    // Whatever the API router did not match (`/api`, `/api/`) is an API 404, never the app.
    if path == "api" || path.starts_with("api/") {
        return AppError::NotFound.into_response();
    }
    if !path.is_empty() {
        if let Some(file) = AppDist::get(path).or_else(|| Public::get(path)) {
            return file_response(path, file);
        }
        // A missing file (a path with an extension) is a 404, not the app: a stale
        // bundle must fail loudly rather than load HTML as a script.
        if path
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains('.'))
        {
            return AppError::NotFound.into_response();
        }
    }
    match AppDist::get("index.html") {
        Some(index) => file_response("index.html", index),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The web app is not built into this binary. Run the README's run command.",
        )
            .into_response(),
    }
}

/// The Content-Security-Policy sources (`'sha256-…'`) of the app's inline scripts, as the
/// build listed them in `inline-scripts.json` (the first frame's script, docs/performance.md
/// "The first frame"). None when the app is not built in; anything but a hash source is
/// left out, so a damaged file can only turn the inline script off.
pub fn inline_script_hashes() -> Vec<String> {
    AppDist::get("inline-scripts.json")
        .and_then(|file| serde_json::from_slice::<Vec<String>>(&file.data).ok())
        .unwrap_or_default()
        .into_iter()
        .filter(|source| is_hash_source(source))
        .collect()
}

/// `'sha256-<base64 of 32 bytes>'`.
fn is_hash_source(source: &str) -> bool {
    source
        .strip_prefix("'sha256-")
        .and_then(|rest| rest.strip_suffix('\''))
        .is_some_and(|b64| {
            b64.len() == 44
                && b64
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
        })
}

fn file_response(path: &str, file: rust_embed::EmbeddedFile) -> Response {
    let mime = file.metadata.mimetype();
    // Vite names files under assets/ by content hash, so they never change.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = Response::new(Body::from(file.data.into_owned()));
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(mime) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

#[cfg(test)]
mod tests {
    use super::is_hash_source;

    #[test]
    fn only_sha256_sources_are_taken() {
        assert!(is_hash_source("'sha256-HrZ4sdXQxKgTSihkjA6NUB3h4nSMva8/usEwdfSN7b8='"));
        assert!(!is_hash_source("'unsafe-inline'"));
        assert!(!is_hash_source("'sha256-abc'"));
        assert!(!is_hash_source("'sha256-HrZ4sdXQxKgTSihkjA6NUB3h4nSMva8/usEwdfSN7b8=' https://evil.example"));
        assert!(!is_hash_source("'sha256-HrZ4sdXQxKgTSihkjA6NUB3h4nSMva8/usEwdf;N7b8='"));
    }
}
