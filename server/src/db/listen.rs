//! The listening side of the change feed (`changes`, docs/scaling.md): one dedicated
//! PostgreSQL connection per `voicemark serve` process, outside the pool, running
//! `LISTEN voicemark_changes`; each notification it hears empties the matching caches.
//!
//! If the connection is lost (the server restarted, the backend was terminated, the network
//! broke, or a ping every [`PING_EVERY`], a repeated `LISTEN`, gets no answer within [`PING_TIMEOUT`]), the process
//! empties all its caches at once ([`Change::Everything`]: nothing it holds can be trusted
//! to be told about), then reconnects with backoff ([`FIRST_RETRY`], doubling up to
//! [`LAST_RETRY`]) and empties them again once it listens again, since notifications sent
//! while it was away are lost. While it is away the caches' own time limits still hold.
//! SQLite has no listener (one process).

use std::time::Duration;

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use futures_util::StreamExt;

use crate::db::changes::{self, Change, CHANNEL};
use crate::db::{Backend, DatabaseUrl};

/// The listening connection's `application_name`.
pub const APPLICATION_NAME: &str = "voicemark change listener";
/// How often the listening connection is checked (by repeating its `LISTEN`).
pub const PING_EVERY: Duration = Duration::from_secs(10);
/// How long that check may take before the connection is taken for lost.
pub const PING_TIMEOUT: Duration = Duration::from_secs(5);
/// The first wait before reconnecting; it doubles on each failure.
pub const FIRST_RETRY: Duration = Duration::from_millis(100);
/// The longest wait between two reconnection attempts.
pub const LAST_RETRY: Duration = Duration::from_secs(5);

/// Starts the listener for `url` (PostgreSQL only; `None` for SQLite). It runs until the
/// runtime stops, reconnecting as needed.
pub fn spawn(url: &DatabaseUrl) -> Option<tokio::task::JoinHandle<()>> {
    if url.backend() != Backend::Postgres {
        return None;
    }
    let url = url.as_str().to_owned();
    Some(tokio::spawn(async move {
        let mut wait = FIRST_RETRY;
        loop {
            match listen(&url).await {
                Ok(Lost::AfterListening(reason)) => {
                    tracing::warn!(%reason, "lost the connection that hears other processes' changes; caches emptied, reconnecting");
                    wait = FIRST_RETRY;
                }
                Ok(Lost::BeforeListening(reason)) | Err(reason) => {
                    tracing::warn!(%reason, retry_ms = wait.as_millis() as u64, "cannot listen for other processes' changes; retrying");
                }
            }
            changes::apply(Change::Everything);
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(LAST_RETRY);
        }
    }))
}

/// How a listening session ended.
enum Lost {
    /// It had been listening: notifications may have been missed.
    AfterListening(String),
    /// It never got to listen.
    BeforeListening(String),
}

/// Connects, listens, and hands notifications on until the connection is lost.
async fn listen(url: &str) -> Result<Lost, String> {
    let mut conn = AsyncPgConnection::establish(url)
        .await
        .map_err(|e| e.to_string())?;
    // Named, so an operator finds it in `pg_stat_activity` (`application_name`, and a
    // `query` that reads `LISTEN voicemark_changes`).
    let name = format!("SET application_name = '{APPLICATION_NAME}'");
    let listen = format!("LISTEN {CHANNEL}");
    for statement in [&name, &listen] {
        if let Err(err) = conn.batch_execute(statement).await {
            return Ok(Lost::BeforeListening(err.to_string()));
        }
    }
    // Anything sent while no connection listened is lost: start again from the database.
    changes::apply(Change::Everything);
    tracing::debug!("listening for other processes' changes");
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let heard = {
            let mut notifications = std::pin::pin!(conn.notifications_stream());
            tokio::select! {
                heard = notifications.next() => Some(heard),
                _ = ping.tick() => None,
            }
        };
        match heard {
            Some(Some(Ok(notification))) => {
                let (_process, change) = changes::parse_payload(&notification.payload);
                changes::apply(change);
            }
            Some(Some(Err(err))) => return Ok(Lost::AfterListening(err.to_string())),
            Some(None) => return Ok(Lost::AfterListening("the connection closed".into())),
            None => {
                let answered = tokio::time::timeout(
                    PING_TIMEOUT,
                    // LISTEN again is a no-op that proves the connection answers.
                    conn.batch_execute(&listen),
                )
                .await;
                match answered {
                    Ok(Ok(_)) => {}
                    Ok(Err(err)) => return Ok(Lost::AfterListening(err.to_string())),
                    Err(_) => return Ok(Lost::AfterListening("no answer to a ping".into())),
                }
            }
        }
    }
}
