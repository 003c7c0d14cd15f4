//! `/api/reach` (docs/reach.md): the signed link in every notification e-mail, and the
//! office's lists of who a notification did not reach.
//!
//! - `GET /api/reach/open/{token}`: records the delivery as opened and redirects (303) to
//!   the real page: a pupil's assignment to their submission page, anything else to the
//!   message at `/messages/{token}`. A link whose signature does not hold records nothing
//!   and leads to the same page, which says the link is not valid.
//! - `GET /api/reach/seen/{token}`: the invisible image in the e-mails of a school that
//!   switched it on in Manage School › Settings (off by default); records Opened the same way.
//! - `GET /api/reach/{notificationId}/not-reached?format=csv|pdf&days=3`: the Reach tab's
//!   'Not reached' list as a CSV file or a paper list (PDF) for the office, with the session
//!   cookie like tRPC and the same scope (a teacher their own notifications, an admin the
//!   school's).

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

use crate::http::reports::markdown::{Block, Span};
use crate::http::reports::{caller, pdf, refusal};
use crate::models::deliveries::{self, ReachRow};
use crate::models::notifications::NotificationScope;
use crate::models::{notifications, now, submissions};
use crate::reach;
use crate::rpc::notification::reach::days_or_default;
use crate::state::AppState;
use crate::storage::content_disposition;

/// The routes under `/api/reach`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/open/{token}", get(open))
        .route("/seen/{token}", get(seen))
        .route("/{id}/not-reached", get(not_reached))
}

async fn open(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    let message_page = format!("/messages/{}", path_token(&token));
    let Some(id) = reach::verify(state.auth.secret(), &token) else {
        return Redirect::to(&message_page).into_response();
    };
    let opened = match state.db.conn().await {
        Ok(mut pooled) => {
            let mut conn = pooled.db();
            match deliveries::mark_opened(&mut conn, id, now()).await {
                Ok(Some((notification_id, student_id, audience))) if audience == "pupil" => {
                    submissions::find_link(&mut conn, &notification_id, &student_id)
                        .await
                        .ok()
                        .flatten()
                }
                Ok(_) => None,
                Err(error) => {
                    tracing::warn!(%error, "opening not recorded");
                    None
                }
            }
        }
        Err(error) => {
            tracing::warn!(%error, "opening not recorded");
            None
        }
    };
    match opened {
        // A pupil's assignment: their page to hand in.
        Some((submission_id, submission_token)) => {
            Redirect::to(&format!("/submissions/{submission_id}/{submission_token}"))
                .into_response()
        }
        None => Redirect::to(&message_page).into_response(),
    }
}

/// A transparent 1×1 GIF.
const PIXEL: &[u8] = &[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
    0x00, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
];

/// The invisible image of a school that switched it on: records the delivery as opened
/// when its signature holds, and answers the same image either way (never cached, so a
/// second reader's mail app asks again; the state moves forward only).
async fn seen(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    if let Some(id) = reach::verify(state.auth.secret(), &token) {
        let recorded = match state.db.conn().await {
            Ok(mut pooled) => deliveries::mark_opened(&mut pooled.db(), id, now())
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(error) = recorded {
            tracing::warn!(%error, "opening not recorded");
        }
    }
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/gif")),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        PIXEL,
    )
        .into_response()
}

/// A token as it may stand in a path: the characters of a real one, else `invalid`.
fn path_token(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '~'))
    {
        s.to_owned()
    } else {
        "invalid".to_owned()
    }
}

#[derive(Debug, Deserialize)]
struct NotReachedQuery {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    days: Option<i64>,
}

async fn not_reached(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<NotReachedQuery>,
    headers: HeaderMap,
) -> Response {
    let session = match caller(&state, &headers).await {
        Ok(session) => session,
        Err(refused) => return refused,
    };
    let format = query.format.as_deref().unwrap_or("csv");
    if !matches!(format, "csv" | "pdf") {
        return refusal(
            StatusCode::BAD_REQUEST,
            "Choose a format: csv or pdf.",
            None,
        );
    }
    let scope = NotificationScope::for_user(
        session.user.school_id.clone().unwrap_or_default(),
        &session.user.id,
        session.user.role,
    );
    let days = days_or_default(query.days);
    let found = match state.db.conn().await {
        Ok(mut pooled) => {
            let mut conn = pooled.db();
            match notifications::find_in_scope(&mut conn, &scope, &id).await {
                Ok(Some(n)) => deliveries::reach_of(&mut conn, &n.id).await.map(|rows| {
                    Some((
                        n.custom_title
                            .filter(|t| !t.trim().is_empty())
                            .unwrap_or(n.title),
                        rows,
                    ))
                }),
                Ok(None) => Ok(None),
                Err(err) => Err(err),
            }
        }
        Err(err) => return crate::error::AppError::from(err).into_response(),
    };
    let (title, rows) = match found {
        Ok(Some(found)) => found,
        Ok(None) => return refusal(StatusCode::NOT_FOUND, "Notification not found.", None),
        Err(err) => return crate::error::AppError::from(err).into_response(),
    };
    let at = now();
    let missed: Vec<&ReachRow> = rows.iter().filter(|r| r.not_reached(at, days)).collect();
    let (bytes, content_type, extension) = if format == "pdf" {
        (
            paper_list(&title, &missed, at, days),
            "application/pdf",
            "pdf",
        )
    } else {
        match csv_list(&missed, at, days) {
            Ok(bytes) => (bytes, "text/csv; charset=utf-8", "csv"),
            Err(detail) => return crate::error::AppError::Internal(detail).into_response(),
        }
    };
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    let name = format!("Not reached - {}.{extension}", title.trim());
    if let Ok(value) = HeaderValue::from_str(&content_disposition(&name)) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

fn who(r: &ReachRow) -> &'static str {
    if r.audience == "parent" {
        "Parent"
    } else {
        "Pupil"
    }
}

/// A cell a spreadsheet would run as a formula is written as text (a leading `'`).
fn cell(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    }
}

/// Columns: Pupil, Form group, Who, Address, Reason.
fn csv_list(rows: &[&ReachRow], at: chrono::NaiveDateTime, days: i64) -> Result<Vec<u8>, String> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| e.to_string();
    out.write_record(["Pupil", "Form group", "Who", "Address", "Reason"])
        .map_err(fail)?;
    for r in rows {
        out.write_record([
            cell(&format!("{} {}", r.forename, r.surname)),
            cell(r.form_group.as_deref().unwrap_or("")),
            who(r).to_owned(),
            cell(r.address.as_deref().unwrap_or("")),
            cell(&r.reason(at, days)),
        ])
        .map_err(fail)?;
    }
    out.into_inner().map_err(|e| e.to_string())
}

fn span(text: impl Into<String>, bold: bool) -> Span {
    Span {
        text: text.into(),
        bold,
        italic: false,
    }
}

/// The paper list: one line per person not reached, by pupil, for the office to phone or
/// post a letter.
fn paper_list(title: &str, rows: &[&ReachRow], at: chrono::NaiveDateTime, days: i64) -> Vec<u8> {
    let mut blocks = vec![
        Block::Heading(
            1,
            vec![span(format!("Not reached: {}", title.trim()), true)],
        ),
        Block::Paragraph(vec![span(
            format!(
                "{} not reached on {}: not sent, bounced, or not opened {days} {} after sending.",
                match rows.len() {
                    1 => "1 person".to_owned(),
                    n => format!("{n} people"),
                },
                at.format("%d/%m/%Y, %H:%M"),
                if days == 1 { "day" } else { "days" },
            ),
            false,
        )]),
    ];
    for r in rows {
        let form = r
            .form_group
            .as_deref()
            .map(|f| format!(" ({f})"))
            .unwrap_or_default();
        let address = r
            .address
            .as_deref()
            .map(|a| format!(", {a}"))
            .unwrap_or_default();
        blocks.push(Block::Item {
            depth: 0,
            number: None,
            spans: vec![
                span(format!("{} {}{form}:", r.forename, r.surname), true),
                span(
                    format!(" {}{address}. {}.", who(r), r.reason(at, days)),
                    false,
                ),
            ],
        });
    }
    if rows.is_empty() {
        blocks.push(Block::Paragraph(vec![span("Everyone was reached.", false)]));
    }
    pdf::render(title, &blocks)
}
