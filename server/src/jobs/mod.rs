//! Durable background jobs, kept in the `jobs` table of the same database (no extra
//! service). Work is enqueued inside the transaction that makes it necessary, so a job
//! exists exactly when its cause was committed.
//!
//! Every job is a type, one per file, in the style of crates.io's background jobs: a
//! struct that is its own payload (serialised as the row's JSON `payload`) and implements
//! [`BackgroundJob`] with its `KIND` (the row's `kind`) and `run`. Code queues a job with
//! [`enqueue`] (or [`NewJob::of`] + [`enqueue_many`] for a batch), never with a kind string
//! or a hand-written JSON payload; the [`Registry`] is built from the types. Who gets which
//! e-mail is decided in one place, [`audience`], which the e-mail jobs call.
//!
//! | kind | type | file |
//! |---|---|---|
//! | `notification.send` | [`notification_send::SendNotification`] | `notification_send.rs` |
//! | `email.notification` | [`email_notification::NotificationEmail`] | `email_notification.rs` |
//! | `email.digest` | [`email_digest::DigestEmail`] | `email_digest.rs` |
//! | `feedback.email` | [`feedback_send::SendFeedback`] | `feedback_send.rs` |
//! | `feedback.release_held` | [`feedback_release::ReleaseFeedback`] | `feedback_release.rs` |
//! | `email.feedback` | [`email_feedback::FeedbackEmail`] | `email_feedback.rs` |
//! | `files.expire` | [`file_expiry::ExpireFiles`] | `file_expiry.rs` |
//! | `idempotency.sweep` | [`idempotency_sweep::SweepIdempotencyKeys`] | `idempotency_sweep.rs` |
//! | `email.account` | [`email_account::AccountEmail`] | `email_account.rs` |
//! | `task.process_item` | [`task_process::ProcessTaskItem`] | `task_process.rs` (+ `task_extract.rs`) |
//! | `voice_note.transcribe` | [`voice_note_transcribe::TranscribeVoiceNote`] | `voice_note_transcribe.rs` |
//! | `stripe.event` | [`stripe_event::ApplyStripeEvent`] | `stripe_event.rs` |
//! | `mis.sync` | [`mis_sync::SyncMis`] | `mis_sync.rs` |
//! | `bounces.poll` | [`bounce_poll::PollBounces`] | `bounce_poll.rs` |
//! | `insights.prepare` | [`insights_prepare::PrepareInsights`] | `insights_prepare.rs` |
//!
//! A job's life: `QUEUED` → (claimed by a worker: `locked_at`, `locked_by`, `attempts + 1`)
//! `RUNNING` → `DONE` (`finished_at`), or back to `QUEUED` with `run_at = now + backoff`
//! and `last_error`, or `FAILED` once `attempts` reaches `max_attempts`. A job left
//! `RUNNING` longer than the lease (its worker died) is claimed again. The SQL of all this
//! is `crate::models::jobs`. See `docs/jobs-and-mail.md`.

pub mod audience;
pub mod bounce_poll;
pub mod email_account;
pub mod email_digest;
pub mod email_feedback;
pub mod email_invite;
pub mod email_notification;
pub mod email_support;
pub mod feedback_release;
pub mod feedback_send;
pub mod file_expiry;
pub mod idempotency_sweep;
pub mod insights_prepare;
pub mod mis_sync;
pub mod notification_send;
pub mod registry;
pub mod stripe_event;
pub mod task_extract;
pub mod task_import_microsoft;
pub mod task_process;
pub mod voice_note_transcribe;
pub mod worker;

use std::future::Future;

use chrono::NaiveDateTime;
use diesel::result::QueryResult;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::db::DbConn;
use crate::mail::Email;
use crate::state::AppState;

pub use crate::models::jobs::{
    backoff, claim, complete, fail, fail_abandoned, find, find_by_key, release, renew_lease,
    status, Job, NewJob,
};
pub use registry::{Handler, Registry};
pub use worker::{WorkerSettings, Workers};

/// A kind of background job. The implementing type is the job's payload: it is stored as
/// JSON in `jobs.payload` and read back before `run`, so its serde shape is the stored
/// format (rows already queued must still read: change it only compatibly).
pub trait BackgroundJob: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The stored `jobs.kind`, e.g. `notification.send`. Never change a released one.
    const KIND: &'static str;

    /// Does the work. `job` is the row (its id is the Message-ID of e-mail jobs).
    fn run(&self, state: &AppState, job: &Job)
        -> impl Future<Output = Result<(), JobError>> + Send;
}

impl NewJob {
    /// The row that queues `job` for `run_at`; with a key, it is queued at most once.
    pub fn of<J: BackgroundJob>(
        job: &J,
        run_at: NaiveDateTime,
        idempotency_key: Option<String>,
    ) -> NewJob {
        NewJob {
            kind: J::KIND.to_owned(),
            // Payloads are plain structs of strings, enums and times: serialising cannot fail
            // (a Null would fail the job visibly as unreadable, never silently).
            payload: serde_json::to_value(job).unwrap_or(serde_json::Value::Null),
            run_at,
            idempotency_key,
        }
    }
}

/// Queues `job` to run at `run_at`, in the caller's transaction; returns its id, or `None`
/// when a job with the same idempotency key exists.
pub async fn enqueue<J: BackgroundJob>(
    conn: &mut DbConn<'_>,
    job: &J,
    run_at: NaiveDateTime,
    idempotency_key: Option<String>,
) -> QueryResult<Option<String>> {
    crate::models::jobs::insert(conn, &NewJob::of(job, run_at, idempotency_key)).await
}

/// Queues many jobs (built with [`NewJob::of`]) at once, skipping keys already queued;
/// returns how many were new.
pub async fn enqueue_many(conn: &mut DbConn<'_>, batch: &[NewJob]) -> QueryResult<usize> {
    crate::models::jobs::insert_many(conn, batch).await
}

/// Why a run failed. `Retry` goes back to the queue with backoff; `Permanent` fails the job
/// at once (a payload that cannot be read will not read better later).
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("{0}")]
    Retry(String),
    #[error("{0}")]
    Permanent(String),
    /// Try again after exactly this long (a provider's 429 with `Retry-After`), not after
    /// the usual backoff.
    #[error("{message}")]
    RetryAfter {
        message: String,
        after: std::time::Duration,
    },
}

impl JobError {
    pub fn is_permanent(&self) -> bool {
        matches!(self, JobError::Permanent(_))
    }

    /// The wait the failure asked for, if any.
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        match self {
            JobError::RetryAfter { after, .. } => Some(*after),
            _ => None,
        }
    }
}

impl From<diesel::result::Error> for JobError {
    fn from(err: diesel::result::Error) -> Self {
        JobError::Retry(format!("database: {err}"))
    }
}

impl From<crate::db::DbError> for JobError {
    fn from(err: crate::db::DbError) -> Self {
        JobError::Retry(format!("database: {err}"))
    }
}

impl From<crate::mail::MailError> for JobError {
    fn from(err: crate::mail::MailError) -> Self {
        match err {
            // A malformed address will not improve with time.
            crate::mail::MailError::Address { .. } => JobError::Permanent(err.to_string()),
            // The server refused the recipient for good (`send_email` records it).
            crate::mail::MailError::Refused { .. } => JobError::Permanent(err.to_string()),
            other => JobError::Retry(other.to_string()),
        }
    }
}

/// Reads a job's JSON payload as `T`, or fails the job for good.
pub fn payload<T: DeserializeOwned>(job: &Job) -> Result<T, JobError> {
    serde_json::from_str(&job.payload)
        .map_err(|e| JobError::Permanent(format!("unreadable payload: {e}")))
}

/// Sends `email` to `to` as job `job`: the job id is the Message-ID, so a copy sent again
/// after a crash carries the same one (see `email_notification`).
///
/// Refused addresses (docs/bounces.md), for every e-mail job in one place:
/// - `to` already refused (`address_refusals`): nothing is sent, the skip is logged and the
///   job fails for good with the refusal in `last_error` (FAILED, no retries);
/// - the mail server refuses it now (a 5xx to RCPT TO or DATA): the address is refused
///   with the server's words, and the job fails for good the same way.
///
/// For an `email.notification` job the delivery (notification, pupil, audience from the
/// payload) becomes Not sent / REFUSED with the reason, and a sent message carries the
/// delivery's id (VERP token, SendGrid custom argument) so a later bounce finds it.
pub async fn send_email(
    state: &AppState,
    job: &Job,
    to: &str,
    email: Email,
) -> Result<(), JobError> {
    use crate::models::{address_refusals, bounces};
    let address = crate::addresses::normalise_email(to);
    let delivery = notification_delivery(job);
    let delivery_id = {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        if let Some(refusal) = address_refusals::find(&mut conn, &address).await? {
            tracing::info!(job = %job.id, kind = %job.kind, "not sent: the address was refused by its mail server");
            if let Some((notification, student, audience)) = &delivery {
                bounces::refused_at_send(&mut conn, notification, student, audience, &refusal.reason)
                    .await?;
            }
            return Err(JobError::Permanent(format!(
                "not sent: {address} was refused by its mail server on {}: {}",
                refusal.refused_at.format("%d/%m/%Y"),
                refusal.reason
            )));
        }
        match &delivery {
            Some((notification, student, audience)) => {
                crate::models::deliveries::find_id(&mut conn, notification, student, audience).await?
            }
            None => None,
        }
    };
    let tracking = crate::mail::Tracking {
        message_id: Some(&job.id),
        delivery_id: delivery_id.as_deref(),
    };
    match state.mailer.send_tracked(to, email, tracking).await {
        Ok(()) => Ok(()),
        Err(crate::mail::MailError::Refused { reason }) => {
            tracing::warn!(job = %job.id, kind = %job.kind, %reason, "the mail server refused the address");
            let mut pooled = state.db.conn().await?;
            let mut conn = pooled.db();
            let at = crate::models::now();
            crate::transaction!(&mut conn, |c| {
                address_refusals::refuse(c, &address, &reason, at).await?;
                if let Some((notification, student, audience)) = &delivery {
                    bounces::refused_at_send(c, notification, student, audience, &reason).await?;
                }
                Ok::<_, diesel::result::Error>(())
            })?;
            Err(JobError::Permanent(format!(
                "the mail server refused {address}: {reason}"
            )))
        }
        Err(other) => Err(other.into()),
    }
}

/// The delivery an `email.notification` job is (notification id, pupil id, audience), read
/// from its payload; `None` for every other job.
fn notification_delivery(job: &Job) -> Option<(String, String, String)> {
    use email_notification::NotificationEmail;
    if job.kind != NotificationEmail::KIND {
        return None;
    }
    let email: NotificationEmail = serde_json::from_str(&job.payload).ok()?;
    Some((
        email.notification_id,
        email.student_id,
        email.audience.as_str().to_owned(),
    ))
}
