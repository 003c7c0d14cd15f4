//! `notification.*`: the editor (create, update, get, live recipient count, filter pickers),
//! the view page (recipients, submissions) and Activity (list). Everything is scoped by
//! `ctx.school_id()`; teachers see the notifications they sent, admins all of their school's
//! (the same rule as the Feedback Hub's `MarkerScope`).

pub mod analyse_image;
pub mod count_recipients;
pub mod create;
pub mod filter_options;
pub mod get;
pub mod list;
pub mod public_message;
pub mod reach;
pub mod recipients;
pub mod submissions;
pub mod update;

use chrono::{Duration, NaiveDateTime};
use core_wasm::limits::MAX_TITLE_CHARS;
use core_wasm::NotificationType;

use crate::db::DbConn;
use crate::models::notifications::{FeedbackRelease, NotificationScope, NotificationStatus};
use crate::models::recipients::{count_recipients as count_audience, Filters};
use crate::rpc::input::check_length;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "notification.analyseImage" => analyse_image),
        procedure!(Query "notification.countRecipients" => count_recipients),
        procedure!(Mutation "notification.create" => create),
        procedure!(Query "notification.filterOptions" => filter_options),
        procedure!(Query "notification.get" => get),
        procedure!(Query "notification.list" => list),
        procedure!(Query "notification.publicMessage" => public_message),
        procedure!(Query "notification.reach" => reach),
        procedure!(Query "notification.recipients" => recipients),
        procedure!(Query "notification.submissions" => submissions),
        procedure!(Mutation "notification.update" => update),
    ]
}

/// The notifications the caller may see and change: their school's, and only those they
/// sent unless they are an admin.
pub fn scope(ctx: &Ctx) -> RpcResult<NotificationScope> {
    let user = ctx.require_user()?;
    Ok(NotificationScope::for_user(ctx.school_id()?.to_owned(), &user.id, user.role))
}

pub fn not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Notification not found.")
}

use crate::mail::templates::sanitize_body;

/// The visible text of sanitised HTML (tags dropped, entities left), for the empty check.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ").trim().to_owned()
}

impl Ts for Filters {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("NotificationFilters", |gen| {
            vec![
                ("classes".into(), Vec::<String>::ts(gen)),
                ("yearGroups".into(), Vec::<String>::ts(gen)),
                ("formGroups".into(), Vec::<String>::ts(gen)),
                ("students".into(), Vec::<String>::ts(gen)),
            ]
        });
        "NotificationFilters".into()
    }
}

impl Ts for NotificationStatus {
    fn ts(_: &mut TsGen) -> String {
        NotificationStatus::ALL
            .iter()
            .map(|s| format!("'{}'", s.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

impl Ts for FeedbackRelease {
    fn ts(_: &mut TsGen) -> String {
        FeedbackRelease::ALL
            .iter()
            .map(|r| format!("'{}'", r.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// The editor's optional 'Feedback release' choice on the wire: `'WHEN_MARKED' | 'ON_DATE'
/// | 'BY_HAND'`, or absent (When marked on create; unchanged on update). Read as text so a
/// wrong value gets a field error, not a decoding failure.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ReleaseChoice(pub Option<String>);

impl Ts for ReleaseChoice {
    const OPTIONAL: bool = true;
    fn ts(gen: &mut TsGen) -> String {
        format!("{} | null", FeedbackRelease::ts(gen))
    }
}

/// The optional release date (ON_DATE) on the wire: a `Date`, or absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ReleaseDate(pub Option<JsDate>);

impl Ts for ReleaseDate {
    const OPTIONAL: bool = true;
    fn ts(gen: &mut TsGen) -> String {
        Option::<JsDate>::ts(gen)
    }
}

/// A checked 'Feedback release' setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseSetting {
    pub release: FeedbackRelease,
    /// Set only for ON_DATE.
    pub at: Option<NaiveDateTime>,
}

impl ReleaseSetting {
    pub const WHEN_MARKED: ReleaseSetting = ReleaseSetting {
        release: FeedbackRelease::WhenMarked,
        at: None,
    };
}

/// Checks the 'Feedback release' choice of a notification of `kind` at `now`. `current` is
/// the stored setting of an edited notification (absent choice: unchanged; its own date
/// may have passed). Only assignments hold feedback; ON_DATE needs a date in the future.
pub fn check_release(
    errors: &mut FieldErrors,
    kind: NotificationType,
    choice: &ReleaseChoice,
    at: &ReleaseDate,
    current: Option<ReleaseSetting>,
    now: NaiveDateTime,
) -> ReleaseSetting {
    let fallback = current.unwrap_or(ReleaseSetting::WHEN_MARKED);
    let Some(text) = choice.0.as_deref() else {
        return fallback;
    };
    let Some(release) = FeedbackRelease::parse(text) else {
        errors.add(
            "feedbackRelease",
            "Choose When marked, On a date or By hand.",
        );
        return fallback;
    };
    if kind != NotificationType::Assignment {
        if release != FeedbackRelease::WhenMarked {
            errors.add("feedbackRelease", "Only assignments can hold feedback.");
        }
        return ReleaseSetting::WHEN_MARKED;
    }
    if release != FeedbackRelease::OnDate {
        return ReleaseSetting { release, at: None };
    }
    let date = at.0.map(|d| d.0.naive_utc());
    let Some(date) = date else {
        errors.add("feedbackReleaseAt", "Choose when the feedback is released.");
        return fallback;
    };
    // The date already stored may have passed; any other must be ahead.
    let unchanged = current.is_some_and(|c| {
        c.release == FeedbackRelease::OnDate
            && c.at.is_some_and(|a| {
                a.and_utc().timestamp_millis() == date.and_utc().timestamp_millis()
            })
    });
    if unchanged {
        return fallback;
    }
    if date <= now {
        errors.add(
            "feedbackReleaseAt",
            "The release date must be in the future.",
        );
        return fallback;
    }
    ReleaseSetting {
        release,
        at: Some(date),
    }
}

/// Stores `new` on notification `id` (was `old`) and moves its queued release: the old
/// date's job is taken off the queue, a new date gets its own, and switching to When
/// marked queues a release of the held marks at once. In the caller's transaction.
pub async fn apply_release(
    conn: &mut DbConn<'_>,
    id: &str,
    old: ReleaseSetting,
    new: ReleaseSetting,
    now: NaiveDateTime,
) -> RpcResult<()> {
    use crate::jobs::feedback_release::ReleaseFeedback;
    if old == new {
        return Ok(());
    }
    crate::models::marks::set_feedback_release(conn, id, new.release, new.at).await?;
    if let (FeedbackRelease::OnDate, Some(at)) = (old.release, old.at) {
        ReleaseFeedback::unschedule(conn, id, at).await?;
    }
    match (new.release, new.at) {
        (FeedbackRelease::OnDate, Some(at)) => {
            ReleaseFeedback::schedule(conn, id, at).await?;
        }
        (FeedbackRelease::WhenMarked, _) => {
            ReleaseFeedback::schedule(conn, id, now).await?;
        }
        _ => {}
    }
    Ok(())
}

/// `'GENERAL' | 'ASSIGNMENT'`, for the hand-written wire types with a `type` field.
pub fn notification_type_ts() -> String {
    NotificationType::ALL
        .iter()
        .map(|t| format!("'{}'", t.as_str()))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The editable fields as the client sends them (create and update share them).
#[derive(Debug, Clone)]
pub struct DraftInput {
    pub title: String,
    pub custom_title: Option<String>,
    pub body: String,
    pub send_date: Option<JsDate>,
    pub submission_due_date: Option<JsDate>,
    pub send_to_pupil: bool,
    pub send_to_parent: bool,
    pub filters: Filters,
    pub feedback_release: ReleaseChoice,
    pub feedback_release_at: ReleaseDate,
    /// The stored setting, when editing.
    pub current_release: Option<ReleaseSetting>,
}

/// A checked draft, ready to store.
#[derive(Debug, Clone)]
pub struct Draft {
    pub title: String,
    pub custom_title: Option<String>,
    /// Sanitised.
    pub body: String,
    pub send_date: Option<NaiveDateTime>,
    pub submission_due_date: Option<NaiveDateTime>,
    pub send_to_pupil: bool,
    pub send_to_parent: bool,
    pub filters: Filters,
    pub release: ReleaseSetting,
}

/// How far in the past a send date may be (the time spent filling the form) before it is
/// refused rather than read as "now".
const SEND_DATE_GRACE: Duration = Duration::minutes(10);

/// Checks `input` for a notification of `kind` in `school_id` at `now`; every problem is
/// reported at once, by field.
pub async fn check_draft(
    conn: &mut DbConn<'_>,
    school_id: &str,
    kind: NotificationType,
    input: DraftInput,
    now: NaiveDateTime,
) -> RpcResult<Draft> {
    let mut errors = FieldErrors::default();
    let title = input.title.trim().to_owned();
    if title.is_empty() {
        errors.add("title", "Enter a title.");
    } else {
        check_length(&mut errors, "title", &title, MAX_TITLE_CHARS);
    }
    let custom_title = input
        .custom_title
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    if let Some(custom_title) = &custom_title {
        check_length(&mut errors, "customTitle", custom_title, MAX_TITLE_CHARS);
    }
    if input.body.len() > 200_000 {
        errors.add("body", "The message is too long.");
    }
    let body = sanitize_body(&input.body);
    if visible_text(&body).is_empty() {
        errors.add("body", "Write a message.");
    }
    let send_date = input.send_date.map(|d| d.0.naive_utc());
    if send_date.is_some_and(|at| at < now - SEND_DATE_GRACE) {
        errors.add(
            "sendDate",
            "The send date is in the past. Leave it empty to send now.",
        );
    }
    // A send date a moment ago means now.
    let send_date = send_date.filter(|at| *at > now);
    let submission_due_date = match kind {
        NotificationType::Assignment => {
            let due = input.submission_due_date.map(|d| d.0.naive_utc());
            match due {
                None => errors.add("submissionDueDate", "Choose a due date."),
                Some(due) if due <= send_date.unwrap_or(now) => errors.add(
                    "submissionDueDate",
                    "The due date must be after the send date.",
                ),
                Some(_) => {}
            }
            due
        }
        NotificationType::General => None,
    };
    if !input.send_to_pupil && !input.send_to_parent {
        errors.add("sendToPupil", "Choose pupils, parents or both.");
    }
    let release = check_release(
        &mut errors,
        kind,
        &input.feedback_release,
        &input.feedback_release_at,
        input.current_release,
        now,
    );
    let mut filters = input.filters;
    for list in [
        &mut filters.classes,
        &mut filters.year_groups,
        &mut filters.form_groups,
        &mut filters.students,
    ] {
        list.sort();
        list.dedup();
    }
    // Every stored id must be of the caller's school, checked when stored.
    if !crate::models::recipients::all_in_school(conn, school_id, &filters).await? {
        return Err(RpcError::new(
            crate::rpc::ErrorCode::NotFound,
            "A chosen recipient was not found.",
        ));
    }
    if count_audience(conn, school_id, &filters).await? == 0 {
        errors.add("filters", "Choose at least one recipient.");
    }
    errors.into_result()?;
    Ok(Draft {
        title,
        custom_title,
        body,
        send_date,
        submission_due_date,
        send_to_pupil: input.send_to_pupil,
        send_to_parent: input.send_to_parent,
        filters,
        release,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_keeps_only_the_allow_list() {
        let dirty = r#"<p onclick="steal()">Hi <b>there</b><script>alert(1)</script></p><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><a href="https://example.org" target="_blank">ok</a><ul><li style="color:red">one</li></ul>"#;
        let clean = sanitize_body(dirty);
        assert!(!clean.contains("script"), "{clean}");
        assert!(!clean.contains("onclick"), "{clean}");
        assert!(
            !clean.contains("onerror") && !clean.contains("<img"),
            "{clean}"
        );
        assert!(!clean.contains("javascript"), "{clean}");
        assert!(!clean.contains("style"), "{clean}");
        assert!(clean.contains("<p>Hi <b>there</b></p>"), "{clean}");
        assert!(
            clean.contains(r#"<a href="https://example.org" rel="noopener noreferrer">ok</a>"#),
            "{clean}"
        );
        assert!(clean.contains("<ul><li>one</li></ul>"), "{clean}");
        assert_eq!(visible_text("<p> </p><br>"), "");
    }
}
