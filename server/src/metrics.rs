//! Prometheus metrics (docs/operations.md): the families an operator watches, recorded
//! through the `metrics` facade into `metrics-exporter-prometheus`, and rendered at
//! `GET /metrics` on the separate listen address `VOICEMARK_METRICS_ADDR` (never on the
//! public one). Recording is a few atomic operations; without an installed recorder (the
//! setting unset, most tests) it does nothing.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::state::AppState;

/// Latency buckets in seconds, for every `_seconds` histogram.
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// The providers whose calls are counted (`voicemark_provider_*`).
pub const PROVIDERS: &[&str] = &[
    "chat", "vision", "speech", "transcription", "stripe", "wonde", "xporter", "graph", "microsoft",
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process's recorder (once: later calls answer the same handle). `None` when
/// another recorder was installed first.
pub fn install() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new().set_buckets(BUCKETS).ok()?;
            match builder.install_recorder() {
                Ok(handle) => {
                    zero_counters();
                    Some(handle)
                }
                Err(err) => {
                    tracing::warn!(%err, "cannot install the metrics recorder");
                    None
                }
            }
        })
        .clone()
}

/// Whether a recorder is installed (without one, recording is skipped before any label is
/// built).
fn installed() -> bool {
    HANDLE.get().is_some_and(Option::is_some)
}

/// Error and failure counters start at 0 (so a rate over them exists before the first one).
fn zero_counters() {
    for kind in crate::jobs::Registry::standard().kinds() {
        counter!("voicemark_job_failures_total", "kind" => kind.to_owned()).absolute(0);
    }
    for provider in PROVIDERS {
        counter!("voicemark_provider_errors_total", "provider" => *provider).absolute(0);
    }
    for transport in ["smtp", "outbox"] {
        counter!("voicemark_mail_send_errors_total", "transport" => transport).absolute(0);
    }
}

/// The Prometheus text of every family, with the job queue's gauges read now.
pub async fn render(state: &AppState, handle: &PrometheusHandle) -> String {
    refresh_queue(state).await;
    handle.run_upkeep();
    handle.render()
}

/// The job queue's depth and the age of its oldest due job, per kind (0 for a kind with none).
async fn refresh_queue(state: &AppState) {
    let read = async {
        let mut pooled = state.db.conn().await?;
        Ok::<_, crate::db::DbError>(
            crate::models::jobs::queue_by_kind(&mut pooled.db(), crate::models::now()).await?,
        )
    };
    let rows = match tokio::time::timeout(Duration::from_secs(2), read).await {
        Ok(Ok(rows)) => rows,
        Ok(Err(err)) => {
            tracing::warn!(%err, "metrics: cannot read the job queue");
            return;
        }
        Err(_) => {
            tracing::warn!("metrics: the job queue did not answer within 2 seconds");
            return;
        }
    };
    let now = crate::models::now();
    let mut kinds: Vec<String> = crate::jobs::Registry::standard()
        .kinds()
        .into_iter()
        .map(str::to_owned)
        .collect();
    for row in &rows {
        if !kinds.contains(&row.kind) {
            kinds.push(row.kind.clone());
        }
    }
    for kind in kinds {
        let row = rows.iter().find(|r| r.kind == kind);
        let depth = row.map_or(0, |r| r.queued);
        let age = row
            .and_then(|r| r.oldest_due)
            .map_or(0.0, |at| (now - at).num_milliseconds().max(0) as f64 / 1000.0);
        gauge!("voicemark_job_queue_depth", "kind" => kind.clone()).set(depth as f64);
        gauge!("voicemark_job_oldest_due_age_seconds", "kind" => kind).set(age);
    }
}

/// Middleware: counts every HTTP request and times it, by its route template (`/api/trpc/{*path}`,
/// never a path with ids in it; `fallback` for the app's pages and files and unknown paths).
pub async fn track_http(request: Request, next: Next) -> Response {
    if !installed() {
        return next.run(request).await;
    }
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "fallback".to_owned(), |m| m.as_str().to_owned());
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    histogram!("voicemark_http_request_duration_seconds", "method" => method.clone(), "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    counter!("voicemark_http_requests_total", "method" => method, "route" => route, "status" => status)
        .increment(1);
    response
}

/// One RPC procedure call, `ok` or not, and how long it took.
pub fn rpc_call(procedure: &'static str, ok: bool, took: Duration) {
    histogram!("voicemark_rpc_duration_seconds", "procedure" => procedure).record(took.as_secs_f64());
    let outcome = if ok { "ok" } else { "error" };
    counter!("voicemark_rpc_calls_total", "procedure" => procedure, "outcome" => outcome).increment(1);
}

/// A job run that failed (to be retried or for good).
pub fn job_failed(kind: &str) {
    counter!("voicemark_job_failures_total", "kind" => kind.to_owned()).increment(1);
}

/// One e-mail handed to `transport` (`smtp` or `outbox`).
pub fn mail_sent(transport: &'static str, took: Duration, failed: bool) {
    histogram!("voicemark_mail_send_duration_seconds", "transport" => transport).record(took.as_secs_f64());
    if failed {
        counter!("voicemark_mail_send_errors_total", "transport" => transport).increment(1);
    }
}

/// Sends `request` to `provider`, timing the wait for its answer's headers; an error status
/// or no answer counts as an error.
pub async fn send(
    provider: &'static str,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, reqwest::Error> {
    let started = Instant::now();
    let sent = request.send().await;
    histogram!("voicemark_provider_duration_seconds", "provider" => provider)
        .record(started.elapsed().as_secs_f64());
    if sent.as_ref().map_or(true, |r| !r.status().is_success()) {
        counter!("voicemark_provider_errors_total", "provider" => provider).increment(1);
    }
    sent
}

/// [`send`] as a method: `request.send_timed("stripe")` where `request.send()` was.
pub trait SendTimed {
    fn send_timed(
        self,
        provider: &'static str,
    ) -> impl Future<Output = Result<reqwest::Response, reqwest::Error>> + Send;
}

impl SendTimed for reqwest::RequestBuilder {
    fn send_timed(
        self,
        provider: &'static str,
    ) -> impl Future<Output = Result<reqwest::Response, reqwest::Error>> + Send {
        send(provider, self)
    }
}

/// One read of a process cache (`crate::cache`): a hit or a miss.
pub fn cache_lookup(cache: &'static str, hit: bool) {
    if hit {
        counter!("voicemark_cache_hits_total", "cache" => cache).increment(1);
    } else {
        counter!("voicemark_cache_misses_total", "cache" => cache).increment(1);
    }
}

/// How a procedure's independent reads went: at once, on connections that were free
/// (`Db::conn_if_free`), or in turn on the one it held because none was.
pub fn reads(procedure: &'static str, at_once: bool) {
    let how = if at_once { "at_once" } else { "in_turn" };
    counter!("voicemark_reads_total", "procedure" => procedure, "how" => how).increment(1);
}

/// How long a request waited for a database connection from the pool.
pub fn pool_wait(backend: &'static str, took: Duration) {
    histogram!("voicemark_db_pool_wait_seconds", "backend" => backend).record(took.as_secs_f64());
}

/// Times `future` as a pool wait.
pub async fn timed_pool_wait<T>(backend: &'static str, future: impl Future<Output = T>) -> T {
    let started = Instant::now();
    let out = future.await;
    pool_wait(backend, started.elapsed());
    out
}

/// `GET /metrics` (and nothing else) for the metrics listener.
pub fn router(state: AppState, handle: PrometheusHandle) -> axum::Router {
    axum::Router::new()
        .route("/metrics", axum::routing::get(scrape))
        .with_state((state, handle))
}

async fn scrape(State((state, handle)): State<(AppState, PrometheusHandle)>) -> Response {
    let text = render(&state, &handle).await;
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        text,
    )
        .into_response()
}

/// Serves `GET /metrics` on `address` until `stop` completes; answers the bound address.
pub async fn serve(
    address: SocketAddr,
    state: AppState,
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<SocketAddr> {
    let handle = install().ok_or_else(|| anyhow::anyhow!("the metrics recorder could not be installed"))?;
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|err| {
        anyhow::anyhow!("Cannot listen for metrics on {address}: {err}: is another server using that address?")
    })?;
    let bound = listener.local_addr()?;
    tracing::info!(address = %bound, "metrics on http://{bound}/metrics");
    // Histograms are drained into their buckets now and then, besides at each scrape.
    let upkeep = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            upkeep.run_upkeep();
        }
    });
    let routes = router(state, handle);
    tokio::spawn(async move {
        if let Err(err) = axum::serve(listener, routes).with_graceful_shutdown(stop).await {
            tracing::warn!(%err, "the metrics listener stopped");
        }
    });
    Ok(bound)
}
