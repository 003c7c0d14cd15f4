//! E-mail jobs: one message per job, so that the job row is the record of the message.
//!
//! Exactly once: a worker marks the job `DONE` only after the SMTP server accepted the
//! message (lettre returns after the 250 that answers DATA). A crash after that accept and
//! before the `DONE` commit leaves the job `RUNNING`; once its lease expires it is sent
//! again, and that copy carries the same `Message-ID: <{job id}@voicemark>`, so at most one
//! duplicate per crash can reach a receiver, and one that deduplicates by Message-ID sees
//! it once. A job can never be queued twice: its idempotency key is unique.
//!
//! - `email.notification` `{notificationId, studentId, audience, to}`: a message or an
//!   assignment (pupils get their `/submissions/{id}/{token}` link).
//! - `email.digest` `{email, frequency, periodEnd}`: everything sent to that address since
//!   its last digest, in one message.
//! - `email.feedback` `{submissionId, audience, to}`: the feedback on a submission.

use chrono::NaiveDateTime;
use core_wasm::{NotificationFrequency, NotificationType};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde::Deserialize;

use crate::app::AppState;
use crate::db::schema::{notification_receipts, notifications, schools, students, submissions};
use crate::db::DbConn;
use crate::jobs::notification_send::{digest_period, school_rules, Audience};
use crate::jobs::registry::payload;
use crate::jobs::{Job, JobError};
use crate::mail::templates::{escape, html_to_text};
use crate::mail::{Email, Template};
use crate::models::email_preferences::{self, Preference};
use crate::with_conn;

pub const NOTIFICATION_KIND: &str = "email.notification";
pub const DIGEST_KIND: &str = "email.digest";
pub const FEEDBACK_KIND: &str = "email.feedback";

diesel::define_sql_function! {
    /// SQL `lower()` on an optional text.
    fn lower(x: diesel::sql_types::Nullable<diesel::sql_types::Text>) -> diesel::sql_types::Nullable<diesel::sql_types::Text>;
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NotificationEmail {
    notification_id: String,
    student_id: String,
    audience: String,
    to: String,
}

/// The notification fields an e-mail shows.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub struct Shown {
    pub id: String,
    #[diesel(column_name = type_)]
    pub kind: NotificationType,
    pub title: String,
    pub custom_title: Option<String>,
    pub body: String,
    pub submission_due_date: Option<NaiveDateTime>,
    pub send_to_parent: bool,
    pub school_id: String,
}

impl Shown {
    pub fn heading(&self) -> &str {
        self.custom_title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(&self.title)
    }

    fn details(&self) -> String {
        match self.submission_due_date {
            Some(due) => format!("Due: {} UTC", due.format("%A %-d %B %Y, %H:%M")),
            None => String::new(),
        }
    }
}

pub async fn find_shown(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<(Shown, String)>> {
    with_conn!(conn, |c| notifications::table
        .inner_join(schools::table)
        .filter(notifications::id.eq(id))
        .select((Shown::as_select(), schools::name))
        .first(c)
        .await
        .optional())
}

async fn pupil_name(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| students::table
        .find(id)
        .select((students::forename, students::surname))
        .first(c)
        .await
        .optional())
}

async fn submission_link(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    student_id: &str,
) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| submissions::table
        .filter(submissions::notification_id.eq(notification_id))
        .filter(submissions::student_id.eq(student_id))
        .select((submissions::id, submissions::token))
        .first(c)
        .await
        .optional())
}

fn preferences_link(state: &AppState, preference: &Preference) -> String {
    format!(
        "{}/preferences/{}",
        state.config.public_url, preference.token
    )
}

/// Sends `email` as job `job` (the job id is the Message-ID).
async fn deliver(state: &AppState, job: &Job, to: &str, email: Email) -> Result<(), JobError> {
    state.mailer.send_with_id(to, email, Some(&job.id)).await?;
    Ok(())
}

pub async fn run_notification(state: &AppState, job: &Job) -> Result<(), JobError> {
    let input: NotificationEmail = payload(job)?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let Some((n, school)) = find_shown(&mut conn, &input.notification_id).await? else {
        return Ok(()); // deleted since: nothing to say
    };
    let Some((forename, surname)) = pupil_name(&mut conn, &input.student_id).await? else {
        return Ok(());
    };
    let Some(preference) = email_preferences::find(&mut conn, &input.to).await? else {
        return Ok(());
    };
    if !preference.allows(n.kind) {
        return Ok(()); // switched off since it was queued
    }
    let pupil = input.audience == Audience::Pupil.as_str();
    let body_text = html_to_text(&n.body);
    let details = n.details();
    let prefs = preferences_link(state, &preference);
    let email = if pupil && n.kind == NotificationType::Assignment {
        let Some((id, token)) = submission_link(&mut conn, &n.id, &input.student_id).await? else {
            return Err(JobError::Retry("the pupil's submission is missing".into()));
        };
        let link = format!("{}/submissions/{id}/{token}", state.config.public_url);
        Template::Assignment.render(&[
            ("forename", &forename),
            ("school", &school),
            ("title", n.heading()),
            ("body", &body_text),
            ("body_html", &n.body),
            ("details", &details),
            ("submission_link", &link),
            ("preferences_link", &prefs),
        ])
    } else {
        let (greeting, about) = if pupil {
            (format!("Hello {forename},"), "your learning".to_owned())
        } else {
            ("Hello,".to_owned(), format!("{forename} {surname}"))
        };
        Template::Notification.render(&[
            ("greeting", &greeting),
            ("school", &school),
            ("about", &about),
            ("title", n.heading()),
            ("body", &body_text),
            ("body_html", &n.body),
            ("details", &details),
            ("preferences_link", &prefs),
        ])
    };
    drop(pooled);
    deliver(state, job, &input.to, email).await
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DigestEmail {
    email: String,
    frequency: NotificationFrequency,
    period_end: NaiveDateTime,
}

/// One line of a digest.
#[derive(Debug, Clone, Queryable)]
struct DigestRow {
    notification: Shown,
    school: String,
    student_id: String,
    forename: String,
    pupil_email: Option<String>,
    parent_email: Option<String>,
    notify_parents_general: bool,
    notify_parents_assignment: bool,
    send_to_pupil: bool,
}

pub async fn run_digest(state: &AppState, job: &Job) -> Result<(), JobError> {
    let input: DigestEmail = payload(job)?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let Some(preference) = email_preferences::find(&mut conn, &input.email).await? else {
        return Ok(());
    };
    let since = preference
        .last_digest_at
        .unwrap_or(input.period_end - digest_period(input.frequency));
    if since >= input.period_end {
        return Ok(()); // this period's digest already went out
    }
    let address = input.email.as_str();
    let rows: Vec<DigestRow> = with_conn!(&mut conn, |c| notification_receipts::table
        .inner_join(notifications::table.inner_join(schools::table))
        .inner_join(students::table)
        .filter(notification_receipts::sent_at.gt(since))
        .filter(notification_receipts::sent_at.le(input.period_end))
        .filter(
            lower(students::email.nullable())
                .eq(address)
                .or(lower(students::parent_email).eq(address))
        )
        .order((
            notification_receipts::sent_at.asc(),
            notifications::id.asc()
        ))
        .select((
            Shown::as_select(),
            schools::name,
            students::id,
            students::forename,
            students::email,
            students::parent_email,
            schools::notify_parents_general,
            schools::notify_parents_assignment,
            notifications::send_to_pupil,
        ))
        .load(c)
        .await)?;
    let mut items_text = String::new();
    let mut items_html = String::new();
    let mut count = 0;
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let n = &row.notification;
        let as_pupil = row.send_to_pupil
            && row
                .pupil_email
                .as_deref()
                .map(|e| e.trim().to_lowercase())
                .as_deref()
                == Some(address);
        let parents_allowed = match n.kind {
            NotificationType::General => row.notify_parents_general,
            NotificationType::Assignment => row.notify_parents_assignment,
        };
        let as_parent = n.send_to_parent
            && parents_allowed
            && row
                .parent_email
                .as_deref()
                .map(|e| e.trim().to_lowercase())
                .as_deref()
                == Some(address);
        if !(as_pupil || as_parent) || !preference.allows(n.kind) {
            continue;
        }
        if !seen.insert((n.id.clone(), row.student_id.clone())) {
            continue;
        }
        count += 1;
        let link = if as_pupil && n.kind == NotificationType::Assignment {
            submission_link(&mut conn, &n.id, &row.student_id)
                .await?
                .map(|(id, token)| format!("{}/submissions/{id}/{token}", state.config.public_url))
        } else {
            None
        };
        let about = if as_pupil {
            "you".to_owned()
        } else {
            row.forename.clone()
        };
        items_text.push_str(&format!(
            "* {} (from {}, for {about})\n{}\n{}{}\n",
            n.heading(),
            row.school,
            html_to_text(&n.body),
            n.details(),
            link.as_deref()
                .map(|l| format!("\nHand in your work: {l}\n"))
                .unwrap_or_default(),
        ));
        items_html.push_str(&format!(
            "<h3 style=\"font-size: 1.05em\">{} <small>(from {}, for {})</small></h3><div>{}</div><p>{}</p>{}",
            escape(n.heading()),
            escape(&row.school),
            escape(&about),
            n.body,
            escape(&n.details()),
            link.as_deref()
                .map(|l| format!("<p><a href=\"{}\">Hand in your work</a></p>", escape(l)))
                .unwrap_or_default(),
        ));
    }
    if count > 0 {
        let period = match input.frequency {
            NotificationFrequency::Weekly => "weekly",
            _ => "daily",
        };
        let email = Template::Digest.render(&[
            ("period", period),
            ("count", &count.to_string()),
            ("items", &items_text),
            ("items_html", &items_html),
            ("preferences_link", &preferences_link(state, &preference)),
        ]);
        deliver(state, job, &input.email, email).await?;
    }
    // After the send: a crash before this line sends the same digest (same Message-ID)
    // again; after it, a rerun finds the period done and sends nothing.
    email_preferences::mark_digest_sent(&mut conn, &input.email, input.period_end).await?;
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FeedbackEmail {
    submission_id: String,
    audience: String,
    to: String,
}

pub async fn run_feedback(state: &AppState, job: &Job) -> Result<(), JobError> {
    let input: FeedbackEmail = payload(job)?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let Some(marked) =
        crate::jobs::feedback_email::find_marked(&mut conn, &input.submission_id).await?
    else {
        return Ok(());
    };
    let Some(preference) = email_preferences::find(&mut conn, &input.to).await? else {
        return Ok(());
    };
    if !preference.allows(marked.notification.kind) {
        return Ok(());
    }
    let pupil = input.audience == Audience::Pupil.as_str();
    let link = format!(
        "{}/submissions/{}/{}",
        state.config.public_url, input.submission_id, marked.token
    );
    let (greeting, about, link_line, link_html) = if pupil {
        (
            format!("Hello {},", marked.forename),
            "Your work".to_owned(),
            format!("See it on your page: {link}\n"),
            format!(
                "<p><a href=\"{}\">See it on your page</a></p>",
                escape(&link)
            ),
        )
    } else {
        (
            "Hello,".to_owned(),
            format!("{}'s work", marked.forename),
            String::new(),
            String::new(),
        )
    };
    let email = Template::Feedback.render(&[
        ("greeting", &greeting),
        ("about", &about),
        ("title", marked.notification.heading()),
        ("sentiment", marked.sentiment_label()),
        ("feedback", &marked.feedback),
        ("link_line", &link_line),
        ("link_html", &link_html),
        ("preferences_link", &preferences_link(state, &preference)),
    ]);
    drop(pooled);
    deliver(state, job, &input.to, email).await
}

/// Whether the school lets `kind` go to parents (for callers outside this module).
pub async fn parents_allowed(
    conn: &mut DbConn<'_>,
    school_id: &str,
    kind: NotificationType,
) -> QueryResult<bool> {
    Ok(school_rules(conn, school_id)
        .await?
        .is_some_and(|r| r.parents_allowed(kind)))
}
