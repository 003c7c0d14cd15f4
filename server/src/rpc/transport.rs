//! The tRPC v11 HTTP transport (trpc.md §1–6): `httpLink` and `httpBatchLink` requests in,
//! `{"result"}` / `{"error"}` envelopes out, with tRPC's status, method and content-type rules.

use axum::body::{Body, Bytes};
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::Response;
use core_wasm::limits::{batch_too_large_message, MAX_BATCH_CALLS};
use futures_util::future::join_all;
use serde_json::Value;

use crate::auth::session::current_user;
use crate::rpc::context::{check_same_origin, Ctx};
use crate::rpc::encoded::Encoded;
use crate::rpc::error::{ErrorCode, RpcError, RpcResult};
use crate::rpc::input::check_input;
use crate::rpc::registry::{self, Kind, Procedure};
use crate::rpc::superjson;
use crate::rpc::wire::{self, BodyBuilder, SelfEncoded};
use crate::state::AppState;

/// Request bodies above this are refused with 413, unless the call is one that needs more
/// (see [`body_limit`]).
const MAX_BODY: usize = 2 * 1024 * 1024;

/// One call's outcome: the encoded output, or the error.
type Outcome = RpcResult<Encoded>;

/// `ANY /api/trpc/{path}`.
pub async fn handle(
    State(state): State<AppState>,
    Path(path): Path<String>,
    request: Request,
) -> Response {
    dispatch(state, path, request).await
}

/// `ANY /api/trpc` and `/api/trpc/`: no procedure named, answered in tRPC's own shape.
pub async fn handle_root(State(state): State<AppState>, request: Request) -> Response {
    dispatch(state, String::new(), request).await
}

async fn dispatch(state: AppState, path: String, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    if parts.method == Method::HEAD {
        return empty(StatusCode::NO_CONTENT);
    }
    let query = parts.uri.query().unwrap_or("");
    let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let param = |name: &str| {
        params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let is_batch = param("batch") == Some("1");

    // v11 picks a content-type handler first: only JSON is spoken; GET may omit it.
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let is_json = content_type
        .as_deref()
        .is_some_and(|ct| ct.starts_with("application/json"));
    if !is_json && parts.method != Method::GET {
        let message = match &content_type {
            Some(ct) => format!("Unsupported content-type \"{ct}\""),
            None => "Missing content-type header".to_owned(),
        };
        let refusal = RpcError::new(ErrorCode::UnsupportedMediaType, message);
        return refuse_unread(body, &parts.headers, &refusal).await;
    }

    let paths: Vec<&str> = if is_batch {
        path.split(',').collect()
    } else {
        vec![path.as_str()]
    };
    // Refused before any call runs, before the session is even looked up: one request-level
    // error, so a batch of thousands of calls costs almost nothing.
    if paths.len() > MAX_BATCH_CALLS {
        let refusal = RpcError::bad_request(batch_too_large_message(paths.len()));
        return refuse_unread(body, &parts.headers, &refusal).await;
    }
    let procedures: Vec<Option<&'static Procedure>> =
        paths.iter().map(|p| registry::find(p)).collect();
    let mut kinds: Vec<Kind> = Vec::new();
    for kind in procedures.iter().flatten().map(|p| p.kind) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if kinds.len() > 1 {
        let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        let refusal = RpcError::bad_request(format!(
            "Cannot mix procedure types in call: {}",
            names.join(", ")
        ));
        return refuse_unread(body, &parts.headers, &refusal).await;
    }

    // The caller is known before the body is read: only a signed-in caller gets a larger limit.
    let caller = if procedures.iter().any(Option::is_some) {
        match current_user(
            &state.db,
            &parts.headers,
            crate::auth::routes::is_secure(&state.config),
        )
        .await
        {
            Ok(caller) => caller,
            Err(err) => return refuse_unread(body, &parts.headers, &RpcError::from(err)).await,
        }
    } else {
        None
    };
    let signed_in = caller.as_ref().is_some_and(|c| !c.user.disabled);

    let raw = if parts.method == Method::GET {
        Ok(param("input").map(|s| Bytes::copy_from_slice(s.as_bytes())))
    } else {
        let limit = body_limit(&procedures, signed_in);
        match read_body(body, &parts.headers, limit).await {
            Err(err) if err.code == ErrorCode::PayloadTooLarge => {
                // The rest of the body stays unread: the connection cannot be reused.
                let mut response = request_error(&err);
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                return response;
            }
            read => read,
        }
    };
    let inputs = read_inputs(raw, is_batch, paths.len());
    let address = crate::auth::client_address(&state.config, &parts);
    let ctx = Ctx::new(state, parts.headers.clone(), caller).with_client_address(address);

    let calls = paths
        .iter()
        .zip(&procedures)
        .zip(inputs)
        .map(|((path, procedure), input)| call(&ctx, &parts.method, path, *procedure, input));
    let outcomes: Vec<Outcome> = join_all(calls).await;
    for (path, outcome) in paths.iter().zip(&outcomes) {
        if let Err(err) = outcome {
            log_error(path, err);
        }
    }
    respond(is_batch, &paths, &procedures, outcomes, &parts)
}

/// A refusal sent before the body was read. The body is read first (up to the limit) so
/// the connection stays usable for the client's next request: a server that answers
/// without reading leaves unread bytes on a kept-alive connection and must close it.
/// A body over the limit is not read; the answer then says `Connection: close`.
async fn refuse_unread(body: Body, headers: &HeaderMap, err: &RpcError) -> Response {
    let drained = read_body(body, headers, MAX_BODY).await;
    let mut response = request_error(err);
    if drained.is_err() {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// A refusal of a `/api/trpc` request made before it reached its route (e.g. a NUL in the
/// address, `http::address`): in tRPC's error envelope, so the client can read it.
pub async fn refuse_request(request: Request, err: &RpcError) -> Response {
    let (parts, body) = request.into_parts();
    refuse_unread(body, &parts.headers, err).await
}

/// The most a POST body may hold: [`MAX_BODY`], or more for a signed-in caller of a
/// procedure that takes photos (`notification.analyseImage`).
fn body_limit(procedures: &[Option<&Procedure>], signed_in: bool) -> usize {
    let needs_photos = procedures
        .iter()
        .flatten()
        .any(|p| p.path == "notification.analyseImage");
    if signed_in && needs_photos {
        crate::rpc::notification::analyse_image::MAX_BODY
    } else {
        MAX_BODY
    }
}

/// The whole body (`None` when empty), refusing more than `limit` bytes with 413 — at once
/// when `Content-Length` says so, else as soon as the stream passes it.
async fn read_body(body: Body, headers: &HeaderMap, limit: usize) -> RpcResult<Option<Bytes>> {
    let too_large = || {
        RpcError::new(
            ErrorCode::PayloadTooLarge,
            format!(
                "The request is too large: this call accepts at most {} MB.",
                limit / (1024 * 1024)
            ),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) if bytes.is_empty() => Ok(None),
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if is_length_limit(&e) => Err(too_large()),
        Err(e) => Err(RpcError::new(
            ErrorCode::BadRequest,
            format!("Could not read the request body: {e}"),
        )),
    }
}

/// Whether reading failed because the body passed the limit.
fn is_length_limit(err: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(cause) = source {
        if cause.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = cause.source();
    }
    false
}

/// One call: find, check method and origin, check the input (the one input layer), run.
async fn call(
    ctx: &Ctx,
    method: &Method,
    path: &str,
    procedure: Option<&Procedure>,
    input: RpcResult<Value>,
) -> Outcome {
    let Some(procedure) = procedure else {
        return Err(RpcError::new(
            ErrorCode::NotFound,
            format!("No procedure found on path \"{path}\""),
        ));
    };
    if method.as_str() != procedure.kind.method() {
        return Err(RpcError::new(
            ErrorCode::MethodNotSupported,
            format!(
                "Unsupported {method}-request to {} procedure at path \"{path}\"",
                procedure.kind.as_str()
            ),
        ));
    }
    if procedure.kind == Kind::Mutation {
        check_same_origin(&ctx.headers, &ctx.state.config.public_url)?;
    }
    let input = input?;
    check_input(procedure.path, &input)?;
    let started = std::time::Instant::now();
    let outcome = (procedure.call)(ctx, input).await;
    crate::metrics::rpc_call(procedure.path, outcome.is_ok(), started.elapsed());
    outcome
}

/// Splits the raw input into one decoded value per call (`null` where none was sent).
fn read_inputs(
    raw: RpcResult<Option<Bytes>>,
    is_batch: bool,
    count: usize,
) -> Vec<RpcResult<Value>> {
    let parsed: RpcResult<Option<Value>> = raw.and_then(|raw| match raw {
        None => Ok(None),
        Some(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| RpcError::new(ErrorCode::ParseError, format!("Invalid JSON input: {e}"))),
    });
    let decode =
        |value: Value| superjson::decode(value).map_err(|e| RpcError::bad_request(e.to_string()));
    match parsed {
        Err(err) => vec![Err(err); count],
        Ok(None) => vec![Ok(Value::Null); count],
        Ok(Some(value)) if !is_batch => vec![decode(value)],
        Ok(Some(Value::Object(mut by_index))) => (0..count)
            .map(|i| {
                by_index
                    .remove(&i.to_string())
                    .map(decode)
                    .unwrap_or(Ok(Value::Null))
            })
            .collect(),
        Ok(Some(_)) => vec![
            Err(RpcError::bad_request(
                "\"input\" needs to be an object when doing a batch call"
            ));
            count
        ],
    }
}

/// The envelope(s) and the status: a batch is an array, 207 when its statuses differ. An
/// answer made only of shared outputs has an ETag (304 when the client has it); shared
/// outputs go out gzip-compressed once (`rpc::wire`).
fn respond(
    is_batch: bool,
    paths: &[&str],
    procedures: &[Option<&Procedure>],
    outcomes: Vec<Outcome>,
    request: &axum::http::request::Parts,
) -> Response {
    let headers = &request.headers;
    let statuses: Vec<u16> = outcomes
        .iter()
        .map(|o| match o {
            Ok(_) => 200,
            Err(err) => err.code.http_status(),
        })
        .collect();
    let status = match statuses.split_first() {
        Some((first, rest)) if rest.iter().all(|s| s == first) => *first,
        Some(_) => 207,
        None => 200,
    };
    // A wrong method is answered with the one that would have worked.
    let allowed = outcomes
        .iter()
        .zip(procedures)
        .find_map(|(outcome, procedure)| match (outcome, procedure) {
            (Err(err), Some(procedure)) if err.code == ErrorCode::MethodNotSupported => {
                Some(procedure.kind.method())
            }
            _ => None,
        });
    let mut body = BodyBuilder::default();
    if is_batch {
        body.small(b"[");
    }
    for (i, (path, outcome)) in paths.iter().zip(outcomes).enumerate() {
        if i > 0 {
            body.small(b",");
        }
        match outcome {
            Ok(output) => {
                body.small(b"{\"result\":{\"data\":");
                body.output(output);
                body.small(b"}}");
            }
            Err(err) => body.small(error_envelope(&err, Some(path)).as_bytes()),
        }
    }
    if is_batch {
        body.small(b"]");
    }
    let etag = if status == 200 && request.method == Method::GET { body.etag() } else { None };
    let shared = body.has_shared();
    if let Some(etag) = &etag {
        if wire::none_match(headers, etag) {
            let mut response = empty(StatusCode::NOT_MODIFIED);
            response.headers_mut().insert(header::VARY, vary(shared));
            cacheable(response.headers_mut(), etag);
            response.extensions_mut().insert(SelfEncoded);
            return response;
        }
    }
    let built = body.build(wire::accepts_gzip(headers));
    let mut response = Response::new(built.body);
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let response_headers = response.headers_mut();
    response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response_headers.insert(header::VARY, vary(shared));
    if shared {
        if built.gzip {
            response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        response.extensions_mut().insert(SelfEncoded);
    }
    if let Some(etag) = &etag {
        cacheable(response.headers_mut(), etag);
    }
    if let Some(allowed) = allowed {
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allowed));
    }
    response
}

/// A shared answer may be kept by the browser that asked, which asks again each time
/// (`no-cache`) and is answered 304 while it has the same answer. Sign-out clears it
/// (`Clear-Site-Data`).
fn cacheable(headers: &mut HeaderMap, etag: &str) {
    if let Ok(value) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, value);
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    }
}

/// An answer depends on `trpc-accept` (streamed or not); one holding a shared answer also
/// on `Accept-Encoding`, since it is compressed here and not by the compression layer.
fn vary(shared: bool) -> HeaderValue {
    HeaderValue::from_static(if shared { "trpc-accept, accept-encoding" } else { "trpc-accept" })
}

fn error_envelope(err: &RpcError, path: Option<&str>) -> String {
    let shape = serde_json::to_string(&err.shape(path)).unwrap_or_else(|_| "{}".into());
    format!("{{\"error\":{{\"json\":{shape}}}}}")
}

/// A failure of the request as a whole: one object even for a batch, without a path. tRPC
/// answers these with the runtime's default `text/plain;charset=UTF-8`; so does this.
fn request_error(err: &RpcError) -> Response {
    log_error("-", err);
    json_response(
        err.code.http_status(),
        error_envelope(err, None),
        "text/plain;charset=UTF-8",
    )
}

fn json_response(status: u16, body: String, content_type: &'static str) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers: &mut HeaderMap = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::VARY, vary(false));
    response
}

fn empty(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

fn log_error(path: &str, err: &RpcError) {
    match (&err.detail, err.code) {
        (Some(detail), _) => {
            let detail = crate::telemetry::escape_log(detail);
            tracing::error!(path, code = err.code.key(), %detail, "rpc call failed")
        }
        (None, ErrorCode::InternalServerError) => {
            tracing::error!(path, message = %crate::telemetry::escape_log(&err.message), "rpc call failed")
        }
        (None, _) => {
            tracing::debug!(path, code = err.code.key(), message = %crate::telemetry::escape_log(&err.message), "rpc call refused")
        }
    }
}
