//! Counting failed sign-in attempts in memory, per account and per client address.
//!
//! Counters live in this process only: with several server processes each keeps its own
//! (so the effective limit is the limit times the number of processes), and a restart
//! forgets them. Good enough against guessing; a shared store can replace this later.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed sign-ins allowed per account within [`WINDOW`].
pub const ACCOUNT_LIMIT: usize = 5;
/// Failed sign-ins allowed per client address within [`WINDOW`].
pub const ADDRESS_LIMIT: usize = 20;
/// Password-reset e-mails allowed per address within [`WINDOW`].
pub const RESET_LIMIT: usize = 5;
/// The sliding window the limits count over: 15 minutes.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// Timestamps of recent events per key, e.g. `account:ada@school.org` or `ip:10.0.0.1`.
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

    /// Records one event for `key`.
    pub fn record(&self, key: &str) {
        let mut events = self.lock();
        let now = Instant::now();
        // Keep the map from growing without bound: sweep empty keys now and then.
        if events.len() > 10_000 {
            events.retain(|_, times| {
                prune(times, now);
                !times.is_empty()
            });
        }
        let times = events.entry(key.to_owned()).or_default();
        prune(times, now);
        times.push_back(now);
    }

    /// Records an event for `key` unless it is already at `limit`; `false` when limited.
    pub fn try_acquire(&self, key: &str, limit: usize) -> bool {
        if self.is_limited(key, limit) {
            return false;
        }
        self.record(key);
        true
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
            limiter.record("account:a");
        }
        assert!(limiter.is_limited("account:a", ACCOUNT_LIMIT));
        assert!(!limiter.is_limited("account:b", ACCOUNT_LIMIT));
        limiter.clear("account:a");
        assert!(!limiter.is_limited("account:a", ACCOUNT_LIMIT));
        assert!(limiter.try_acquire("reset:a", 1));
        assert!(!limiter.try_acquire("reset:a", 1));
    }
}
