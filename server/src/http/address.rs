//! Refuses a request whose address (path or query) carries a NUL character (`%00`) before
//! any route reads it: PostgreSQL cannot store or compare one, so an id, token or key with a
//! NUL would otherwise reach a query and fail there as a 500. tRPC inputs, JSON and form
//! fields are checked by their own layers (`rpc::input`, the auth routes).

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use core_wasm::limits::NUL_MESSAGE;

use crate::error::AppError;

/// `400` with "The address: Must not contain a NUL character." for `%00` in the path or query.
pub async fn refuse_nul(request: Request, next: Next) -> Response {
    if has_nul(request.uri().path()) || request.uri().query().is_some_and(has_nul) {
        return AppError::BadRequest(format!("The address: {NUL_MESSAGE}")).into_response();
    }
    next.run(request).await
}

/// Whether percent-decoding `text` yields a NUL (`%00`, any case of hex digits).
fn has_nul(text: &str) -> bool {
    text.as_bytes().windows(3).any(|w| w == b"%00")
}

#[cfg(test)]
mod tests {
    use super::has_nul;

    #[test]
    fn percent_zero_zero_is_a_nul() {
        assert!(has_nul("/api/submissions/a%00b/t/files"));
        assert!(has_nul("email=a%00@b.c"));
        assert!(!has_nul("/api/uploads/100%25"));
        assert!(!has_nul("/api/trpc/x?input=%7B%7D"));
    }
}
