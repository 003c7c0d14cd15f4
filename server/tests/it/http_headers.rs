//! Transport-level defences (issue 10, finding 10): the Content-Security-Policy on every
//! answer, HSTS under https, `no-store` on API answers, tRPC's envelope at `/api/trpc`, and
//! refusals that keep a kept-alive connection usable.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::dual_test;

dual_test!(
    async fn every_answer_carries_the_policy_and_api_answers_are_not_stored(app: TestApp) {
        for path in ["/", "/login", "/api/health", "/api/trpc/system.time"] {
            let response = app.get(path).await;
            let policy = response
                .header("content-security-policy")
                .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"));
            assert!(policy.contains("default-src 'self'"), "{path}: {policy}");
            assert!(
                policy.contains("script-src 'self' 'wasm-unsafe-eval'"),
                "{path}: {policy}"
            );
            assert!(!policy.contains("'unsafe-eval'"), "{path}: {policy}");
            assert!(
                policy.contains("frame-ancestors 'none'"),
                "{path}: {policy}"
            );
            // Plain http: browsers ignore HSTS there, and it is not sent.
            assert_eq!(response.header("strict-transport-security"), None, "{path}");
        }
        for path in ["/api/health", "/api/trpc/system.time", "/api/auth/session"] {
            let response = app.get(path).await;
            let cache = response.header("cache-control").unwrap_or_default();
            assert!(cache.contains("no-store"), "{path}: {cache}");
        }
        // Hashed app files stay cacheable: only API answers are no-store.
        let page = app.get("/login").await;
        assert_ne!(page.header("cache-control"), Some("no-store"));
    }
);

dual_test!(
    async fn an_https_deployment_sends_hsts(app: TestApp) {
        let mut config = (*app.state.config).clone();
        config.public_url = "https://voicemark.example".into();
        let mut state = app.state.clone();
        state.config = std::sync::Arc::new(config);
        let router = voicemark::app::router(state);
        let response = crate::support::send(
            router,
            Request::get("/api/health")
                .body(Body::empty())
                .expect("request"),
        )
        .await;
        assert_eq!(
            response.header("strict-transport-security"),
            Some("max-age=31536000; includeSubDomains")
        );
    }
);

dual_test!(
    async fn the_trpc_root_answers_in_trpcs_envelope(app: TestApp) {
        for path in ["/api/trpc", "/api/trpc/"] {
            let response = app.get(path).await;
            assert_eq!(response.status, StatusCode::NOT_FOUND, "{path}");
            let json = response.json();
            assert_eq!(
                json["error"]["json"]["data"]["code"], "NOT_FOUND",
                "{path}: {json}"
            );
            assert_eq!(json["error"]["json"]["data"]["httpStatus"], 404, "{path}");
        }
    }
);

dual_test!(
    async fn a_nul_in_a_trpc_address_is_answered_in_trpcs_envelope(app: TestApp) {
        for path in [
            "/api/trpc/task.list%00",
            "/api/trpc/task.list?batch=1&input=%00",
            "/api/trpc/%00",
        ] {
            let response = app.get(path).await;
            assert_eq!(response.status, StatusCode::BAD_REQUEST, "{path}");
            let json = response.json();
            let error = &json["error"]["json"];
            assert_eq!(error["data"]["code"], "BAD_REQUEST", "{path}: {json}");
            assert_eq!(error["data"]["httpStatus"], 400, "{path}");
            assert_eq!(
                error["message"], "The address: Must not contain a NUL character.",
                "{path}"
            );
        }
        // Elsewhere under /api the plain refusal stays.
        let plain = app.get("/api/submissions/a%00b/t/files").await;
        assert_eq!(plain.status, StatusCode::BAD_REQUEST);
        assert!(plain.json()["error"].is_string(), "{}", plain.text());
    }
);

/// Sends `requests` one after another on ONE kept-alive connection to a real server and
/// returns each answer's status line and body.
async fn on_one_connection(router: axum::Router, requests: &[String]) -> Vec<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    let mut statuses = Vec::new();
    for request in requests {
        stream
            .write_all(request.as_bytes())
            .await
            .expect("write the request");
        let status = read_answer(&mut stream).await;
        statuses.push(status.unwrap_or_else(|| "connection closed".into()));
    }
    server.abort();
    statuses
}

/// Reads one HTTP/1.1 answer (headers and a Content-Length body); its status line and
/// body, or `None` when the server closed the connection.
async fn read_answer(stream: &mut tokio::net::TcpStream) -> Option<String> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
            let length: usize = head
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .unwrap_or(0);
            while buffer.len() < end + 4 + length {
                let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
                    .await
                    .ok()?
                    .ok()?;
                if n == 0 {
                    return None;
                }
                buffer.extend_from_slice(&chunk[..n]);
            }
            let body = String::from_utf8_lossy(&buffer[end + 4..end + 4 + length]);
            let status = head.lines().next().unwrap_or_default();
            return Some(format!("{status} {body}"));
        }
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}

dual_test!(
    async fn a_refusal_before_the_body_keeps_the_connection_usable(app: TestApp) {
        let body = "x".repeat(64 * 1024);
        let refused = format!(
            "POST /api/trpc/account.register HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Content-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let follow_up = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_owned();
        let statuses = on_one_connection(app.router.clone(), &[refused, follow_up]).await;
        assert!(statuses[0].contains(" 415 "), "{statuses:?}");
        assert!(
            statuses[1].contains(" 200 "),
            "the follow-up on the same connection failed: {statuses:?}"
        );
    }
);
