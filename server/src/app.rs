//! Router assembly: every route and the layers around them.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::error::AppError;
use crate::http::{self, security_headers};
use crate::state::AppState;

/// The whole application as one router, ready to serve or to drive in tests with `oneshot`.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/health", get(http::health::health))
        .route("/ready", get(http::ready::ready))
        .nest("/auth", crate::auth::routes())
        .nest("/microsoft", crate::auth::microsoft_connect_routes())
        .merge(crate::rpc::routes())
        .layer(timeout(Duration::from_secs(60)))
        // A 50 MB upload over a slow school connection takes minutes, not seconds.
        .nest(
            "/submissions",
            http::submission_files::routes().layer(timeout(Duration::from_secs(30 * 60))),
        )
        // Signed direct uploads and downloads (local store): as long as a submission upload.
        .nest(
            "/uploads",
            http::uploads::routes().layer(timeout(Duration::from_secs(30 * 60))),
        )
        // Parts of uploads in parts (local store): 5 MiB each, same generous limit.
        .nest(
            "/upload-parts",
            http::upload_parts::routes().layer(timeout(Duration::from_secs(30 * 60))),
        )
        // Reports stream while the model writes them (SSE) and downloads are built in
        // memory; the limit is on the wait for the headers, not on the stream.
        // Signed links in e-mails (opened) and the not-reached lists (docs/reach.md).
        .nest("/reach", http::reach::routes().layer(timeout(Duration::from_secs(60))))
        .nest("/reports", http::reports::routes().layer(timeout(Duration::from_secs(60))))
        // The AI assistant streams its answer (SSE); the limit is on the wait for the headers.
        .nest("/assistant", http::assistant::routes().layer(timeout(Duration::from_secs(60))))
        // AI autofill streams its answer (SSE); the limit is on the wait for the headers.
        .nest("/tasks", http::autofill::routes().layer(timeout(Duration::from_secs(60))))
        // The superadmin's background jobs view (server-rendered HTML) and a pupil's
        // privacy export (a zip built in memory).
        .nest("/bull", http::jobs_view::routes().layer(timeout(Duration::from_secs(60))))
        .nest("/privacy", http::privacy_export::routes().layer(timeout(Duration::from_secs(5 * 60))))
        // Stripe's signed events (docs/billing.md): stored and queued, answered at once.
        .nest("/stripe", http::stripe_webhook::routes().layer(timeout(Duration::from_secs(30))))
        // Sending services' signed delivery events (docs/bounces.md).
        .nest("/webhooks", http::sendgrid_webhook::routes().layer(timeout(Duration::from_secs(30))))
        .fallback(api_not_found)
        // Answers carry personal data: no browser or proxy keeps a copy (a download that
        // sets its own Cache-Control keeps it).
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(axum::middleware::from_fn(http::address::refuse_nul));
    let csp = HeaderValue::from_str(&security_headers::content_security_policy(
        &state.config,
        &http::web::inline_script_hashes(),
    ))
        // Hosts of parsed URLs are ASCII (punycode), so this holds; the fallback is stricter.
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    let mut routes = with_layers(
        Router::new()
            .nest("/api", api)
            .fallback(http::web::serve_web)
            .layer(axum::middleware::from_fn_with_state(state.clone(), http::ready::gate)),
    )
    .layer(SetResponseHeaderLayer::overriding(
        header::CONTENT_SECURITY_POLICY,
        csp,
    ));
    if let Some(hsts) = security_headers::strict_transport_security(&state.config) {
        routes = routes.layer(SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            hsts,
        ));
    }
    routes.with_state(state)
}

/// Wraps routes in what every response needs: a request id on each log line and response,
/// request logs, panics turned into plain 500s, security headers and compression. Timeouts
/// are set per route group in `router`.
pub fn with_layers(routes: Router<AppState>) -> Router<AppState> {
    let request_id = header::HeaderName::from_static("x-request-id");
    let layers = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
        // Counted and timed by route template (docs/operations.md).
        .layer(axum::middleware::from_fn(crate::metrics::track_http))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<Body>| {
                    let id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.uri().path())
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::new(request_id))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        // Answers that carry their own encoding (shared RPC answers, `rpc::wire`) are left
        // as they are.
        .layer(CompressionLayer::new().compress_when(DefaultPredicate::new().and(not_self_encoded)));

    routes.layer(layers)
}

fn not_self_encoded(
    _: StatusCode,
    _: axum::http::Version,
    _: &axum::http::HeaderMap,
    extensions: &axum::http::Extensions,
) -> bool {
    extensions.get::<crate::rpc::wire::SelfEncoded>().is_none()
}

/// Answers 408 when a request takes longer than `limit`.
fn timeout(limit: Duration) -> tower_http::timeout::TimeoutLayer {
    tower_http::timeout::TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, limit)
}

async fn api_not_found() -> AppError {
    AppError::NotFound
}

/// A panic becomes a plain 500: its text goes to the log, never to the client.
fn panic_response(err: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = err
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into());
    tracing::error!(%detail, "handler panicked");
    AppError::Internal(detail).into_response()
}
