//! The data layer: one diesel code path over SQLite (the embedded default) and PostgreSQL.
//!
//! `Db` holds a pool of either backend, picked by the URL scheme. Query bodies are
//! written once and expanded per backend by [`with_conn!`] and [`transaction!`]
//! (see `../shared/reference/data-layer.md` for why this shape and not MultiConnection).

pub mod changes;
pub mod fault;
pub mod listen;
pub mod prepared;
pub mod probe;
pub mod schema;
pub mod sql;
mod url;

use std::time::Duration;

use diesel::SqliteConnection;
use diesel_async::pooled_connection::deadpool::{Object, Pool};
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};
use diesel_async::sync_connection_wrapper::SyncConnectionWrapper;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations};
use futures_util::FutureExt;

pub use sql::{
    coalesce, like_pattern, lower, row_gt, row_lt, rows_per_statement, string_agg, MAX_BIND_PARAMS,
};
pub use url::{Backend, DatabaseUrl, DatabaseUrlError};

/// The SQLite connection type used through diesel_async.
pub type SqliteConn = SyncConnectionWrapper<SqliteConnection>;

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");

/// Set on every SQLite connection, in this order: busy_timeout first so that switching to
/// WAL does not fail when several connections start at once.
const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; \
     PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";

/// What each pooled PostgreSQL session is set to when it is opened. A value given in the
/// URL's `options` (`?options=-c%20lock_timeout%3D2s`) wins over these.
/// * `statement_timeout`, `lock_timeout`: a statement running longer than 30 s is cancelled
///   (so one slow query cannot hold a connection and its locks for ever), and a statement
///   waiting 5 s for a lock gives up. Both answer 503 (`fault.rs`).
/// * `max_parallel_workers_per_gather = 0`: no parallel plans. On a small machine a
///   parallel worker only takes a core from other requests' backends: with 1,000 schools,
///   PostgreSQL chose a parallel scan of `notifications` for the Hub's and Insights' joins
///   (parents reached by kind 30-51 ms with it, 2.9 ms without; docs/scaling.md). A database
///   on a machine with cores to spare gets parallel plans back with
///   `?options=-c%20max_parallel_workers_per_gather%3D2` (docs/operations.md).
const POSTGRES_SESSION_DEFAULTS: [(&str, &str); 3] = [
    ("statement_timeout", "30s"),
    ("lock_timeout", "5s"),
    ("max_parallel_workers_per_gather", "0"),
];

/// The `SET` statements for the [`POSTGRES_SESSION_DEFAULTS`] that the URL's `options`
/// leaves out.
fn postgres_session_settings(options: &str) -> String {
    POSTGRES_SESSION_DEFAULTS
        .iter()
        .filter(|(name, _)| !options.contains(name))
        .map(|(name, value)| format!("SET {name} = '{value}';"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A failure of the data layer, in words fit for an operator (never shown to users).
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Query(#[from] diesel::result::Error),
    #[error("could not get a database connection: {0}")]
    Pool(String),
    #[error("could not apply migrations: {0}")]
    Migration(String),
}

impl From<diesel_async::pooled_connection::deadpool::PoolError> for DbError {
    fn from(err: diesel_async::pooled_connection::deadpool::PoolError) -> Self {
        DbError::Pool(err.to_string())
    }
}

/// Why the database could not be opened, as one sentence for the command line.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error(transparent)]
    Url(#[from] DatabaseUrlError),
    #[error("Cannot reach the database at {target}: {reason}.")]
    Unreachable { target: String, reason: String },
    #[error("Cannot prepare the database at {target}: {reason}.")]
    Migration { target: String, reason: String },
}

/// A pool of connections to one backend.
#[derive(Clone)]
pub enum Db {
    Postgres(Pool<AsyncPgConnection>),
    Sqlite(Pool<SqliteConn>),
}

/// A connection checked out of the pool; `.db()` lends it to queries.
pub enum PooledConn {
    Postgres(Object<AsyncPgConnection>),
    Sqlite(Object<SqliteConn>),
}

impl PooledConn {
    /// Borrows the connection for model functions.
    pub fn db(&mut self) -> DbConn<'_> {
        match self {
            PooledConn::Postgres(obj) => DbConn::Postgres(obj),
            PooledConn::Sqlite(obj) => DbConn::Sqlite(obj),
        }
    }
}

/// A borrowed connection of either backend: what every model function takes, inside a
/// transaction or not.
pub enum DbConn<'a> {
    Postgres(&'a mut AsyncPgConnection),
    Sqlite(&'a mut SqliteConn),
}

/// Runs `$body` with `$c` bound to the concrete connection behind `$conn` (a `&mut DbConn`).
/// The body is compiled once per backend, so it may use the full diesel DSL.
#[macro_export]
macro_rules! with_conn {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConn::Postgres(ref mut pg) => {
                let $c: &mut ::diesel_async::AsyncPgConnection = &mut **pg;
                $body
            }
            $crate::db::DbConn::Sqlite(ref mut sq) => {
                let $c: &mut $crate::db::SqliteConn = &mut **sq;
                $body
            }
        }
    };
}

/// Runs `$body` with `$c: &mut DbConn` inside one transaction on `$conn` (a `&mut DbConn`).
/// The body returns `Result<_, E>` with `E: From<diesel::result::Error>`; an `Err` rolls
/// back. SQLite begins with `BEGIN IMMEDIATE`, so read-then-write work never fails with
/// "database is locked" half-way (data-layer.md, gotcha 1).
#[macro_export]
macro_rules! transaction {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::DbConn::Postgres(ref mut pg) => {
                use ::diesel_async::AsyncConnection as _;
                let pg: &mut ::diesel_async::AsyncPgConnection = &mut **pg;
                pg.transaction(async |inner| {
                    let mut tx = $crate::db::DbConn::Postgres(inner);
                    let $c = &mut tx;
                    $body
                })
                .await
            }
            $crate::db::DbConn::Sqlite(ref mut sq) => {
                let sq: &mut $crate::db::SqliteConn = &mut **sq;
                sq.immediate_transaction(async |inner| {
                    let mut tx = $crate::db::DbConn::Sqlite(inner);
                    let $c = &mut tx;
                    $body
                })
                .await
            }
        }
    };
}

impl Db {
    /// Opens a pool for `url` and checks that the database answers.
    pub async fn connect(url: &DatabaseUrl, pool_size: usize) -> Result<Db, ConnectError> {
        let unreachable = |reason: String| ConnectError::Unreachable {
            target: url.display_target(),
            reason,
        };
        let db = match url.backend() {
            Backend::Postgres => {
                let mut config = ManagerConfig::<AsyncPgConnection>::default();
                // Fast still drops a connection that is closed (a killed backend) or left
                // in a broken transaction: `PoolableConnection::is_broken` runs first.
                config.recycling_method = RecyclingMethod::Fast;
                let settings = postgres_session_settings(&url.postgres_options());
                config.custom_setup = Box::new(move |url| {
                    let settings = settings.clone();
                    async move {
                        let mut conn = AsyncPgConnection::establish(url).await?;
                        if !settings.is_empty() {
                            conn.batch_execute(&settings)
                                .await
                                .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                        }
                        Ok(conn)
                    }
                    .boxed()
                });
                let manager = AsyncDieselConnectionManager::new_with_config(url.as_str(), config);
                let pool = Pool::builder(manager)
                    .max_size(pool_size)
                    .wait_timeout(Some(Duration::from_secs(10)))
                    .create_timeout(Some(Duration::from_secs(5)))
                    .runtime(deadpool::Runtime::Tokio1)
                    .build()
                    .map_err(|e| unreachable(e.to_string()))?;
                Db::Postgres(pool)
            }
            Backend::Sqlite => {
                let path = url.sqlite_path();
                if let Some(parent) = path.as_deref().and_then(|p| p.parent()) {
                    if !parent.as_os_str().is_empty() {
                        std::fs::create_dir_all(parent).map_err(|e| {
                            unreachable(format!(
                                "cannot create the folder {}: {e}",
                                parent.display()
                            ))
                        })?;
                    }
                }
                let mut config = ManagerConfig::<SqliteConn>::default();
                config.recycling_method = RecyclingMethod::Fast;
                config.custom_setup = Box::new(|url| {
                    async move {
                        let mut conn = SqliteConn::establish(url).await?;
                        conn.batch_execute(SQLITE_PRAGMAS)
                            .await
                            .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                        Ok(conn)
                    }
                    .boxed()
                });
                let manager =
                    AsyncDieselConnectionManager::new_with_config(url.sqlite_target(), config);
                // An in-memory database exists once per connection: keep exactly one.
                let size = if url.is_memory() { 1 } else { pool_size };
                let pool = Pool::builder(manager)
                    .max_size(size)
                    .wait_timeout(Some(Duration::from_secs(10)))
                    .runtime(deadpool::Runtime::Tokio1)
                    .build()
                    .map_err(|e| unreachable(e.to_string()))?;
                Db::Sqlite(pool)
            }
        };
        db.ping().await.map_err(|e| unreachable(e.to_string()))?;
        Ok(db)
    }

    /// Which backend this pool talks to.
    pub fn backend(&self) -> Backend {
        match self {
            Db::Postgres(_) => Backend::Postgres,
            Db::Sqlite(_) => Backend::Sqlite,
        }
    }

    /// Checks out a connection.
    pub async fn conn(&self) -> Result<PooledConn, DbError> {
        let waited = std::time::Instant::now();
        let pooled = match self {
            Db::Postgres(pool) => PooledConn::Postgres(pool.get().await?),
            Db::Sqlite(pool) => PooledConn::Sqlite(pool.get().await?),
        };
        crate::metrics::pool_wait(self.backend().as_str(), waited.elapsed());
        Ok(pooled)
    }

    /// A connection only if one is free now, without waiting in the pool: for reads that can
    /// as well run one after another on a connection the caller already holds (waiting for
    /// a second while holding one could leave requests holding the pool between them). A
    /// free connection is one no request waits for: the pool's waiters are served first.
    pub async fn conn_if_free(&self) -> Option<PooledConn> {
        let now = deadpool::managed::Timeouts {
            wait: Some(Duration::ZERO),
            ..match self {
                Db::Postgres(pool) => pool.timeouts(),
                Db::Sqlite(pool) => pool.timeouts(),
            }
        };
        match self {
            Db::Postgres(pool) => pool.timeout_get(&now).await.ok().map(PooledConn::Postgres),
            Db::Sqlite(pool) => pool.timeout_get(&now).await.ok().map(PooledConn::Sqlite),
        }
    }

    /// `n` connections if that many are free now ([`Db::conn_if_free`]), else none (those
    /// found are given back): for a request whose independent reads go at once when the
    /// pool has room, and one after another on the connection it holds when it has not.
    pub async fn conns_if_free(&self, n: usize) -> Option<Vec<PooledConn>> {
        let mut found = Vec::with_capacity(n);
        while found.len() < n {
            found.push(self.conn_if_free().await?);
        }
        Some(found)
    }

    /// Runs `SELECT 1`: proves that a connection can be had and the database answers.
    pub async fn ping(&self) -> Result<(), DbError> {
        let mut pooled = self.conn().await?;
        with_conn!(pooled.db(), |c| c.batch_execute("SELECT 1").await)?;
        Ok(())
    }

    /// Writes the time into the one row of `health_checks`: proves that the database takes
    /// writes (a full disk or a read-only file answers `SELECT 1` but fails here).
    pub async fn probe_write(&self) -> Result<(), DbError> {
        use diesel::prelude::*;
        use diesel_async::RunQueryDsl;
        use schema::health_checks;
        let mut pooled = self.conn().await?;
        let at = chrono::Utc::now().naive_utc();
        let n = with_conn!(pooled.db(), |c| diesel::update(
            health_checks::table.find(1)
        )
        .set(health_checks::checked_at.eq(at))
        .execute(c)
        .await)?;
        if n == 0 {
            with_conn!(pooled.db(), |c| diesel::insert_into(health_checks::table)
                .values((health_checks::id.eq(1), health_checks::checked_at.eq(at)))
                .on_conflict_do_nothing()
                .execute(c)
                .await)?;
        }
        Ok(())
    }

    /// Applies every pending migration of this backend; returns how many ran.
    pub async fn migrate(&self) -> Result<usize, DbError> {
        use diesel_async::AsyncMigrationHarness;
        use diesel_migrations::MigrationHarness;
        let conn = self.conn().await?;
        // The harness drives the async connection with block_in_place: keep it off the
        // caller's task so the multi-thread runtime can lend it a thread.
        let ran = match conn {
            PooledConn::Postgres(obj) => {
                let mut harness = AsyncMigrationHarness::new(obj);
                tokio::task::block_in_place(|| {
                    harness
                        .run_pending_migrations(POSTGRES_MIGRATIONS)
                        .map(|v| v.len())
                })
            }
            PooledConn::Sqlite(obj) => {
                let mut harness = AsyncMigrationHarness::new(obj);
                tokio::task::block_in_place(|| {
                    harness
                        .run_pending_migrations(SQLITE_MIGRATIONS)
                        .map(|v| v.len())
                })
            }
        };
        ran.map_err(|e| DbError::Migration(e.to_string()))
    }

    /// Applies the pending migrations of this backend in order, up to and including the
    /// one named `last` (its folder name); returns how many ran. For tests that load data
    /// of an older shape and then run the migration that reshapes it.
    pub async fn migrate_through(&self, last: &str) -> Result<usize, DbError> {
        use diesel_async::AsyncMigrationHarness;
        use diesel_migrations::MigrationHarness;
        fn run<H: MigrationHarness<B>, B: diesel::backend::Backend>(
            harness: &mut H,
            source: EmbeddedMigrations,
            last: &str,
        ) -> diesel::migration::Result<usize> {
            let mut ran = 0;
            for migration in harness.pending_migrations(source)? {
                if migration.name().to_string().as_str() > last {
                    break;
                }
                harness.run_migration(&*migration)?;
                ran += 1;
            }
            Ok(ran)
        }
        let conn = self.conn().await?;
        let ran = match conn {
            PooledConn::Postgres(obj) => {
                let mut harness = AsyncMigrationHarness::new(obj);
                tokio::task::block_in_place(|| run(&mut harness, POSTGRES_MIGRATIONS, last))
            }
            PooledConn::Sqlite(obj) => {
                let mut harness = AsyncMigrationHarness::new(obj);
                tokio::task::block_in_place(|| run(&mut harness, SQLITE_MIGRATIONS, last))
            }
        };
        ran.map_err(|e| DbError::Migration(e.to_string()))
    }

    /// The pool's size and the connections in use, for the health report.
    pub fn pool_status(&self) -> (usize, usize) {
        let status = match self {
            Db::Postgres(pool) => pool.status(),
            Db::Sqlite(pool) => pool.status(),
        };
        (
            status.max_size,
            status.size.saturating_sub(status.available),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_given_in_the_url_win() {
        assert_eq!(
            postgres_session_settings(""),
            "SET statement_timeout = '30s'; SET lock_timeout = '5s'; \
             SET max_parallel_workers_per_gather = '0';"
        );
        assert_eq!(
            postgres_session_settings("-c lock_timeout=300 -c max_parallel_workers_per_gather=2"),
            "SET statement_timeout = '30s';"
        );
    }
}
