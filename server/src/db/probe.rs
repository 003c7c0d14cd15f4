//! Readiness's own connection (`http::ready`, docs/operations.md): one connection outside
//! the pool, kept and reused, that tells whether the database answers.
//!
//! Through the pool, the readiness ping waited behind every request queued for the pool's
//! connections. Under load it missed its second, so every process answered 503 "database
//! slow" at the same moment and the load balancer was left with no server
//! (docs/load-balancer.md). A busy process is still ready; only a database that does not
//! answer (or a process that starts or drains) is not.

use std::time::Duration;

use diesel::result::ConnectionError;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use tokio::sync::Mutex;

use crate::db::{Backend, DatabaseUrl, SqliteConn};

/// Why the database is not ready.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("the database did not answer in time")]
    Slow,
    #[error("the database is unreachable: {0}")]
    Failed(String),
}

enum Conn {
    Postgres(AsyncPgConnection),
    Sqlite(SqliteConn),
}

/// One connection for readiness, opened on first use and again after any failure.
pub struct Probe {
    url: DatabaseUrl,
    conn: Mutex<Option<Conn>>,
}

impl Probe {
    pub fn new(url: DatabaseUrl) -> Probe {
        Probe { url, conn: Mutex::new(None) }
    }

    /// `SELECT 1` on the probe's connection within `limit` (connecting included). A
    /// connection that failed or timed out is dropped, so the next ping opens a new one.
    pub async fn ping(&self, limit: Duration) -> Result<(), ProbeError> {
        let Ok(mut slot) = tokio::time::timeout(limit, self.conn.lock()).await else {
            return Err(ProbeError::Slow);
        };
        let failed = |e: &dyn std::fmt::Display| ProbeError::Failed(e.to_string());
        let answered = tokio::time::timeout(limit, async {
            if slot.is_none() {
                *slot = Some(self.open().await.map_err(|e| failed(&e))?);
            }
            match slot.as_mut() {
                Some(Conn::Postgres(c)) => c.batch_execute("SELECT 1").await.map_err(|e| failed(&e)),
                Some(Conn::Sqlite(c)) => c.batch_execute("SELECT 1").await.map_err(|e| failed(&e)),
                None => Ok(()),
            }
        })
        .await;
        let result = answered.unwrap_or(Err(ProbeError::Slow));
        if result.is_err() {
            *slot = None;
        }
        result
    }

    async fn open(&self) -> Result<Conn, ConnectionError> {
        Ok(match self.url.backend() {
            Backend::Postgres => Conn::Postgres(AsyncPgConnection::establish(self.url.as_str()).await?),
            Backend::Sqlite => Conn::Sqlite(SqliteConn::establish(self.url.sqlite_target()).await?),
        })
    }
}
