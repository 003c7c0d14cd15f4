//! Refuses a request whose address (path or query) carries a NUL character (`%00`) before
//! any route reads it: PostgreSQL cannot store or compare one, so an id, token or key with a
//! NUL would otherwise reach a query and fail there as a 500. tRPC inputs, JSON and form
//! fields are checked by their own layers (`rpc::input`, the auth routes).

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use core_wasm::limits::NUL_MESSAGE;

use crate::error::AppError;

/// `400` with "The address: Must not contain a NUL character." for `%00` in the path or query;
/// under `/api/trpc` in tRPC's error envelope (BAD_REQUEST), which its client can read.
pub async fn refuse_nul(request: Request, next: Next) -> Response {
    if has_nul(request.uri().path()) || request.uri().query().is_some_and(has_nul) {
        let message = format!("The address: {NUL_MESSAGE}");
        if is_trpc(request.uri().path()) {
            let err = crate::rpc::RpcError::bad_request(message);
            return crate::rpc::transport::refuse_request(request, &err).await;
        }
        return AppError::BadRequest(message).into_response();
    }
    next.run(request).await
}

/// Whether `path` is tRPC's: `/api/trpc`, or anything under `/api/trpc/` (this layer sits on
/// the `/api` router, which may see its paths with or without the `/api` prefix).
fn is_trpc(path: &str) -> bool {
    let path = path.strip_prefix("/api").unwrap_or(path);
    path == "/trpc" || path.starts_with("/trpc/")
}

/// Whether percent-decoding `text` yields a NUL (`%00`, any case of hex digits).
fn has_nul(text: &str) -> bool {
    text.as_bytes().windows(3).any(|w| w == b"%00")
}

#[cfg(test)]
mod tests {
    use super::has_nul;

    #[test]
    fn trpc_addresses_are_known_with_or_without_the_api_prefix() {
        assert!(super::is_trpc("/api/trpc/task.list%00"));
        assert!(super::is_trpc("/trpc/task.list%00"));
        assert!(super::is_trpc("/api/trpc"));
        assert!(!super::is_trpc("/api/trpcx"));
        assert!(!super::is_trpc("/api/submissions/a%00b"));
    }

    #[test]
    fn percent_zero_zero_is_a_nul() {
        assert!(has_nul("/api/submissions/a%00b/t/files"));
        assert!(has_nul("email=a%00@b.c"));
        assert!(!has_nul("/api/uploads/100%25"));
        assert!(!has_nul("/api/trpc/x?input=%7B%7D"));
    }
}
