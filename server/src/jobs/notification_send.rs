//! `notification.send` (payload `{"notificationId"}`): at the send date, one transaction
//! resolves the recipients, writes a receipt per pupil, creates assignment submissions and
//! queues one e-mail job per address and audience (or a digest), as `jobs::audience` says.
//! Running it again changes nothing: every write skips what exists and every job has an
//! idempotency key.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use core_wasm::{NotificationFrequency, NotificationType};
use diesel::result::QueryResult;
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::ids::new_id;
use crate::jobs::audience;
use crate::jobs::email_digest::DigestEmail;
use crate::jobs::email_notification::NotificationEmail;
use crate::jobs::{enqueue, enqueue_many, BackgroundJob, Job, JobError, NewJob};
use crate::models::deliveries::{self, NewDelivery};
use crate::models::notifications::{find_sendable, send_job_key};
use crate::models::recipients::{self, resolve_recipients, Filters, Recipient};
use crate::models::{address_refusals, now};
use crate::state::AppState;
use crate::transaction;

/// Sends notification `notification_id` (its receipts, submissions and e-mail jobs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendNotification {
    pub notification_id: String,
}

impl BackgroundJob for SendNotification {
    const KIND: &'static str = "notification.send";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        // Each language the recipients chose is translated once before the e-mails are
        // queued; a failure only means the original goes out (docs/translation.md).
        if let Err(err) = crate::translation::prepare(state, &self.notification_id).await {
            tracing::warn!(notification = %self.notification_id, error = %err, "translations not prepared");
        }
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let digest_hour = state.config.digest_hour;
        let id = &self.notification_id;
        let summary: SendSummary = transaction!(&mut conn, |c| {
            send_notification(c, id, now(), digest_hour).await
        })?;
        tracing::info!(notification = %self.notification_id, ?summary, "notification sent");
        Ok(())
    }
}

impl SendNotification {
    /// Queues the send of notification `id` (saved at `updated_at`) for `run_at`, in the
    /// caller's transaction. Each save has its own key
    /// (`notifications::send_job_key`), so an edit is never swallowed by the old job.
    pub async fn schedule(
        conn: &mut DbConn<'_>,
        id: &str,
        updated_at: NaiveDateTime,
        run_at: NaiveDateTime,
    ) -> QueryResult<Option<String>> {
        let job = SendNotification {
            notification_id: id.to_owned(),
        };
        enqueue(conn, &job, run_at, Some(send_job_key(id, updated_at))).await
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

fn skipped(reason: &'static str) -> SendSummary {
    SendSummary {
        skipped: Some(reason),
        ..Default::default()
    }
}

/// The ids of `recipients` that are not in `existing`.
fn without(recipients: &[Recipient], existing: Vec<String>) -> Vec<String> {
    let existing: HashSet<String> = existing.into_iter().collect();
    recipients
        .iter()
        .filter(|r| !existing.contains(&r.student_id))
        .map(|r| r.student_id.clone())
        .collect()
}

/// Does the work of one send at time `at`; call it inside a transaction.
pub async fn send_notification(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    at: NaiveDateTime,
    digest_hour: u32,
) -> Result<SendSummary, diesel::result::Error> {
    let Some(n) = find_sendable(conn, notification_id).await? else {
        return Ok(skipped("the notification is gone"));
    };
    if n.send_date.is_some_and(|d| d > at) {
        // Rescheduled: the job queued for the new date does the sending.
        return Ok(skipped("the send date is in the future"));
    }
    let Some(rules) = audience::school_rules(conn, &n.school_id).await? else {
        return Ok(skipped("the school is gone"));
    };
    let filters = Filters::from_stored(&n.filters);
    let recipients = resolve_recipients(conn, &n.school_id, &filters).await?;
    let mut summary = SendSummary {
        recipients: recipients.len(),
        ..Default::default()
    };

    // Receipts: one per pupil, kept when it exists.
    let new = without(
        &recipients,
        recipients::receipt_student_ids(conn, &n.id).await?,
    );
    summary.receipts_written = new.len();
    recipients::insert_receipts(conn, &n.id, &new, at).await?;

    // Assignments: a submission (with its link token) per pupil.
    if n.kind == NotificationType::Assignment {
        let new = without(
            &recipients,
            recipients::submission_student_ids(conn, &n.id).await?,
        );
        summary.submissions_created = new.len();
        recipients::create_submissions(conn, &n.id, &new, at).await?;
    }

    // E-mail: who may get one, by the notification, the school, refused addresses and
    // each preference. Every pupil and parent the notification is for gets a delivery row,
    // the ones not sent with the reason (docs/reach.md).
    let planned = audience::notification_audiences(&n, &rules, &recipients);
    let addresses: Vec<String> = planned.iter().filter_map(|(_, _, to)| to.clone()).collect();
    let refused = address_refusals::refused_among(conn, &addresses).await?;
    let preferences = audience::preferences(
        conn,
        addresses.iter().filter(|a| !refused.contains(*a)),
        rules.notifications_frequency,
    )
    .await?;
    let mut jobs = Vec::with_capacity(planned.len());
    let mut rows = Vec::with_capacity(planned.len());
    let mut digests = HashSet::new();
    for (student_id, whom, to) in planned {
        let not_sent = match &to {
            None => Some(deliveries::NO_ADDRESS),
            Some(to) if refused.contains(to) => Some(deliveries::REFUSED),
            Some(to) if !preferences.get(to).is_some_and(|p| p.allows(n.kind)) => {
                Some(deliveries::OPTED_OUT)
            }
            Some(_) => None,
        };
        rows.push(NewDelivery {
            id: new_id(),
            school_id: n.school_id.clone(),
            notification_id: n.id.clone(),
            student_id: student_id.clone(),
            audience: whom.as_str().to_owned(),
            address: to.clone(),
            not_sent_reason: not_sent.map(str::to_owned),
            created_at: at,
        });
        let (Some(to), None) = (to, not_sent) else {
            continue;
        };
        let Some(preference) = preferences.get(&to) else {
            continue;
        };
        match preference.frequency {
            NotificationFrequency::Immediately => {
                summary.emails_queued += 1;
                let email = NotificationEmail {
                    notification_id: n.id.clone(),
                    student_id,
                    audience: whom,
                    to,
                };
                jobs.push(NewJob::of(&email, at, Some(email.key())));
            }
            frequency => {
                let due = audience::next_digest_time(frequency, at, digest_hour);
                let digest = DigestEmail {
                    email: to,
                    frequency,
                    period_end: due,
                };
                let key = digest.key();
                if digests.insert(key.clone()) {
                    summary.digests_queued += 1;
                    jobs.push(NewJob::of(&digest, due, Some(key)));
                }
            }
        }
    }
    deliveries::insert_new(conn, rows).await?;
    enqueue_many(conn, &jobs).await?;
    Ok(summary)
}
