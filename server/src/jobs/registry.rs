//! Which handler runs which `kind` of job, built from the job types.

use std::collections::HashMap;

use futures_util::future::BoxFuture;

use crate::jobs::{payload, BackgroundJob, Job, JobError};
use crate::state::AppState;

use super::email_account::AccountEmail;
use super::email_digest::DigestEmail;
use super::email_feedback::FeedbackEmail;
use super::email_invite::InviteEmail;
use super::email_notification::NotificationEmail;
use super::email_support::SupportEmail;
use super::feedback_release::ReleaseFeedback;
use super::feedback_send::SendFeedback;
use super::bounce_poll::PollBounces;
use super::file_expiry::ExpireFiles;
use super::idempotency_sweep::SweepIdempotencyKeys;
use super::insights_prepare::PrepareInsights;
use super::mis_sync::SyncMis;
use super::notification_send::SendNotification;
use super::stripe_event::ApplyStripeEvent;
use super::task_import_microsoft::ImportFromMicrosoft;
use super::task_process::ProcessTaskItem;
use super::voice_note_transcribe::TranscribeVoiceNote;

/// A job handler: `async fn(&AppState, &Job) -> Result<(), JobError>` (the job carries its
/// payload, id and key).
pub type Handler = for<'a> fn(&'a AppState, &'a Job) -> BoxFuture<'a, Result<(), JobError>>;

/// Maps `kind` to its handler.
#[derive(Clone, Default)]
pub struct Registry {
    handlers: HashMap<String, Handler>,
}

/// The handler of job type `J`: reads the payload as `J` (or fails the job for good), then
/// runs it.
fn handle<'a, J: BackgroundJob>(
    state: &'a AppState,
    job: &'a Job,
) -> BoxFuture<'a, Result<(), JobError>> {
    Box::pin(async move {
        let input: J = payload(job)?;
        input.run(state, job).await
    })
}

impl Registry {
    /// No handlers (tests add their own).
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// Every job the server runs.
    pub fn standard() -> Registry {
        Registry::empty()
            .register::<SendNotification>()
            .register::<NotificationEmail>()
            .register::<DigestEmail>()
            .register::<SendFeedback>()
            .register::<ReleaseFeedback>()
            .register::<FeedbackEmail>()
            .register::<ExpireFiles>()
            .register::<SweepIdempotencyKeys>()
            .register::<AccountEmail>()
            .register::<SupportEmail>()
            .register::<ProcessTaskItem>()
            .register::<TranscribeVoiceNote>()
            .register::<ApplyStripeEvent>()
            .register::<InviteEmail>()
            .register::<SyncMis>()
            .register::<ImportFromMicrosoft>()
            .register::<PollBounces>()
            .register::<PrepareInsights>()
    }

    /// Adds job type `J` under its `KIND`.
    pub fn register<J: BackgroundJob>(self) -> Registry {
        self.with(J::KIND, handle::<J>)
    }

    /// Adds (or replaces) a raw handler for `kind` (tests of the queue itself).
    pub fn with(mut self, kind: &str, handler: Handler) -> Registry {
        self.handlers.insert(kind.to_owned(), handler);
        self
    }

    pub fn get(&self, kind: &str) -> Option<Handler> {
        self.handlers.get(kind).copied()
    }

    /// The kinds this registry runs, sorted.
    pub fn kinds(&self) -> Vec<&str> {
        let mut kinds: Vec<&str> = self.handlers.keys().map(String::as_str).collect();
        kinds.sort_unstable();
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line that starts a job type's impl, spelt so that this file does not contain it.
    fn job_impl() -> String {
        ["impl Background", "Job for"].concat()
    }

    /// Every file in `src/jobs/` that implements `BackgroundJob` declares `KIND = "…"`; the
    /// standard registry must run each of them (a job type added but not registered would
    /// sit in the queue until it failed as "no handler").
    #[test]
    fn the_standard_registry_runs_every_job_type() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/jobs");
        let needle = job_impl();
        let mut declared = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("src/jobs") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("read");
            if !text.contains(&needle) {
                continue;
            }
            let kind = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("const KIND: &'static str = \""))
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("{} has no KIND", path.display()));
            declared.push(kind.to_owned());
        }
        declared.sort();
        assert_eq!(declared.len(), 18, "job types found: {declared:?}");
        assert_eq!(Registry::standard().kinds(), declared);
    }

    /// Kinds and hand-written payloads live only in their job's file: nothing else in
    /// `src/` builds a job row by hand or names a kind.
    #[test]
    fn job_rows_are_built_only_from_job_types() {
        let kinds = Registry::standard();
        let kinds = kinds.kinds();
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("dir") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let rel = path
                    .strip_prefix(&src)
                    .expect("under src")
                    .to_string_lossy();
                let text = std::fs::read_to_string(&path).expect("read");
                // The row type, its typed constructor, and this test.
                let home = ["models/jobs.rs", "jobs/mod.rs", "jobs/registry.rs"];
                if !home.contains(&&*rel) && text.contains("NewJob {") {
                    offenders.push(format!("{rel}: builds a NewJob by hand"));
                }
                let own_file = text.contains(&job_impl());
                for kind in &kinds {
                    let quoted = format!("\"{kind}\"");
                    if !own_file && text.contains(&quoted) {
                        offenders.push(format!("{rel}: names the kind {quoted}"));
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "{offenders:#?}");
    }
}
