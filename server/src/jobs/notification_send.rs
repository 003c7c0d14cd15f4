//! `notification.send` (payload `{"notificationId"}`): at the send date, one transaction
//! resolves the recipients, writes a receipt per pupil, creates assignment submissions and
//! queues one e-mail job per address and audience (or a digest). Running it again changes
//! nothing: every write skips what exists and every job has an idempotency key.

use std::collections::{BTreeSet, HashSet};

use chrono::{Datelike, Duration, NaiveDateTime, NaiveTime, Weekday};
use core_wasm::{NotificationFrequency, NotificationType};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde::Deserialize;
use serde_json::json;

use crate::app::AppState;
use crate::db::schema::{notification_receipts, notifications, schools, submissions};
use crate::db::DbConn;
use crate::ids::{new_id, new_token};
use crate::jobs::registry::payload;
use crate::jobs::{email, enqueue_many, Job, JobError, NewJob};
use crate::models::email_preferences;
use crate::models::now;
use crate::models::recipients::{resolve_recipients, Filters};
use crate::{transaction, with_conn};

pub const KIND: &str = "notification.send";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload {
    notification_id: String,
}

/// The notification fields sending needs.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub struct Sendable {
    pub id: String,
    #[diesel(column_name = type_)]
    pub kind: NotificationType,
    pub send_date: Option<NaiveDateTime>,
    pub send_to_parent: bool,
    pub send_to_pupil: bool,
    pub filters: String,
    pub school_id: String,
}

/// A school's rules for e-mail to parents.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = schools)]
pub struct SchoolMailRules {
    pub notify_parents_general: bool,
    pub notify_parents_assignment: bool,
    pub notifications_frequency: NotificationFrequency,
}

impl SchoolMailRules {
    /// Whether the school lets a notification of `kind` be e-mailed to parents.
    pub fn parents_allowed(&self, kind: NotificationType) -> bool {
        match kind {
            NotificationType::General => self.notify_parents_general,
            NotificationType::Assignment => self.notify_parents_assignment,
        }
    }
}

pub async fn school_rules(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<SchoolMailRules>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(SchoolMailRules::as_select())
        .first(c)
        .await
        .optional())
}

/// Who is e-mailed about a pupil: the pupil, or the pupil's parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    Pupil,
    Parent,
}

impl Audience {
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::Pupil => "pupil",
            Audience::Parent => "parent",
        }
    }
}

/// What one send did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SendSummary {
    pub recipients: usize,
    pub receipts_written: usize,
    pub submissions_created: usize,
    pub emails_queued: usize,
    pub digests_queued: usize,
    /// Set when nothing was done: the notification is gone or its send date moved ahead.
    pub skipped: Option<&'static str>,
}

pub async fn run(state: &AppState, job: &Job) -> Result<(), JobError> {
    let input: Payload = payload(job)?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let digest_hour = state.config.digest_hour;
    let summary: SendSummary = transaction!(&mut conn, |c| {
        send_notification(c, &input.notification_id, now(), digest_hour).await
    })?;
    tracing::info!(notification = %input.notification_id, ?summary, "notification sent");
    Ok(())
}

/// Normalises an address for preferences and keys: trimmed, lower case; `None` when empty.
pub fn address(raw: Option<&str>) -> Option<String> {
    raw.map(|e| e.trim().to_lowercase())
        .filter(|e| e.contains('@'))
}

/// Does the work of one send at time `at`; call it inside a transaction.
pub async fn send_notification(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    at: NaiveDateTime,
    digest_hour: u32,
) -> Result<SendSummary, diesel::result::Error> {
    let found: Option<Sendable> = with_conn!(conn, |c| notifications::table
        .find(notification_id)
        .select(Sendable::as_select())
        .first(c)
        .await
        .optional())?;
    let Some(n) = found else {
        return Ok(SendSummary {
            skipped: Some("the notification is gone"),
            ..Default::default()
        });
    };
    if n.send_date.is_some_and(|d| d > at) {
        // Rescheduled: the job queued for the new date does the sending.
        return Ok(SendSummary {
            skipped: Some("the send date is in the future"),
            ..Default::default()
        });
    }
    let Some(rules) = school_rules(conn, &n.school_id).await? else {
        return Ok(SendSummary {
            skipped: Some("the school is gone"),
            ..Default::default()
        });
    };
    let filters = Filters::from_stored(&n.filters);
    let recipients = resolve_recipients(conn, &n.school_id, &filters).await?;
    let mut summary = SendSummary {
        recipients: recipients.len(),
        ..Default::default()
    };

    // Receipts: one per pupil, kept when it exists.
    let existing: HashSet<String> = with_conn!(conn, |c| notification_receipts::table
        .filter(notification_receipts::notification_id.eq(&n.id))
        .select(notification_receipts::student_id)
        .load::<String>(c)
        .await)?
    .into_iter()
    .collect();
    let receipts: Vec<(String, String, Option<NaiveDateTime>)> = recipients
        .iter()
        .filter(|r| !existing.contains(&r.student_id))
        .map(|r| (n.id.clone(), r.student_id.clone(), Some(at)))
        .collect();
    summary.receipts_written = receipts.len();
    insert_receipts(conn, receipts).await?;

    // Assignments: a submission (with its link token) per pupil.
    if n.kind == NotificationType::Assignment {
        let existing: HashSet<String> = with_conn!(conn, |c| submissions::table
            .filter(submissions::notification_id.eq(&n.id))
            .select(submissions::student_id)
            .load::<String>(c)
            .await)?
        .into_iter()
        .collect();
        let rows: Vec<NewSubmissionRow> = recipients
            .iter()
            .filter(|r| !existing.contains(&r.student_id))
            .map(|r| NewSubmissionRow {
                id: new_id(),
                created_at: at,
                updated_at: at,
                token: new_token(),
                notification_id: n.id.clone(),
                student_id: r.student_id.clone(),
            })
            .collect();
        summary.submissions_created = rows.len();
        insert_submissions(conn, rows).await?;
    }

    // E-mail: who may get one, by the notification, the school and each preference.
    let parents_allowed = n.send_to_parent && rules.parents_allowed(n.kind);
    let mut targets: Vec<(&str, Audience, String)> = Vec::new();
    for r in &recipients {
        if n.send_to_pupil {
            if let Some(to) = address(r.email.as_deref()) {
                targets.push((&r.student_id, Audience::Pupil, to));
            }
        }
        if parents_allowed {
            if let Some(to) = address(r.parent_email.as_deref()) {
                targets.push((&r.student_id, Audience::Parent, to));
            }
        }
    }
    let addresses: Vec<String> = targets
        .iter()
        .map(|(_, _, to)| to.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let preferences =
        email_preferences::ensure_for(conn, &addresses, rules.notifications_frequency).await?;
    let mut jobs = Vec::with_capacity(targets.len());
    let mut digests = HashSet::new();
    for (student_id, audience, to) in targets {
        let Some(preference) = preferences.get(&to) else {
            continue;
        };
        if !preference.allows(n.kind) {
            continue;
        }
        match preference.frequency {
            NotificationFrequency::Immediately => {
                summary.emails_queued += 1;
                jobs.push(NewJob {
                    kind: email::NOTIFICATION_KIND.into(),
                    payload: json!({
                        "notificationId": n.id,
                        "studentId": student_id,
                        "audience": audience.as_str(),
                        "to": to,
                    }),
                    run_at: at,
                    idempotency_key: Some(format!(
                        "email:{}:{}:{}",
                        n.id,
                        student_id,
                        audience.as_str()
                    )),
                });
            }
            frequency => {
                let due = next_digest_time(frequency, at, digest_hour);
                let key = format!("digest:{to}:{}", due.format("%Y-%m-%dT%H:%M"));
                if digests.insert(key.clone()) {
                    summary.digests_queued += 1;
                    jobs.push(NewJob {
                        kind: email::DIGEST_KIND.into(),
                        payload: json!({
                            "email": to,
                            "frequency": frequency,
                            "periodEnd": due,
                        }),
                        run_at: due,
                        idempotency_key: Some(key),
                    });
                }
            }
        }
    }
    enqueue_many(conn, &jobs).await?;
    Ok(summary)
}

/// The next digest time strictly after `at`: today's or tomorrow's `hour`:00 UTC for daily
/// digests; the next Friday at that hour for weekly ones.
pub fn next_digest_time(
    frequency: NotificationFrequency,
    at: NaiveDateTime,
    hour: u32,
) -> NaiveDateTime {
    let time = NaiveTime::from_hms_opt(hour.min(23), 0, 0).unwrap_or(NaiveTime::MIN);
    let mut day = at.date();
    loop {
        let candidate = day.and_time(time);
        let weekday_ok =
            frequency != NotificationFrequency::Weekly || day.weekday() == Weekday::Fri;
        if candidate > at && weekday_ok {
            return candidate;
        }
        day += Duration::days(1);
    }
}

/// The length of a digest period (the window of a first digest).
pub fn digest_period(frequency: NotificationFrequency) -> Duration {
    match frequency {
        NotificationFrequency::Weekly => Duration::days(7),
        _ => Duration::days(1),
    }
}

#[derive(Insertable)]
#[diesel(table_name = submissions)]
struct NewSubmissionRow {
    id: String,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
    token: String,
    notification_id: String,
    student_id: String,
}

async fn insert_receipts(
    conn: &mut DbConn<'_>,
    rows: Vec<(String, String, Option<NaiveDateTime>)>,
) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let values: Vec<_> = rows
        .into_iter()
        .map(|(n, s, at)| {
            (
                notification_receipts::notification_id.eq(n),
                notification_receipts::student_id.eq(s),
                notification_receipts::sent_at.eq(at),
            )
        })
        .collect();
    match conn {
        DbConn::Postgres(ref mut pg) => {
            for chunk in values.chunks(1000) {
                diesel::insert_into(notification_receipts::table)
                    .values(chunk)
                    .on_conflict_do_nothing()
                    .execute(&mut **pg)
                    .await?;
            }
        }
        DbConn::Sqlite(ref mut sq) => {
            sq.spawn_blocking(move |c| {
                for row in values {
                    diesel::RunQueryDsl::execute(
                        diesel::insert_into(notification_receipts::table)
                            .values(row)
                            .on_conflict_do_nothing(),
                        c,
                    )?;
                }
                Ok(())
            })
            .await?;
        }
    }
    Ok(())
}

async fn insert_submissions(conn: &mut DbConn<'_>, rows: Vec<NewSubmissionRow>) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    match conn {
        DbConn::Postgres(ref mut pg) => {
            for chunk in rows.chunks(1000) {
                diesel::insert_into(submissions::table)
                    .values(chunk)
                    .execute(&mut **pg)
                    .await?;
            }
        }
        DbConn::Sqlite(ref mut sq) => {
            sq.spawn_blocking(move |c| {
                for row in &rows {
                    diesel::RunQueryDsl::execute(
                        diesel::insert_into(submissions::table).values(row),
                        c,
                    )?;
                }
                Ok(())
            })
            .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn digests_go_out_at_the_next_hour_or_friday() {
        let at = NaiveDate::from_ymd_opt(2026, 11, 23) // a Monday
            .and_then(|d| d.and_hms_opt(17, 30, 0))
            .expect("date");
        assert_eq!(
            next_digest_time(NotificationFrequency::Daily, at, 16).to_string(),
            "2026-11-24 16:00:00"
        );
        assert_eq!(
            next_digest_time(NotificationFrequency::Daily, at, 18).to_string(),
            "2026-11-23 18:00:00"
        );
        assert_eq!(
            next_digest_time(NotificationFrequency::Weekly, at, 16).to_string(),
            "2026-11-27 16:00:00"
        );
    }
}
