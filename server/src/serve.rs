//! `voicemark serve`: open the database, apply migrations, listen, and stop gracefully.

use std::future::IntoFuture;
use std::time::Instant;

use anyhow::Context;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::app::router;
use crate::config::Config;
use crate::db::Db;
use crate::http::ready::Phase;
use crate::jobs::{Registry, Workers};
use crate::state::AppState;

/// Opens the database named by the configuration and brings its schema up to date.
pub async fn open_database(config: &Config) -> anyhow::Result<Db> {
    let db = Db::connect(&config.database.url, config.database.pool_size).await?;
    let applied = db
        .migrate()
        .await
        .map_err(|e| crate::db::ConnectError::Migration {
            target: config.database.url.display_target(),
            reason: e.to_string(),
        })?;
    if applied > 0 {
        tracing::info!(applied, "applied database migrations");
    }
    Ok(db)
}

/// Serves until SIGTERM or Ctrl-C, then drains and stops: readiness turns 503 at once, every
/// request is still served for the drain (`VOICEMARK_DRAIN_SECONDS`), then the requests in
/// flight finish and the job workers stop, both within bounds (see [`HTTP_DRAIN`] and
/// `jobs::Workers::shutdown`). Requests are answered from the start, 503 until the
/// migrations are applied (docs/operations.md).
pub async fn run(config: Config) -> anyhow::Result<()> {
    let started = Instant::now();
    crate::cache::set_enabled(&config.database.read_caches);
    let db = Db::connect(&config.database.url, config.database.pool_size).await?;
    let listener = TcpListener::bind(config.bind).await.with_context(|| {
        format!(
            "Cannot listen on {}: is another server using that address?",
            config.bind
        )
    })?;
    let address = listener.local_addr()?;
    let database = config.database.url.display_target();
    let state = AppState::new(db.clone(), config)?;
    state.readiness.set(Phase::Starting);
    // On PostgreSQL, other processes' changes empty this one's caches (docs/scaling.md).
    let _listener = crate::db::listen::spawn(&state.config.database.url);
    let (stopping, stop_asked) = watch::channel(false);
    if let Some(metrics) = state.config.ops.metrics_addr {
        crate::metrics::serve(metrics, state.clone(), asked(stop_asked.clone())).await?;
    }
    let http = axum::serve(
        listener,
        router(state.clone()).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(asked(stop_asked.clone()))
    .into_future();
    tokio::pin!(http);
    // Migrations run while the listener answers 503 (readiness `starting`).
    let migrated = tokio::select! {
        migrated = migrate(&db, &database) => migrated,
        served = &mut http => {
            served.context("the server stopped unexpectedly")?;
            anyhow::bail!("the server stopped before the migrations were applied");
        }
    };
    if let Err(err) = migrated {
        let _ = stopping.send(true);
        return Err(err.into());
    }
    state.readiness.set(Phase::Serving);
    tracing::info!(
        %address,
        backend = db.backend().as_str(),
        %database,
        startup_ms = started.elapsed().as_millis() as u64,
        "Voicemark is listening on http://{address}"
    );
    let settings = state.config.jobs.clone();
    if settings.workers > 0 {
        tracing::info!(
            workers = settings.workers,
            "starting background job workers"
        );
        schedule_chains(&state).await?;
    }
    let workers = Workers::start(state.clone(), Registry::standard(), settings);
    let readiness = state.readiness.clone();
    let drain = state.config.ops.drain;
    tokio::spawn(async move {
        shutdown_signal().await;
        // Not ready first, so the load balancer stops sending; still serving meanwhile.
        readiness.set(Phase::Draining);
        if !drain.is_zero() {
            tracing::info!(seconds = drain.as_secs(), "draining: not ready, still serving");
            tokio::time::sleep(drain).await;
        }
        let _ = stopping.send(true);
    });
    // After the drain the workers stop (handing back what they cannot finish) while the
    // requests in flight finish, side by side, each bounded: the process is gone within
    // `HTTP_DRAIN` or the workers' grace + `HAND_BACK_MARGIN`, whichever is longer (15 s
    // with the defaults), after the drain (5 s): inside the usual 30 s before a SIGKILL.
    let served = tokio::select! {
        served = &mut http => {
            workers.shutdown().await;
            served
        }
        () = asked(stop_asked) => {
            let drain = async {
                match tokio::time::timeout(HTTP_DRAIN, &mut http).await {
                    Ok(served) => served,
                    Err(_) => {
                        tracing::warn!(
                            seconds = HTTP_DRAIN.as_secs(),
                            "requests still open after the drain (streams, slow clients) were closed"
                        );
                        Ok(())
                    }
                }
            };
            let (served, _abandoned) = tokio::join!(drain, workers.shutdown());
            served
        }
    }
    .context("the server stopped unexpectedly");
    served?;
    tracing::info!("Voicemark stopped");
    Ok(())
}

/// Applies the pending migrations (while the listener answers 503: `http::ready`).
async fn migrate(db: &Db, target: &str) -> Result<(), crate::db::ConnectError> {
    let applied = db.migrate().await.map_err(|e| crate::db::ConnectError::Migration {
        target: target.to_owned(),
        reason: e.to_string(),
    })?;
    if applied > 0 {
        tracing::info!(applied, "applied database migrations");
    }
    Ok(())
}

/// Queues the jobs that re-queue themselves (a chain that ended FAILED resumes here).
async fn schedule_chains(state: &AppState) -> anyhow::Result<()> {
    // The expiry sweep re-queues itself after each run; queueing one at start resumes the
    // chain after a run that ended FAILED (one job per 10-minute slot, so restarts are free).
    let mut pooled = state.db.conn().await?;
    if let Err(err) = crate::jobs::file_expiry::schedule(&mut pooled.db(), crate::models::now()).await {
        tracing::warn!(%err, "could not queue the file expiry sweep");
    }
    // So does the night's preparation of the trusts' Insights (docs/insights.md).
    if let Err(err) = crate::jobs::insights_prepare::schedule(&mut pooled.db(), crate::models::now()).await {
        tracing::warn!(%err, "could not queue the preparation of the trusts' Insights");
    }
    // The bounce mailbox's reads chain the same way (docs/bounces.md).
    let bounces = &state.config.bounces;
    if bounces.imap_url.is_some() {
        if let Err(err) =
            crate::jobs::bounce_poll::schedule(&mut pooled.db(), crate::models::now(), bounces.poll_minutes).await
        {
            tracing::warn!(%err, "could not queue the bounce mailbox's first read");
        }
    }
    Ok(())
}

/// How long the requests in flight get to finish after SIGTERM: open streams (the assistant,
/// report writing) and slow clients are cut off after it.
pub const HTTP_DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// Completes once `stop` says the process is stopping (or its sender is gone).
async fn asked(mut stop: watch::Receiver<bool>) {
    let _ = stop.wait_for(|stopping| *stopping).await;
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::warn!(%err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}
