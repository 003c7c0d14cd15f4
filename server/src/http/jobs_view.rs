//! `GET /api/bull`: the background jobs view for Voicemark's own staff (SUPERADMIN only;
//! anyone else, signed out included, gets 404, so the page does not even admit it exists).
//! A server-rendered page: counts by kind and state, the failed jobs with their last error,
//! attempts, dates and a payload summary (addresses and secrets masked), and per failed job
//! 'Retry' (`POST /api/bull/jobs/{id}/retry`: queued again, due now, attempts reset) and
//! 'Discard' (`POST /api/bull/jobs/{id}/discard`: deleted). The page reloads itself every
//! 10 s while its "Refresh every 10 seconds" box is ticked (`/api/bull/refresh.js`, a script
//! file of our own, so it fits the CSP as it is; no inline script). The failed jobs come
//! [`FAILED_SHOWN`] at a time, newest first: "Older failed jobs" links to the next page by
//! an opaque cursor (`?cursor=`, `rpc::cursor`'s (time, id) token, docs/scaling.md "Paged
//! lists"), "Newest failed jobs" back to the first.
//!
//! The POSTs are plain forms: same origin (`check_same_origin`) and Auth.js's double-submit
//! CSRF token (`auth::csrf`: the page puts the cookie's token in a hidden field; the cookie
//! is set here when the browser has none yet). See docs/jobs-and-mail.md.

use std::collections::HashMap;
use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::body::Bytes;
use axum::Router;
use core_wasm::dates::format_date_time;
use core_wasm::UserRole;
use serde_json::Value;

use crate::auth::csrf;
use crate::auth::session::current_user;
use crate::error::AppError;
use crate::models::jobs::{self, FailedJob, KindCount};
use crate::models::TimeKey;
use crate::rpc::context::check_same_origin;
use crate::rpc::cursor::{self, BAD_CURSOR};
use crate::state::AppState;

/// The page's title and heading.
pub const TITLE: &str = "Background jobs";
/// Failed jobs a page (newest first): what the page has always shown at once, one dense row
/// each for our own staff, about 200 kB of HTML.
pub const FAILED_SHOWN: i64 = 200;

/// The page's query string: `cursor`, where the failed jobs shown start (absent: the newest).
#[derive(Debug, Default, serde::Deserialize)]
pub struct PageQuery {
    pub cursor: Option<String>,
}

/// Where a page of failed jobs starts: `Ok(None)` for the newest; `Err` for a token that
/// does not read (made up, cut short).
fn failed_from(token: Option<&str>) -> Result<Option<TimeKey>, ()> {
    cursor::time_key("cursor", token).map_err(|_| ())
}

/// The routes under `/api/bull`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(page))
        .route("/refresh.js", get(refresh_script))
        .route("/jobs/{id}/retry", post(retry))
        .route("/jobs/{id}/discard", post(discard))
}

/// Whether the request comes from a signed-in, enabled superadmin.
async fn is_superadmin(state: &AppState, headers: &HeaderMap) -> Result<bool, AppError> {
    let secure = crate::auth::routes::is_secure(&state.config);
    let caller = current_user(&state.db, headers, secure).await?;
    Ok(caller.is_some_and(|c| !c.user.disabled && c.user.role == UserRole::Superadmin))
}

async fn page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<PageQuery>,
) -> Result<Response, AppError> {
    if !is_superadmin(&state, &headers).await? {
        return Err(AppError::NotFound);
    }
    let from = failed_from(query.cursor.as_deref());
    let secure = crate::auth::routes::is_secure(&state.config);
    let secret = state.auth.secret();
    let (token, set_cookie) = match csrf::verified_cookie_token(&headers, secret, secure) {
        Some(token) => (token, None),
        None => {
            let (token, value) = csrf::new_token(secret);
            (token, Some(csrf::set_cookie(&value, secure)))
        }
    };
    let (counts, failed) = {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let counts = jobs::counts_by_kind(&mut conn).await?;
        let failed = match &from {
            // One more than a page tells whether older ones follow.
            Ok(after) => Some(jobs::failed_page(&mut conn, after.as_ref(), FAILED_SHOWN + 1).await?),
            Err(()) => None,
        };
        (counts, failed)
    };
    let started = query.cursor.as_deref().filter(|c| !c.is_empty());
    let (status, html) = match failed {
        Some(mut failed) => {
            let older = if failed.len() as i64 > FAILED_SHOWN {
                failed.truncate(FAILED_SHOWN as usize);
                failed.last().map(|job| cursor::of_time(job.updated_at, &job.id))
            } else {
                None
            };
            let page = FailedPage { jobs: &failed, cursor: started, older: older.as_deref() };
            (StatusCode::OK, render(&counts, Ok(page), &token))
        }
        None => (StatusCode::BAD_REQUEST, render(&counts, Err(BAD_CURSOR), &token)),
    };
    let mut response = (status, html).into_response();
    let out = response.headers_mut();
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Some(cookie) = set_cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        out.insert(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// Reloads the page every 10 s while the "Refresh every 10 seconds" box is ticked. A file
/// of our own (CSP `script-src 'self'`), not `<meta http-equiv="refresh">`, which axe counts
/// as a critical failure (WCAG 2.2.1: the user must be able to stop it).
const REFRESH_JS: &str = "const box = document.getElementById('auto-refresh');\n\
setInterval(() => { if (box && box.checked) window.location.reload(); }, 10000);\n";

async fn refresh_script(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, AppError> {
    if !is_superadmin(&state, &headers).await? {
        return Err(AppError::NotFound);
    }
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"))],
        REFRESH_JS,
    )
        .into_response())
}

/// What a Retry or Discard form sends (read by hand, so that a body of any shape from
/// anyone who is not a superadmin still gets the same 404).
type ActionForm = HashMap<String, String>;

fn read_form(body: &[u8]) -> ActionForm {
    url::form_urlencoded::parse(body).into_owned().collect()
}

/// The checks every POST passes, in order: superadmin (404), same origin (403), CSRF (403).
async fn check_post(
    state: &AppState,
    headers: &HeaderMap,
    form: &ActionForm,
) -> Result<(), Response> {
    match is_superadmin(state, headers).await {
        Ok(true) => {}
        Ok(false) => return Err(AppError::NotFound.into_response()),
        Err(err) => return Err(err.into_response()),
    }
    if check_same_origin(headers, &state.config.public_url).is_err() {
        return Err(AppError::Forbidden("Cross-site request refused").into_response());
    }
    let secure = crate::auth::routes::is_secure(&state.config);
    let given = form.get("csrfToken").map(String::as_str);
    if !csrf::is_verified(headers, given, state.auth.secret(), secure) {
        return Err(AppError::Forbidden("The form has expired: reload the page and try again.").into_response());
    }
    Ok(())
}

/// Back to the page (303, so a reload does not post again): to the page of failed jobs the
/// form was on (its `cursor` field), or the first when it has none or one that does not read.
fn back_to_page(state: &AppState, form: &ActionForm) -> Response {
    let mut to = format!("{}/api/bull", state.config.public_url.trim_end_matches('/'));
    let token = form.get("cursor").map(String::as_str);
    if let (Some(token), Ok(Some(_))) = (token, failed_from(token)) {
        // A token that reads is base64url: nothing in it needs escaping in a URL.
        let _ = write!(to, "?cursor={token}");
    }
    (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
}

async fn retry(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = read_form(&body);
    if let Err(refused) = check_post(&state, &headers, &form).await {
        return refused;
    }
    let done = async {
        let mut pooled = state.db.conn().await?;
        Ok::<_, AppError>(jobs::retry_failed(&mut pooled.db(), &id).await?)
    }
    .await;
    match done {
        Ok(true) => back_to_page(&state, &form),
        Ok(false) => AppError::NotFoundWith("No failed job has this id.").into_response(),
        Err(err) => err.into_response(),
    }
}

async fn discard(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = read_form(&body);
    if let Err(refused) = check_post(&state, &headers, &form).await {
        return refused;
    }
    let done = async {
        let mut pooled = state.db.conn().await?;
        Ok::<_, AppError>(jobs::discard_failed(&mut pooled.db(), &id).await?)
    }
    .await;
    match done {
        Ok(true) => back_to_page(&state, &form),
        Ok(false) => AppError::NotFoundWith("No failed job has this id.").into_response(),
        Err(err) => err.into_response(),
    }
}

/// `text` made safe for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// An e-mail address with most of its local part hidden: `j•••@example.com`.
fn mask_address(text: &str) -> String {
    match text.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}•••@{domain}")
        }
        None => "•••".to_owned(),
    }
}

/// Whether a payload field holds something not to show (a token, secret, password, link).
fn is_secret_field(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["token", "secret", "password", "key", "link", "url", "code", "hash"]
        .iter()
        .any(|word| name.contains(word))
}

/// One value of a payload, short: strings cut to 40 characters, addresses masked, lists
/// and objects by their size.
fn summarise_value(name: &str, value: &Value) -> String {
    match value {
        Value::String(_) | Value::Number(_) if is_secret_field(name) => "•••".to_owned(),
        Value::String(s) if s.contains('@') => mask_address(s),
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("{cut}…")
            } else {
                cut
            }
        }
        Value::Array(items) => format!("[{} items]", items.len()),
        Value::Object(fields) => format!("{{{} fields}}", fields.len()),
        other => other.to_string(),
    }
}

/// A job's payload in one line, `field: value, …`, with addresses and secrets not shown in full.
pub fn payload_summary(payload: &str) -> String {
    match serde_json::from_str::<Value>(payload) {
        Ok(Value::Object(fields)) => fields
            .iter()
            .map(|(name, value)| format!("{name}: {}", summarise_value(name, value)))
            .collect::<Vec<_>>()
            .join(", "),
        Ok(other) => summarise_value("", &other),
        Err(_) => "(not JSON)".to_owned(),
    }
}

/// The product's look (the app's colour tokens, app/src/index.css) in one inline sheet: a
/// header with the logo and the way back to the app, framed tables that scroll sideways on
/// their own on a phone, and the app's outline buttons.
const STYLE: &str = "*{box-sizing:border-box}body{font-family:ui-sans-serif,system-ui,sans-serif;margin:0;\
color:#0f172a;background:#fff;line-height:1.5}\
header{display:flex;align-items:center;gap:.75rem;height:60px;padding:0 1rem;border-bottom:1px solid #cbd5e1}\
header .brand{display:flex;align-items:center;gap:.5rem;font-size:1.125rem;font-weight:600;color:#0f172a;\
text-decoration:none}header .back{margin-left:auto;color:#4338ca;font-size:.875rem;font-weight:500;\
text-underline-offset:4px}main{max-width:96rem;margin:0 auto;padding:2rem 1rem}\
h1{font-size:1.875rem;font-weight:700;letter-spacing:-.025em;margin:0 0 .5rem}\
h2{font-size:1.125rem;font-weight:600;margin:2rem 0 .75rem}\
.frame{max-width:100%;overflow-x:auto;border:1px solid #cbd5e1;border-radius:.5rem}\
.frame:focus-visible{outline:3px solid #4338ca;outline-offset:2px}\
table{width:100%;border-collapse:collapse;font-size:.875rem}thead{background:#f1f5f9}\
th,td{padding:.5rem .75rem;text-align:left;vertical-align:top}th{font-weight:500;white-space:nowrap}\
tbody tr+tr{border-top:1px solid #cbd5e1}td.error{min-width:16rem;max-width:32rem;white-space:pre-wrap;\
word-break:break-word}td.actions{white-space:nowrap}form{display:inline}\
button{margin-right:.25rem;height:2rem;padding:0 .75rem;border:1px solid #cbd5e1;border-radius:.375rem;\
background:#fff;color:#0f172a;font:inherit;font-size:.875rem;font-weight:500;cursor:pointer}\
button:hover{background:#f1f5f9}button:focus-visible{outline:3px solid #4338ca;outline-offset:2px}\
p.note{color:#475569;font-size:.875rem}\
nav.pager{display:flex;flex-wrap:wrap;gap:1rem;margin-top:.75rem;font-size:.875rem}\
nav.pager a{color:#4338ca;font-weight:500;text-underline-offset:4px}";

/// One page of failed jobs as the page shows it.
struct FailedPage<'a> {
    jobs: &'a [FailedJob],
    /// Where this page starts (none: the newest), so Retry and Discard come back to it.
    cursor: Option<&'a str>,
    /// Where the next, older page starts; none on the last page.
    older: Option<&'a str>,
}

/// `failed`: a page of failed jobs, or the sentence for a cursor that does not read.
fn render(counts: &[KindCount], failed: Result<FailedPage<'_>, &str>, token: &str) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<script src=\"/api/bull/refresh.js\" defer></script><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{TITLE}</title><style>{STYLE}</style></head><body>\
<header><a class=\"brand\" href=\"/\"><img src=\"/logo.svg\" alt=\"\" width=\"32\" height=\"32\">Voicemark</a>\
<a class=\"back\" href=\"/\">Back to Voicemark</a></header><main><h1>{TITLE}</h1>\
<p class=\"note\"><label><input type=\"checkbox\" id=\"auto-refresh\" checked> Refresh every 10 seconds</label>. Times are UTC.</p>"
    );
    html.push_str("<h2>Jobs by kind and state</h2>");
    if counts.is_empty() {
        html.push_str("<p>No jobs.</p>");
    } else {
        let states = [
            jobs::status::QUEUED,
            jobs::status::RUNNING,
            jobs::status::DONE,
            jobs::status::FAILED,
        ];
        html.push_str(
            "<div class=\"frame\" role=\"region\" aria-label=\"Jobs by kind and state\" tabindex=\"0\">\
<table aria-label=\"Jobs by kind and state\"><thead><tr><th scope=\"col\">Kind</th>",
        );
        for state in states {
            let _ = write!(html, "<th scope=\"col\">{state}</th>");
        }
        html.push_str("</tr></thead><tbody>");
        let mut kinds: Vec<&str> = counts.iter().map(|c| c.kind.as_str()).collect();
        kinds.dedup();
        for kind in kinds {
            let _ = write!(html, "<tr><th scope=\"row\">{}</th>", escape(kind));
            for state in states {
                let n = counts
                    .iter()
                    .find(|c| c.kind == kind && c.status == state)
                    .map_or(0, |c| c.count);
                let _ = write!(html, "<td>{n}</td>");
            }
            html.push_str("</tr>");
        }
        html.push_str("</tbody></table></div>");
    }
    html.push_str("<h2>Failed jobs</h2>");
    let page = match failed {
        Ok(page) => page,
        Err(sentence) => {
            let _ = write!(
                html,
                "<p role=\"alert\">{}</p><nav class=\"pager\" aria-label=\"Failed jobs pages\">\
<a href=\"/api/bull\">Newest failed jobs</a></nav>",
                escape(sentence)
            );
            html.push_str("</main></body></html>");
            return html;
        }
    };
    if page.jobs.is_empty() {
        html.push_str("<p>No failed jobs.</p>");
    } else {
        html.push_str(
            "<div class=\"frame\" role=\"region\" aria-label=\"Failed jobs\" tabindex=\"0\">\
<table aria-label=\"Failed jobs\"><thead><tr><th scope=\"col\">Kind</th><th scope=\"col\">Attempts</th>\
<th scope=\"col\">Actions</th><th scope=\"col\">Last error</th><th scope=\"col\">Created</th>\
<th scope=\"col\">Updated</th><th scope=\"col\">Payload</th></tr></thead><tbody>",
        );
        // Each form carries the CSRF token and the page it is on, to come back to it.
        let mut hidden = format!("<input type=\"hidden\" name=\"csrfToken\" value=\"{}\">", escape(token));
        if let Some(cursor) = page.cursor {
            let _ = write!(hidden, "<input type=\"hidden\" name=\"cursor\" value=\"{}\">", escape(cursor));
        }
        for job in page.jobs {
            let id = escape(&job.id);
            let _ = write!(
                html,
                "<tr><td>{kind}</td><td>{attempts} of {max}</td><td class=\"actions\">\
<form method=\"post\" action=\"/api/bull/jobs/{id}/retry\">{hidden}\
<button type=\"submit\" aria-label=\"Retry {kind} job {id}\">Retry</button></form>\
<form method=\"post\" action=\"/api/bull/jobs/{id}/discard\">{hidden}\
<button type=\"submit\" aria-label=\"Discard {kind} job {id}\">Discard</button></form></td>\
<td class=\"error\">{error}</td><td>{created}</td><td>{updated}</td><td>{payload}</td></tr>",
                kind = escape(&job.kind),
                error = escape(job.last_error.as_deref().unwrap_or("")),
                attempts = job.attempts,
                max = job.max_attempts,
                created = format_date_time(job.created_at),
                updated = format_date_time(job.updated_at),
                payload = escape(&payload_summary(&job.payload)),
            );
        }
        html.push_str("</tbody></table></div>");
    }
    if page.cursor.is_some() || page.older.is_some() {
        html.push_str("<nav class=\"pager\" aria-label=\"Failed jobs pages\">");
        if page.cursor.is_some() {
            html.push_str("<a href=\"/api/bull\">Newest failed jobs</a>");
        }
        if let Some(older) = page.older {
            let _ = write!(html, "<a href=\"/api/bull?cursor={}\">Older failed jobs</a>", escape(older));
        }
        html.push_str("</nav>");
    }
    html.push_str("</main></body></html>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_hide_addresses_and_secrets() {
        let summary = payload_summary(
            r#"{"to":"jane.doe@example.com","token":"abc123","submissionId":"s1","ids":[1,2]}"#,
        );
        assert!(summary.contains("to: j•••@example.com"), "{summary}");
        assert!(summary.contains("token: •••"), "{summary}");
        assert!(summary.contains("submissionId: s1"), "{summary}");
        assert!(summary.contains("ids: [2 items]"), "{summary}");
        assert!(!summary.contains("jane.doe"));
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}
