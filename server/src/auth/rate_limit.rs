//! Attempt limits in memory, per account, per e-mail address and per client address.
//!
//! A limited action *reserves* its slots before it does the work it guards, under one lock
//! for every key it touches ([`RateLimiter::try_acquire_all`]): of 40 parallel wrong
//! passwords for one account exactly [`ACCOUNT_LIMIT`] reach the password check, because the
//! sixth finds the five slots taken even while the first five are still being verified. A
//! success gives its slot back ([`RateLimiter::release`]) or clears the account's failures.
//! (The `governor` crate was the other candidate: its GCRA is a rate that refills
//! continuously and has no "give the slot back on success", so "at most N failures per
//! 15 minutes" would only be approximated; this map is exact and has no dependency.)
//!
//! Counters live in this process only: with several server processes each keeps its own
//! (so the effective limit is the limit times the number of processes), and a restart
//! forgets them. Good enough against guessing; a shared store can replace this later.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
