//! Attempt limits, per account, per e-mail address and per client address.
//!
//! A limited action *reserves* its slots before it does the work it guards, all its keys at
//! once ([`Limits::try_acquire_all`]): of 40 parallel wrong passwords for one account
//! exactly [`ACCOUNT_LIMIT`] reach the password check, because the sixth finds the five
//! slots taken even while the first five are still being verified. A success gives its slot
//! back ([`Limits::release`]) or clears the account's failures ([`Limits::clear`]).
//! (The `governor` crate was the other candidate: its GCRA is a rate that refills
//! continuously and has no "give the slot back on success", so "at most N failures per
//! 15 minutes" would only be approximated; counting events is exact and has no dependency.)
//!
//! Where the counts live ([`Limits`], docs/scaling.md):
//! * **PostgreSQL: in the database** (`models::attempts`, the `attempts` table), shared by
//!   every server process: three processes behind a load balancer allow the same 5 guesses
//!   as one. Each reservation is one transaction under advisory locks on its keys. Should
//!   the database fail to answer, the process falls back to its memory for that call (a
//!   warning is logged): still limited, per process, while the database is away.
//! * **SQLite: in memory** ([`RateLimiter`], under one lock for every key), since SQLite
//!   serves one process only; a restart forgets the counts.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::db::{Backend, Db};
use crate::models::attempts;

/// Failed sign-ins allowed per account within [`WINDOW`].
pub const ACCOUNT_LIMIT: usize = 5;
/// Failed sign-ins (and other guarded attempts) allowed per client address within [`WINDOW`].
pub const ADDRESS_LIMIT: usize = 20;
/// E-mails (reset links, sign-in links, registrations) allowed per e-mail address within
/// [`WINDOW`].
pub const RESET_LIMIT: usize = 5;
/// Wrong current passwords allowed per user in `user.changePassword` within [`WINDOW`].
pub const CHANGE_PASSWORD_LIMIT: usize = 5;
/// The sliding window the limits count over: 15 minutes.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// The server's limits: counted in the database on PostgreSQL, in memory on SQLite (see the
/// module's doc). Keys name what is counted, e.g. `account:ada@school.org` or `ip:10.0.0.1`.
pub struct Limits {
    /// The counts on SQLite, and on PostgreSQL while the database does not answer.
    memory: RateLimiter,
    /// The database that counts, on PostgreSQL.
    db: Option<Db>,
    /// Reservations made by this process, to prune the table every [`PRUNE_EVERY`].
    reservations: AtomicU64,
}

/// Every this many reservations a process deletes the attempts older than the window (each
/// reservation already deletes its own keys' old rows; this catches keys never seen again).
pub const PRUNE_EVERY: u64 = 500;

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("in_database", &self.db.is_some())
            .finish_non_exhaustive()
    }
}

impl Limits {
    /// Limits counted in `db` when it is PostgreSQL, else in memory.
    pub fn new(db: &Db) -> Limits {
        Limits {
            memory: RateLimiter::default(),
            db: (db.backend() == Backend::Postgres).then(|| db.clone()),
            reservations: AtomicU64::new(0),
        }
    }

    /// Limits counted in this process's memory only.
    pub fn in_memory() -> Limits {
        Limits { memory: RateLimiter::default(), db: None, reservations: AtomicU64::new(0) }
    }

    /// Whether the counts are in the database (shared by every process).
    pub fn shared(&self) -> bool {
        self.db.is_some()
    }

    /// The start of the window ending now, and now.
    fn window() -> (chrono::NaiveDateTime, chrono::NaiveDateTime) {
        let at = crate::models::now();
        let window = chrono::Duration::seconds(WINDOW.as_secs() as i64);
        (at - window, at)
    }

    /// Reserves one slot for each `(key, limit)` if none of the keys is at its limit, all
    /// together; `false` (and nothing recorded) when any is.
    pub async fn try_acquire_all(&self, keys: &[(&str, usize)]) -> bool {
        if let Some(db) = &self.db {
            let (since, at) = Self::window();
            let outcome = async {
                let mut pooled = db.conn().await?;
                let mut conn = pooled.db();
                let granted = attempts::try_acquire_all(&mut conn, keys, at, since).await?;
                if self.reservations.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
                    attempts::prune(&mut conn, since).await?;
                }
                Ok::<bool, crate::db::DbError>(granted)
            }
            .await;
            match outcome {
                Ok(granted) => return granted,
                Err(err) => tracing::warn!(%err, "attempt limits: the database did not answer; counting in this process"),
            }
        }
        self.memory.try_acquire_all(keys)
    }

    /// Reserves one slot for `key` unless it is already at `limit`; `false` when limited.
    pub async fn try_acquire(&self, key: &str, limit: usize) -> bool {
        self.try_acquire_all(&[(key, limit)]).await
    }

    /// Records one event for `key` whatever its count (tests fill a counter this way).
    pub async fn record(&self, key: &str) {
        self.try_acquire(key, usize::MAX).await;
    }

    /// Gives back the latest slot of `key` (the attempt it guarded succeeded).
    pub async fn release(&self, key: &str) {
        if let Some(db) = &self.db {
            let (since, _) = Self::window();
            let outcome = async {
                let mut pooled = db.conn().await?;
                attempts::release(&mut pooled.db(), key, since).await?;
                Ok::<(), crate::db::DbError>(())
            }
            .await;
            match outcome {
                Ok(()) => return,
                Err(err) => tracing::warn!(%err, "attempt limits: the database did not answer; counting in this process"),
            }
        }
        self.memory.release(key)
    }

    /// Forgets `key` (a successful sign-in clears the account's failures).
    pub async fn clear(&self, key: &str) {
        if let Some(db) = &self.db {
            let outcome = async {
                let mut pooled = db.conn().await?;
                attempts::clear(&mut pooled.db(), key).await?;
                Ok::<(), crate::db::DbError>(())
            }
            .await;
            if let Err(err) = outcome {
                tracing::warn!(%err, "attempt limits: the database did not answer; counting in this process");
            }
        }
        self.memory.clear(key)
    }
}

/// Timestamps of recent events per key, in this process's memory (SQLite's limits).
#[derive(Debug, Default)]
pub struct RateLimiter {
    events: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RateLimiter {
    /// Whether `key` already has `limit` events within the window.
    pub fn is_limited(&self, key: &str, limit: usize) -> bool {
        let mut events = self.lock();
        let now = Instant::now();
        match events.get_mut(key) {
            Some(times) => {
                prune(times, now);
                times.len() >= limit
            }
            None => false,
        }
    }

    /// Reserves one slot for each `(key, limit)` if none of the keys is at its limit, all
    /// under one lock; `false` (and nothing recorded) when any is.
    pub fn try_acquire_all(&self, keys: &[(&str, usize)]) -> bool {
        let mut events = self.lock();
        let now = Instant::now();
        // Keep the map from growing without bound: sweep empty keys now and then.
        if events.len() > 10_000 {
            events.retain(|_, times| {
                prune(times, now);
                !times.is_empty()
            });
        }
        for (key, limit) in keys {
            if let Some(times) = events.get_mut(*key) {
                prune(times, now);
                if times.len() >= *limit {
                    return false;
                }
            }
        }
        for (key, _) in keys {
            events.entry((*key).to_owned()).or_default().push_back(now);
        }
        true
    }

    /// Records one event for `key` whatever its count (tests fill a counter this way).
    pub fn record(&self, key: &str) {
        self.try_acquire(key, usize::MAX);
    }

    /// Reserves one slot for `key` unless it is already at `limit`; `false` when limited.
    pub fn try_acquire(&self, key: &str, limit: usize) -> bool {
        self.try_acquire_all(&[(key, limit)])
    }

    /// Gives back the latest slot of `key` (the attempt it guarded succeeded).
    pub fn release(&self, key: &str) {
        let mut events = self.lock();
        if let Some(times) = events.get_mut(key) {
            times.pop_back();
            if times.is_empty() {
                events.remove(key);
            }
        }
    }

    /// Forgets `key` (a successful sign-in clears the account's failures).
    pub fn clear(&self, key: &str) {
        self.lock().remove(key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, VecDeque<Instant>>> {
        // A panic while holding the lock leaves only counters behind: keep using them.
        self.events
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn prune(times: &mut VecDeque<Instant>, now: Instant) {
    while times
        .front()
        .is_some_and(|t| now.duration_since(*t) >= WINDOW)
    {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_after_the_count_and_clears() {
        let limiter = RateLimiter::default();
        for _ in 0..ACCOUNT_LIMIT {
            assert!(!limiter.is_limited("account:a", ACCOUNT_LIMIT));
            assert!(limiter.try_acquire("account:a", ACCOUNT_LIMIT));
        }
        assert!(limiter.is_limited("account:a", ACCOUNT_LIMIT));
        assert!(!limiter.try_acquire("account:a", ACCOUNT_LIMIT));
        assert!(!limiter.is_limited("account:b", ACCOUNT_LIMIT));
        limiter.clear("account:a");
        assert!(!limiter.is_limited("account:a", ACCOUNT_LIMIT));
        assert!(limiter.try_acquire("reset:a", 1));
        assert!(!limiter.try_acquire("reset:a", 1));
        limiter.release("reset:a");
        assert!(limiter.try_acquire("reset:a", 1));
    }

    #[test]
    fn all_or_nothing_across_keys() {
        let limiter = RateLimiter::default();
        assert!(limiter.try_acquire("ip:x", 1));
        // The address is full: the account key must not be charged either.
        assert!(!limiter.try_acquire_all(&[("account:a", 5), ("ip:x", 1)]));
        assert!(!limiter.is_limited("account:a", 1));
    }

    #[test]
    fn parallel_reservations_stop_exactly_at_the_limit() {
        let limiter = std::sync::Arc::new(RateLimiter::default());
        let threads: Vec<_> = (0..40)
            .map(|_| {
                let limiter = limiter.clone();
                std::thread::spawn(move || {
                    limiter
                        .try_acquire_all(&[("account:a", ACCOUNT_LIMIT), ("ip:x", ADDRESS_LIMIT)])
                })
            })
            .collect();
        let granted = threads
            .into_iter()
            .map(|t| t.join().expect("join"))
            .filter(|granted| *granted)
            .count();
        assert_eq!(granted, ACCOUNT_LIMIT);
    }
}
