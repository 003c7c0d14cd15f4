//! `POST /api/auth/_log`: the browser logger's beacon. It changes nothing, so it needs no
//! CSRF token (`sendBeacon` sends none); fields are logged cut short and with control
//! characters escaped (`crate::telemetry::escape_log`), so a newline cannot forge a line.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};

use super::AuthForm;
use crate::telemetry::escape_log;

pub async fn client_log(headers: HeaderMap, body: Bytes) -> StatusCode {
    let form = AuthForm::parse(&headers, &body);
    let field = |name: &str| {
        let cut: String = form.get(name).unwrap_or("").chars().take(500).collect();
        escape_log(&cut).into_owned()
    };
    tracing::warn!(level = %field("level"), code = %field("code"), message = %field("message"), "auth client log");
    StatusCode::OK
}
