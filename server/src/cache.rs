//! A small in-process read cache for answers the database gives far more often than it
//! changes (issue 15): the session lookup (`auth::session_cache`) and the Feedback Hub
//! badge count (`models::hub_count`).
//!
//! The rules, the same for every use:
//! * An entry is answered for at most its `ttl`: the bound within which a change made by
//!   **another** process (a second server, the CLI, SQL by hand) is seen.
//! * Every model function of **this** process that changes what an entry depends on calls
//!   [`ProcessCache::invalidate`], which empties the cache and moves its generation on: the
//!   next read goes to the database.
//! * A read that began before an invalidation is not kept ([`ProcessCache::put`] takes the
//!   generation read before the query). The write that invalidated may sit in a transaction
//!   that has not committed yet, so nothing is kept for `settle` after an invalidation.
//! * At most `max_entries`; a full cache starts again empty.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;
use std::time::{Duration, Instant};

struct Entry<V> {
    value: V,
    generation: u64,
    cached_at: Instant,
}

/// See the module's rules.
pub struct ProcessCache<K, V> {
    ttl: Duration,
    settle: Duration,
    max_entries: usize,
    generation: AtomicU64,
    /// When the last invalidation happened, in milliseconds after `started`.
    invalidated_ms: AtomicU64,
    started: Instant,
    entries: RwLock<HashMap<K, Entry<V>>>,
}

impl<K: Eq + Hash, V: Clone> ProcessCache<K, V> {
    pub fn new(ttl: Duration, settle: Duration, max_entries: usize) -> ProcessCache<K, V> {
        ProcessCache {
            ttl,
            settle,
            max_entries,
            generation: AtomicU64::new(0),
            invalidated_ms: AtomicU64::new(0),
            started: Instant::now(),
            entries: RwLock::new(HashMap::new()),
        }
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// The value kept for `key`, when it is fresh and `usable` accepts it.
    pub fn get<Q>(&self, key: &Q, usable: impl FnOnce(&V) -> bool) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let generation = self.generation.load(Ordering::Acquire);
        let entries = self.entries.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = entries.get(key)?;
        (entry.generation == generation && entry.cached_at.elapsed() < self.ttl && usable(&entry.value))
            .then(|| entry.value.clone())
    }

    /// The generation to read before querying the database, for [`ProcessCache::put`].
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Keeps `value`, read from the database when the generation was `generation`: not kept
    /// when an invalidation came since, or less than `settle` ago.
    pub fn put(&self, key: K, value: V, generation: u64) {
        let invalidated = self.invalidated_ms.load(Ordering::Acquire);
        if generation > 0 && self.now_ms().saturating_sub(invalidated) < self.settle.as_millis() as u64 {
            return;
        }
        let mut entries = self.entries.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.generation.load(Ordering::Acquire) != generation {
            return;
        }
        if entries.len() >= self.max_entries {
            entries.clear();
        }
        entries.insert(key, Entry { value, generation, cached_at: Instant::now() });
    }

    /// Forgets every entry.
    pub fn invalidate(&self) {
        self.invalidated_ms.store(self.now_ms(), Ordering::Release);
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.entries.write().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
    }

    pub fn len(&self) -> usize {
        self.entries.read().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_kept_until_its_time_is_up_or_it_is_unusable() {
        let cache = ProcessCache::new(Duration::from_millis(200), Duration::from_millis(100), 10);
        cache.put("a", 1, cache.generation());
        assert_eq!(cache.get(&"a", |_| true), Some(1));
        assert_eq!(cache.get(&"b", |_| true), None);
        assert_eq!(cache.get(&"a", |v| *v > 1), None, "the caller may refuse an entry (an expired session)");
        std::thread::sleep(Duration::from_millis(250));
        assert_eq!(cache.get(&"a", |_| true), None, "older than the TTL");
    }

    #[test]
    fn an_invalidation_forgets_everything_and_refuses_reads_that_began_before_it() {
        let cache = ProcessCache::new(Duration::from_secs(60), Duration::from_millis(100), 10);
        cache.put("a", 1, cache.generation());
        let before = cache.generation();
        cache.invalidate();
        assert_eq!(cache.get(&"a", |_| true), None);
        assert!(cache.is_empty());
        cache.put("a", 1, before);
        assert!(cache.is_empty(), "a read that began before the write");
        cache.put("a", 1, cache.generation());
        assert!(cache.is_empty(), "a read while the write may still be committing");
        std::thread::sleep(Duration::from_millis(150));
        cache.put("a", 2, cache.generation());
        assert_eq!(cache.get(&"a", |_| true), Some(2));
    }

    #[test]
    fn a_full_cache_starts_again() {
        let cache = ProcessCache::new(Duration::from_secs(60), Duration::ZERO, 2);
        for key in ["a", "b", "c"] {
            cache.put(key, 0, cache.generation());
        }
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.get(&"c", |_| true), Some(0));
    }
}
