//! Which handler runs which `kind` of job.

use std::collections::HashMap;

use futures_util::future::BoxFuture;

use crate::app::AppState;
use crate::jobs::Job;

/// Why a run failed. `Retry` goes back to the queue with backoff; `Permanent` fails the job
/// at once (a payload that cannot be read will not read better later).
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("{0}")]
    Retry(String),
    #[error("{0}")]
    Permanent(String),
}

impl JobError {
    pub fn is_permanent(&self) -> bool {
        matches!(self, JobError::Permanent(_))
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
            other => JobError::Retry(other.to_string()),
        }
    }
}

/// Reads a job's JSON payload, or fails it for good.
pub fn payload<T: serde::de::DeserializeOwned>(job: &Job) -> Result<T, JobError> {
    serde_json::from_str(&job.payload)
        .map_err(|e| JobError::Permanent(format!("unreadable payload: {e}")))
}

/// A job handler: `async fn(&AppState, &Job) -> Result<(), JobError>` (the job carries its
/// payload, id and key; e-mail handlers use the id as the Message-ID).
pub type Handler = for<'a> fn(&'a AppState, &'a Job) -> BoxFuture<'a, Result<(), JobError>>;

/// Maps `kind` to its handler.
#[derive(Clone, Default)]
pub struct Registry {
    handlers: HashMap<String, Handler>,
}

impl Registry {
    /// No handlers (tests add their own).
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// Every job the server runs.
    pub fn standard() -> Registry {
        Registry::empty()
            .with(super::notification_send::KIND, |s, j| {
                Box::pin(super::notification_send::run(s, j))
            })
            .with(super::email::NOTIFICATION_KIND, |s, j| {
                Box::pin(super::email::run_notification(s, j))
            })
            .with(super::email::DIGEST_KIND, |s, j| {
                Box::pin(super::email::run_digest(s, j))
            })
            .with(super::email::FEEDBACK_KIND, |s, j| {
                Box::pin(super::email::run_feedback(s, j))
            })
            .with(super::feedback_email::KIND, |s, j| {
                Box::pin(super::feedback_email::run(s, j))
            })
            .with(super::file_expiry::KIND, |s, j| {
                Box::pin(super::file_expiry::run(s, j))
            })
    }

    /// Adds (or replaces) the handler of `kind`.
    pub fn with(mut self, kind: &str, handler: Handler) -> Registry {
        self.handlers.insert(kind.to_owned(), handler);
        self
    }

    pub fn get(&self, kind: &str) -> Option<Handler> {
        self.handlers.get(kind).copied()
    }
}
