//! Workers: tasks that claim due jobs, run their handlers and record the outcome. `serve`
//! starts `VOICEMARK_JOB_WORKERS` of them. Asked to stop, a worker lets the job in hand finish
//! within `VOICEMARK_JOB_SHUTDOWN_SECONDS`; a run still going then is stopped and its job handed
//! back to the queue at once (not left to its lease), so another process takes it immediately.

use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use crate::config::WorkerSettings;
use crate::jobs::{self, Job, Registry};
use crate::state::AppState;

/// What one turn of a worker did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing was ready.
    Idle,
    Done(Job),
    Failed {
        job: Job,
        error: String,
    },
    /// The worker was asked to stop and the run did not finish within the grace: it was
    /// stopped and the job handed back to the queue, due now, its attempt not counted.
    HandedBack(Job),
}

/// A name for this process's workers: host, pid and a random part, so that `locked_by`
/// tells processes apart even across restarts with the same pid.
pub fn process_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".into());
        let random = &crate::ids::new_token()[..8];
        format!("{host}:{}:{random}", std::process::id())
    })
    .clone()
}

/// Claims one ready job and runs it to an outcome.
pub async fn run_once(
    state: &AppState,
    registry: &Registry,
    worker: &str,
    settings: &WorkerSettings,
) -> Result<Outcome, crate::db::DbError> {
    run_once_until(state, registry, worker, settings, std::future::pending()).await
}

/// Like [`run_once`], but once `stop` completes the run gets `settings.shutdown_grace` to
/// finish; after that it is dropped where it is and its job handed back
/// ([`Outcome::HandedBack`]). A handler is safe to drop at an await: an e-mail cut off after
/// the server took it goes again with the same Message-ID (the job id), which receivers drop.
pub async fn run_once_until(
    state: &AppState,
    registry: &Registry,
    worker: &str,
    settings: &WorkerSettings,
    stop: impl std::future::Future<Output = ()>,
) -> Result<Outcome, crate::db::DbError> {
    let job = {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        match jobs::claim(&mut conn, worker, settings.lease).await? {
            Some(job) => job,
            None => return Ok(Outcome::Idle),
        }
    };
    let run = async {
        match registry.get(&job.kind) {
            None => Err(jobs::JobError::Permanent(format!(
                "no handler for jobs of kind {:?}",
                job.kind
            ))),
            Some(handler) => run_with_lease(state, &job, worker, settings, handler).await,
        }
    };
    let grace = settings.shutdown_grace;
    let stopped_and_grace_over = async {
        stop.await;
        tokio::time::sleep(grace).await;
    };
    let result = tokio::select! {
        result = run => result,
        () = stopped_and_grace_over => {
            hand_back(state, &job, worker).await?;
            return Ok(Outcome::HandedBack(job));
        }
    };
    match result {
        Ok(()) => {
            if !complete_with_retries(state, &job, worker).await? {
                tracing::warn!(job = %job.id, kind = %job.kind, "job finished after its lease was taken over");
            }
            Ok(Outcome::Done(job))
        }
        Err(err) => {
            let mut pooled = state.db.conn().await?;
            let mut conn = pooled.db();
            let error = err.to_string();
            tracing::warn!(job = %job.id, kind = %job.kind, attempt = job.attempts, %error, "job failed");
            crate::metrics::job_failed(&job.kind);
            jobs::fail(
                &mut conn,
                &job,
                worker,
                &error,
                err.is_permanent(),
                settings.backoff_base,
                err.retry_after(),
            )
            .await?;
            Ok(Outcome::Failed { job, error })
        }
    }
}

/// Hands a stopped run's job back to the queue, trying a few times (a lost hand-back would
/// leave the job to its lease): the database is usually fine while the process stops.
async fn hand_back(state: &AppState, job: &Job, worker: &str) -> Result<(), crate::db::DbError> {
    let ours = retry_db(3, 100, "cannot hand the job back yet", job, || async {
        let mut pooled = state.db.conn().await?;
        Ok(jobs::release(&mut pooled.db(), &job.id, worker).await?)
    })
    .await?;
    if ours {
        tracing::info!(job = %job.id, kind = %job.kind, "stopping: handed the job in hand back to the queue");
    }
    Ok(())
}

/// Records success, trying a few times: after an e-mail was accepted, a lost `DONE` would
/// mean a second copy after the lease, so a passing database hiccup must not lose it.
async fn complete_with_retries(
    state: &AppState,
    job: &Job,
    worker: &str,
) -> Result<bool, crate::db::DbError> {
    retry_db(5, 200, "cannot record a finished job yet", job, || async {
        let mut pooled = state.db.conn().await?;
        Ok(jobs::complete(&mut pooled.db(), &job.id, worker).await?)
    })
    .await
}

/// Runs one small database step for `job` up to `attempts` times, waiting `step_ms` times
/// the attempt between tries and logging `warning` for each failed one.
async fn retry_db<T, Fut>(
    attempts: u64,
    step_ms: u64,
    warning: &'static str,
    job: &Job,
    mut step: impl FnMut() -> Fut,
) -> Result<T, crate::db::DbError>
where
    Fut: std::future::Future<Output = Result<T, crate::db::DbError>>,
{
    let mut attempt = 0;
    loop {
        attempt += 1;
        match step().await {
            Ok(value) => return Ok(value),
            Err(err) if attempt < attempts => {
                tracing::warn!(job = %job.id, %err, attempt, "{warning}");
                tokio::time::sleep(Duration::from_millis(step_ms * attempt)).await;
            }
            Err(err) => return Err(err),
        }
    }
}

/// Runs the handler, renewing the job's lease every third of it so that a long run is
/// never taken for abandoned, and stopping it after `settings.run_timeout` (a retryable
/// failure), so that no job can hold a worker for ever.
async fn run_with_lease(
    state: &AppState,
    job: &Job,
    worker: &str,
    settings: &WorkerSettings,
    handler: jobs::Handler,
) -> Result<(), jobs::JobError> {
    // A panicking handler fails its run like an error instead of killing the worker.
    let work = std::panic::AssertUnwindSafe(handler(state, job))
        .catch_unwind()
        .map(|outcome| {
            outcome.unwrap_or_else(|_| Err(jobs::JobError::Retry("the handler panicked".into())))
        });
    tokio::pin!(work);
    let mut renew = tokio::time::interval(settings.lease / 3);
    renew.tick().await;
    let deadline = tokio::time::sleep(settings.run_timeout);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            result = &mut work => return result,
            () = &mut deadline => {
                return Err(jobs::JobError::Retry(format!(
                    "the run took longer than {} s and was stopped",
                    settings.run_timeout.as_secs_f32()
                )));
            }
            _ = renew.tick() => {
                if let Ok(mut pooled) = state.db.conn().await {
                    if let Err(err) = jobs::renew_lease(&mut pooled.db(), &job.id, worker).await {
                        tracing::warn!(job = %job.id, %err, "cannot renew the job's lease");
                    }
                }
            }
        }
    }
}

/// How long shutdown waits, after the grace, for workers to hand their jobs back.
pub const HAND_BACK_MARGIN: Duration = Duration::from_secs(5);

/// The running workers of this process.
pub struct Workers {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    grace: Duration,
}

impl Workers {
    /// Starts `settings.workers` workers over `state`.
    pub fn start(state: AppState, registry: Registry, settings: WorkerSettings) -> Workers {
        let (stop, stopped) = watch::channel(false);
        let grace = settings.shutdown_grace;
        let registry = Arc::new(registry);
        let process = process_id();
        let tasks = (0..settings.workers)
            .map(|n| {
                let worker = format!("{process}/{n}");
                let (state, registry, settings, mut stopped) =
                    (state.clone(), registry.clone(), settings.clone(), stopped.clone());
                tokio::spawn(async move {
                    // Jobs abandoned in their last attempt are failed now and then, not on
                    // every idle poll (on SQLite every UPDATE takes the write lock).
                    let mut last_sweep: Option<std::time::Instant> = None;
                    loop {
                        if *stopped.borrow() {
                            break;
                        }
                        if last_sweep.is_none_or(|at| at.elapsed() >= Duration::from_secs(60)) {
                            last_sweep = Some(std::time::Instant::now());
                            if let Ok(mut pooled) = state.db.conn().await {
                                match jobs::fail_abandoned(&mut pooled.db(), settings.lease).await {
                                    Ok(0) => {}
                                    Ok(n) => tracing::warn!(failed = n, "failed jobs abandoned in their last attempt"),
                                    Err(err) => tracing::warn!(%err, "cannot sweep abandoned jobs"),
                                }
                            }
                        }
                        let mut stop = stopped.clone();
                        let stop = async move {
                            // A dropped sender means the workers are gone: stop too.
                            let _ = stop.wait_for(|stopping| *stopping).await;
                        };
                        let pause = match run_once_until(&state, &registry, &worker, &settings, stop).await {
                            // Straight on to the next job after finishing one.
                            Ok(Outcome::Done(_)) | Ok(Outcome::Failed { .. }) => None,
                            Ok(Outcome::HandedBack(_)) => break,
                            Ok(Outcome::Idle) => Some(settings.poll_interval),
                            Err(err) => {
                                tracing::warn!(%worker, %err, "job worker cannot reach the database");
                                Some(settings.poll_interval * 4)
                            }
                        };
                        if let Some(pause) = pause {
                            tokio::select! {
                                _ = tokio::time::sleep(pause) => {}
                                _ = stopped.changed() => {}
                            }
                        }
                    }
                })
            })
            .collect();
        Workers { stop, tasks, grace }
    }

    /// Asks every worker to stop and waits for the jobs in hand to finish, at most
    /// `shutdown_grace`: a run still going then is stopped and its job handed back to the
    /// queue (due now, unlocked), so that any worker of this or another process takes it at
    /// once. A worker that cannot even hand back within [`HAND_BACK_MARGIN`] more (the
    /// database is gone) is abandoned, and its job waits for its lease. Returns how many
    /// workers were abandoned.
    pub async fn shutdown(self) -> usize {
        let _ = self.stop.send(true);
        let deadline = tokio::time::Instant::now() + self.grace + HAND_BACK_MARGIN;
        let mut abandoned = 0;
        for mut task in self.tasks {
            if tokio::time::timeout_at(deadline, &mut task).await.is_err() {
                task.abort();
                abandoned += 1;
            }
        }
        if abandoned > 0 {
            tracing::warn!(
                abandoned,
                "job workers that could not hand their jobs back were stopped; their jobs run again after the lease"
            );
        }
        abandoned
    }
}
