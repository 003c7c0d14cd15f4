//! A small in-process read cache for answers the database gives far more often than it
//! changes (issue 15): the session lookup (`auth::session_cache`) and the Feedback Hub
//! badge count (`models::hub_count`).
//!
//! The rules, the same for every use:
//! * Every model function that changes what an entry depends on publishes the change on the
//!   change feed (`crate::db::changes`, docs/scaling.md); each cache subscribes and, on a
//!   change it depends on, calls [`ProcessCache::invalidate`], which empties the cache and
//!   moves its generation on: the next read goes to the database. In **this** process at
//!   once; in **every other** process on the same PostgreSQL when the notification arrives
//!   after the commit (milliseconds; docs/scaling.md has the measured delay).
//! * An entry is answered for at most its `ttl`: the bound for what the feed does not carry
//!   (SQL typed by hand; a process whose listening connection is down, which empties its
//!   caches when it notices and again when it listens again).
//! * A read that began before an invalidation is not kept ([`ProcessCache::put`] takes the
//!   generation read before the query). The write that invalidated may sit in a transaction
//!   that has not committed yet, so nothing is kept for `settle` after an invalidation.
//! * At most `max_entries`; a full cache starts again empty.
//! * [`ProcessCache::get_or_fill`] fills a missing entry once however many requests miss it
//!   together (single flight): the others wait for that one read and share its answer.
//! * `VOICEMARK_READ_CACHES` ([`set_enabled`]) turns the caches off, to measure or to rule a
//!   cache out: `off` every one, or a list of the ones kept (`sessions,hub-count` measures
//!   the roster's first read after a change with the rest as it runs). A read with its
//!   cache off goes to the database.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// The process's read caches, as `VOICEMARK_READ_CACHES` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheKind {
    /// `auth::session_cache`.
    Sessions,
    /// `models::hub_count`.
    HubCount,
    /// `models::roster` (whose answer, while this is off, is sent once and not compressed).
    Roster,
    /// A MAT user's trust-wide Insights (`rpc::insights`): kept a minute, not emptied by
    /// the change feed (docs/insights.md).
    TrustInsights,
}

impl CacheKind {
    pub const ALL: [CacheKind; 4] =
        [CacheKind::Sessions, CacheKind::HubCount, CacheKind::Roster, CacheKind::TrustInsights];

    pub fn name(self) -> &'static str {
        match self {
            CacheKind::Sessions => "sessions",
            CacheKind::HubCount => "hub-count",
            CacheKind::Roster => "roster",
            CacheKind::TrustInsights => "trust-insights",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }

    /// A `VOICEMARK_READ_CACHES` value: `on`, `off`, or the names of the caches kept,
    /// separated by commas. `None` when a name is unknown.
    pub fn parse_setting(value: &str) -> Option<Vec<CacheKind>> {
        match value.trim() {
            "on" => Some(CacheKind::ALL.to_vec()),
            "off" => Some(Vec::new()),
            list => list
                .split(',')
                .map(|name| CacheKind::ALL.into_iter().find(|kind| kind.name() == name.trim()))
                .collect(),
        }
    }
}

static ENABLED: AtomicU8 = AtomicU8::new(u8::MAX);

/// Turns on the caches given and off the others (the `VOICEMARK_READ_CACHES` setting).
pub fn set_enabled(kinds: &[CacheKind]) {
    ENABLED.store(kinds.iter().fold(0, |bits, kind| bits | kind.bit()), Ordering::Release);
}

/// Whether the cache `kind` is on.
pub fn is_enabled(kind: CacheKind) -> bool {
    ENABLED.load(Ordering::Acquire) & kind.bit() != 0
}

/// One fill under way: who joins it shares its answer. Only a request that began in the same
/// generation joins, so nobody gets an answer read before a write it follows.
struct Flight<V> {
    generation: u64,
    cell: Arc<tokio::sync::OnceCell<V>>,
}

struct Entry<V> {
    value: V,
    generation: u64,
    cached_at: Instant,
}

/// See the module's rules.
pub struct ProcessCache<K, V> {
    kind: CacheKind,
    ttl: Duration,
    settle: Duration,
    max_entries: usize,
    generation: AtomicU64,
    /// When the last invalidation happened, in milliseconds after `started`.
    invalidated_ms: AtomicU64,
    started: Instant,
    entries: RwLock<HashMap<K, Entry<V>>>,
    flights: Mutex<HashMap<K, Flight<V>>>,
}

impl<K: Eq + Hash, V: Clone> ProcessCache<K, V> {
    pub fn new(kind: CacheKind, ttl: Duration, settle: Duration, max_entries: usize) -> ProcessCache<K, V> {
        ProcessCache {
            kind,
            ttl,
            settle,
            max_entries,
            generation: AtomicU64::new(0),
            invalidated_ms: AtomicU64::new(0),
            started: Instant::now(),
            entries: RwLock::new(HashMap::new()),
            flights: Mutex::new(HashMap::new()),
        }
    }

    /// Whether this cache keeps anything (its kind is not turned off).
    pub fn keeps(&self) -> bool {
        is_enabled(self.kind)
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
        if !self.keeps() {
            return None;
        }
        let generation = self.generation.load(Ordering::Acquire);
        let entries = self.entries.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        let found = entries.get(key).filter(|entry| {
            entry.generation == generation && entry.cached_at.elapsed() < self.ttl && usable(&entry.value)
        });
        crate::metrics::cache_lookup(self.kind.name(), found.is_some());
        found.map(|entry| entry.value.clone())
    }

    /// The generation to read before querying the database, for [`ProcessCache::put`].
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Keeps `value`, read from the database when the generation was `generation`: not kept
    /// when an invalidation came since, or less than `settle` ago.
    pub fn put(&self, key: K, value: V, generation: u64) {
        if !self.keeps() {
            return;
        }
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

    /// The value kept for `key`, or else `fill`'s answer, which is kept. Requests that miss
    /// the same key together run one `fill` and share its answer (a request whose fill fails
    /// or is dropped hands the fill to the next waiter).
    pub async fn get_or_fill<Q, E, Fut>(&self, key: &Q, fill: impl FnOnce() -> Fut) -> Result<V, E>
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ToOwned<Owned = K> + ?Sized,
        Fut: Future<Output = Result<V, E>>,
    {
        if !self.keeps() {
            return fill().await;
        }
        if let Some(value) = self.get(key, |_| true) {
            return Ok(value);
        }
        let generation = self.generation();
        let cell = {
            let mut flights = self.flights.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            match flights.get(key) {
                Some(flight) if flight.generation == generation => flight.cell.clone(),
                _ => {
                    let cell = Arc::new(tokio::sync::OnceCell::new());
                    flights.insert(key.to_owned(), Flight { generation, cell: cell.clone() });
                    cell
                }
            }
        };
        let filled = cell
            .get_or_try_init(|| async {
                let value = fill().await?;
                self.put(key.to_owned(), value.clone(), generation);
                Ok(value)
            })
            .await
            .cloned();
        let mut flights = self.flights.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if flights.get(key).is_some_and(|flight| Arc::ptr_eq(&flight.cell, &cell)) && cell.initialized() {
            flights.remove(key);
        }
        filled
    }

    /// Forgets every entry.
    pub fn invalidate(&self) {
        self.invalidated_ms.store(self.now_ms(), Ordering::Release);
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.entries.write().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        self.flights.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
    }

    pub fn len(&self) -> usize {
        self.entries.read().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests;
