//! A small in-process read cache for answers the database gives far more often than it
//! changes (issue 15): the session lookup (`auth::session_cache`), the Feedback Hub badge
//! count (`models::hub_count`), the roster and the audience pickers' answer (`models::roster`)
//! and a trust's Insights.
//!
//! The rules, the same for every use:
//! * Every model function that changes what an entry depends on publishes the change on the
//!   change feed (`crate::db::changes`, docs/scaling.md); each cache subscribes and, on a
//!   change it depends on, calls [`ProcessCache::invalidate`], which empties the cache, or,
//!   for a change that names its school and a cache whose keys each belong to one school
//!   ([`ProcessCache::with_schools`]: the badge counts), [`ProcessCache::invalidate_school`],
//!   which drops that school's entries only. The next read of what was dropped goes to the
//!   database. In **this** process at once; in **every other** process on the same
//!   PostgreSQL when the notification arrives after the commit (milliseconds;
//!   docs/scaling.md has the measured delay).
//! * An entry is answered for at most its `ttl`: the bound for what the feed does not carry
//!   (SQL typed by hand; a process whose listening connection is down, which empties its
//!   caches when it notices and again when it listens again).
//! * A read that began before an invalidation of its key (of everything, or of its school)
//!   is not kept ([`ProcessCache::put`] takes the generation read before the query). The
//!   write that invalidated may sit in a transaction that has not committed yet, so nothing
//!   of what it dropped is kept for `settle` after it: nothing at all after an invalidation
//!   of everything, nothing of that school after a school's.
//! * **One generation, and each school's last invalidation.** A per-school generation is
//!   not needed: the cache has one counter that every invalidation moves on, and remembers
//!   the counter's value and the time of each school's last invalidation (and of the last
//!   of everything). A read carries the counter's value from before its query; it is kept
//!   only if neither its school's mark nor everything's is later, and neither is within
//!   `settle`. A counter per school would say the same with a counter to look up before
//!   every read; one counter also orders a school's invalidation against one of everything.
//!   Another school's invalidation moves the counter but stops nothing: its reads are kept
//!   and its fills still shared. A school's mark is forgotten after [`SCHOOL_MARKS_KEPT`]
//!   (the memory stays bounded by the schools changed in those seconds); forgetting it
//!   raises the floor below which no read is kept, so a read still running from before a
//!   forgotten invalidation is refused whatever its school: refusing to keep is always safe.
//!   An invalidation and an insertion take the same lock, so an entry present was always
//!   read after the last invalidation of its key.
//! * Bounded by entries (`max_entries`; a full cache drops its expired entries, and starts
//!   again empty if that is not enough), or by bytes ([`ProcessCache::bounded_by_bytes`]:
//!   the rosters, hundreds of KB each), dropping the expired entries at every insertion and
//!   then, when that is not enough, the least recently used. That bound is written here
//!   rather than taken from a crate (`moka`, `quick_cache`; none is in the build) because a
//!   roster weighs less after it is kept: its compressed form, made in the background,
//!   replaces the reserve counted for it, and
//!   those crates fix an entry's weight when it is inserted (`quick_cache` calls a change
//!   undefined behaviour); weighing every entry again at each insertion needs no more than
//!   this file's map, and the entries are few. The generation and settling checks must
//!   anyway be made under the same lock as the insertion.
//! * [`ProcessCache::get_or_fill`] fills a missing entry once however many requests miss it
//!   together (single flight): the others wait for that one read and share its answer.
//! * A cache made [`ProcessCache::serving_stale_for`] a while also answers an entry past its
//!   `ttl`, for that while, through [`ProcessCache::get_or_refresh`]: the request is answered
//!   at once from the entry and one read in the background replaces it (refresh ahead: a
//!   trust's Insights, whose read takes seconds). Only a request that finds nothing, or an
//!   entry older than `ttl` and that while together, waits for the database.
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
    /// `models::roster`: the roster and the audience pickers' answers (each, while this is
    /// off, sent once and not compressed).
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

/// One fill under way: who joins it shares its answer. Only a request for which no
/// invalidation of its key came since the fill began joins it, so nobody gets an answer read
/// before a write it follows.
struct Flight<V> {
    generation: u64,
    cell: Arc<tokio::sync::OnceCell<V>>,
}

struct Entry<V> {
    value: V,
    cached_at: Instant,
    /// When it was last kept or answered, on the cache's own clock: with a byte bound the
    /// least recently used entries go first.
    used: AtomicU64,
}

/// What bounds a cache's size.
enum Bound<V> {
    /// At most this many entries: a full cache drops its expired entries, and starts again
    /// empty when that is not enough (cheap, and these entries are small).
    Entries(usize),
    /// At most `max` bytes as `weigh` counts them, every entry weighed again at each
    /// insertion: the least recently used entries are dropped until the new one fits.
    Bytes { max: usize, weigh: fn(&V) -> usize },
}

/// The last invalidation of one school's entries.
#[derive(Clone, Copy)]
struct SchoolMark {
    generation: u64,
    at_ms: u64,
}

/// How long a school's last invalidation is remembered (at least `settle`). A read that
/// began before an invalidation forgotten since is refused whatever its school.
const SCHOOL_MARKS_KEPT: Duration = Duration::from_secs(10);

/// What the cache holds, and what decides whether a read may still be kept; changed only
/// under one lock, so an invalidation and an insertion never interleave.
struct State<K, V> {
    entries: HashMap<K, Entry<V>>,
    /// A read that began before this generation is not kept: the last invalidation of
    /// everything, or of a school whose mark was forgotten since.
    floor: u64,
    /// When everything was last invalidated (`None`: never).
    everything_at_ms: Option<u64>,
    /// Each school's last invalidation, for [`SCHOOL_MARKS_KEPT`].
    schools: HashMap<String, SchoolMark>,
}

/// See the module's rules.
pub struct ProcessCache<K, V> {
    kind: CacheKind,
    ttl: Duration,
    /// How long past `ttl` [`ProcessCache::get_or_refresh`] still answers an entry.
    stale_for: Duration,
    settle: Duration,
    bound: Bound<V>,
    /// The school of an entry's key, for a cache that can forget one school's entries.
    school_of: Option<fn(&K) -> &str>,
    /// Moves on with every invalidation, of everything or of one school.
    generation: AtomicU64,
    /// Counts reads and insertions: an entry's [`Entry::used`].
    clock: AtomicU64,
    started: Instant,
    state: RwLock<State<K, V>>,
    flights: Mutex<HashMap<K, Flight<V>>>,
}

impl<K: Eq + Hash, V: Clone> ProcessCache<K, V> {
    /// A cache of at most `max_entries`.
    pub fn new(kind: CacheKind, ttl: Duration, settle: Duration, max_entries: usize) -> ProcessCache<K, V> {
        ProcessCache::bounded(kind, ttl, settle, Bound::Entries(max_entries))
    }

    /// A cache of at most `max_bytes` as `weigh` counts an entry. `weigh` may count less for
    /// an entry later than when it was kept, never more: then the total, checked at each
    /// insertion, holds until the next.
    pub fn bounded_by_bytes(
        kind: CacheKind,
        ttl: Duration,
        settle: Duration,
        max_bytes: usize,
        weigh: fn(&V) -> usize,
    ) -> ProcessCache<K, V> {
        ProcessCache::bounded(kind, ttl, settle, Bound::Bytes { max: max_bytes, weigh })
    }

    fn bounded(kind: CacheKind, ttl: Duration, settle: Duration, bound: Bound<V>) -> ProcessCache<K, V> {
        ProcessCache {
            kind,
            ttl,
            stale_for: Duration::ZERO,
            settle,
            bound,
            school_of: None,
            generation: AtomicU64::new(0),
            clock: AtomicU64::new(0),
            started: Instant::now(),
            state: RwLock::new(State {
                entries: HashMap::new(),
                floor: 0,
                everything_at_ms: None,
                schools: HashMap::new(),
            }),
            flights: Mutex::new(HashMap::new()),
        }
    }

    /// This cache's keys each belong to the school `school_of` names, so that
    /// [`ProcessCache::invalidate_school`] forgets only that school's.
    pub fn with_schools(mut self, school_of: fn(&K) -> &str) -> ProcessCache<K, V> {
        self.school_of = Some(school_of);
        self
    }

    /// Entries are kept `stale_for` past their `ttl`, for [`ProcessCache::get_or_refresh`] to
    /// answer while it reads them again.
    pub fn serving_stale_for(mut self, stale_for: Duration) -> ProcessCache<K, V> {
        self.stale_for = stale_for;
        self
    }

    /// How long an entry is kept: its `ttl` and the while it may be answered stale.
    fn kept_for(&self) -> Duration {
        self.ttl + self.stale_for
    }

    /// Whether this cache keeps anything (its kind is not turned off).
    pub fn keeps(&self) -> bool {
        is_enabled(self.kind)
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn state(&self) -> std::sync::RwLockReadGuard<'_, State<K, V>> {
        self.state.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn state_mut(&self) -> std::sync::RwLockWriteGuard<'_, State<K, V>> {
        self.state.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn flights(&self) -> std::sync::MutexGuard<'_, HashMap<K, Flight<V>>> {
        self.flights.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value kept for `key`, when it is fresh and `usable` accepts it.
    pub fn get<Q>(&self, key: &Q, usable: impl FnOnce(&V) -> bool) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.lookup(key, self.ttl, usable).map(|(value, _)| value)
    }

    /// The value kept for `key` if it is younger than `within` and `usable` accepts it, and
    /// whether it is still fresh (younger than the `ttl`).
    fn lookup<Q>(&self, key: &Q, within: Duration, usable: impl FnOnce(&V) -> bool) -> Option<(V, bool)>
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        if !self.keeps() {
            return None;
        }
        // Every entry present was read after the last invalidation of its key: an
        // invalidation removes what it makes stale under the same lock as insertions.
        let state = self.state();
        let found = state
            .entries
            .get(key)
            .filter(|entry| entry.cached_at.elapsed() < within && usable(&entry.value));
        crate::metrics::cache_lookup(self.kind.name(), found.is_some());
        found.map(|entry| {
            entry.used.store(self.clock.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
            (entry.value.clone(), entry.cached_at.elapsed() < self.ttl)
        })
    }

    /// The generation to read before querying the database, for [`ProcessCache::put`].
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The generation a read of `key` must have begun at or after to be kept or shared: the
    /// last invalidation of everything, or of its school.
    fn cutoff(&self, state: &State<K, V>, key: &K) -> u64 {
        let school = self.school_of.and_then(|school_of| state.schools.get(school_of(key)));
        school.map_or(state.floor, |mark| mark.generation.max(state.floor))
    }

    /// Keeps `value`, read from the database when the generation was `generation`: not kept
    /// when an invalidation of everything or of its school came since, or less than
    /// `settle` ago.
    pub fn put(&self, key: K, value: V, generation: u64) {
        self.put_at(key, value, generation, Instant::now());
    }

    /// Like [`ProcessCache::put`], for a value worked out `age` ago elsewhere (a trust's
    /// answer another process kept in the database): fresh for what is left of the `ttl`,
    /// then answered stale by [`ProcessCache::get_or_refresh`] while it is read again.
    pub fn put_aged(&self, key: K, value: V, generation: u64, age: Duration) {
        self.put_at(key, value, generation, Instant::now().checked_sub(age).unwrap_or_else(Instant::now));
    }

    /// Whether an entry for `key` is kept, fresh or within `stale_for` past its `ttl`.
    pub fn holds<Q>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.keeps() && self.state().entries.get(key).is_some_and(|entry| entry.cached_at.elapsed() < self.kept_for())
    }

    /// Whether a read of `key` is under way (a fill, or a refresh in the background).
    pub fn reading<Q>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.flights().contains_key(key)
    }

    fn put_at(&self, key: K, value: V, generation: u64, cached_at: Instant) {
        if !self.keeps() {
            return;
        }
        let (now, settle) = (self.now_ms(), self.settle.as_millis() as u64);
        let settling = |at_ms: u64| now.saturating_sub(at_ms) < settle;
        let mut state = self.state_mut();
        let school = self.school_of.and_then(|school_of| state.schools.get(school_of(&key)).copied());
        if generation < self.cutoff(&state, &key)
            || state.everything_at_ms.is_some_and(settling)
            || school.is_some_and(|mark| settling(mark.at_ms))
        {
            return;
        }
        if !self.make_room(&mut state.entries, &key, &value) {
            return;
        }
        let used = AtomicU64::new(self.clock.fetch_add(1, Ordering::Relaxed));
        state.entries.insert(key, Entry { value, cached_at, used });
    }

    /// Drops entries so that `value` fits under the bound; false when it cannot fit at all.
    fn make_room(&self, entries: &mut HashMap<K, Entry<V>>, key: &K, value: &V) -> bool {
        let ttl = self.kept_for();
        match self.bound {
            Bound::Entries(max) => {
                if entries.len() >= max && !entries.contains_key(key) {
                    entries.retain(|_, entry| entry.cached_at.elapsed() < ttl);
                    if entries.len() >= max {
                        entries.clear();
                    }
                }
                true
            }
            Bound::Bytes { max, weigh } => {
                entries.remove(key);
                let needed = weigh(value);
                if needed > max {
                    return false;
                }
                // Entries past their time are dropped at every insertion, not only when the
                // bound is reached: nobody is answered from them, and a roster kept five
                // seconds would otherwise hold its hundreds of KB until the cache is full
                // (two such caches full were half of a busy process's memory, stop 48).
                entries.retain(|_, entry| entry.cached_at.elapsed() < ttl);
                // Each entry weighed once, now, with whether it is still fresh and when it
                // was last used. A few hundred entries at most: sorting them is cheap.
                let order = |entry: &Entry<V>| (entry.cached_at.elapsed() < ttl, entry.used.load(Ordering::Relaxed));
                let mut held: Vec<((bool, u64), usize)> =
                    entries.values().map(|entry| (order(entry), weigh(&entry.value))).collect();
                let mut total = held.iter().map(|(_, weight)| weight).sum::<usize>() + needed;
                if total <= max {
                    return true;
                }
                // Expired entries first (nobody is answered from them), then the least
                // recently used; `used` values are all different.
                held.sort_unstable();
                let mut last_dropped = None;
                for (place, weight) in held {
                    if total <= max {
                        break;
                    }
                    total -= weight;
                    last_dropped = Some(place);
                }
                if let Some(last) = last_dropped {
                    entries.retain(|_, entry| order(entry) > last);
                }
                true
            }
        }
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
        let cutoff = self.cutoff(&self.state(), &key.to_owned());
        let cell = {
            let mut flights = self.flights();
            match flights.get(key) {
                Some(flight) if flight.generation >= cutoff => flight.cell.clone(),
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
        let mut flights = self.flights();
        if flights.get(key).is_some_and(|flight| Arc::ptr_eq(&flight.cell, &cell)) && cell.initialized() {
            flights.remove(key);
        }
        filled
    }

    /// Like [`ProcessCache::get_or_fill`], but an entry past its `ttl` and within
    /// `stale_for` of it is answered at once while `fill` runs in the background (once,
    /// however many ask meanwhile) and replaces it; a refresh that fails leaves the entry,
    /// and the next request past the `ttl` tries again. Needs a `'static` cache (a
    /// `LazyLock`) and a `fill` that owns what it reads with.
    pub async fn get_or_refresh<E, Fut>(&'static self, key: K, fill: impl FnOnce() -> Fut + Send + 'static) -> Result<V, E>
    where
        K: Clone + Send + Sync + 'static,
        V: Send + Sync + 'static,
        E: std::fmt::Debug + Send + 'static,
        Fut: Future<Output = Result<V, E>> + Send + 'static,
    {
        match self.lookup(&key, self.kept_for(), |_| true) {
            Some((value, true)) => Ok(value),
            Some((value, false)) => {
                self.refresh(key, fill);
                Ok(value)
            }
            None => self.get_or_fill(&key, fill).await,
        }
    }

    /// Reads `key` again in the background, unless a read of it is already under way.
    fn refresh<E, Fut>(&'static self, key: K, fill: impl FnOnce() -> Fut + Send + 'static)
    where
        K: Clone + Send + Sync + 'static,
        V: Send + Sync + 'static,
        E: std::fmt::Debug + Send + 'static,
        Fut: Future<Output = Result<V, E>> + Send + 'static,
    {
        let generation = self.generation();
        let cell = {
            let mut flights = self.flights();
            if flights.contains_key(&key) {
                return;
            }
            let cell = Arc::new(tokio::sync::OnceCell::new());
            flights.insert(key.clone(), Flight { generation, cell: cell.clone() });
            cell
        };
        tokio::spawn(async move {
            let filled = cell
                .get_or_try_init(|| async {
                    let value = fill().await?;
                    self.put(key.clone(), value.clone(), generation);
                    Ok::<_, E>(value)
                })
                .await;
            if let Err(err) = filled {
                tracing::warn!(cache = self.kind.name(), error = ?err, "a background refresh failed; the kept answer stays");
            }
            let mut flights = self.flights();
            if flights.get(&key).is_some_and(|flight| Arc::ptr_eq(&flight.cell, &cell)) {
                flights.remove(&key);
            }
        });
    }

    /// Forgets every entry.
    pub fn invalidate(&self) {
        let mut state = self.state_mut();
        let generation = self.generation.load(Ordering::Acquire) + 1;
        state.floor = generation;
        state.everything_at_ms = Some(self.now_ms());
        state.schools.clear();
        state.entries.clear();
        self.flights().clear();
        // Last, so a request that reads the new generation finds no older flight to join.
        self.generation.store(generation, Ordering::Release);
    }

    /// Forgets `school`'s entries (every entry, for a cache made without
    /// [`ProcessCache::with_schools`]); the other schools' stay.
    pub fn invalidate_school(&self, school: &str) {
        let Some(school_of) = self.school_of else {
            return self.invalidate();
        };
        let now = self.now_ms();
        let remembered = SCHOOL_MARKS_KEPT.max(self.settle).as_millis() as u64;
        let ttl = self.kept_for();
        let mut state = self.state_mut();
        let generation = self.generation.load(Ordering::Acquire) + 1;
        let mut floor = state.floor;
        state.schools.retain(|_, mark| {
            let keep = now.saturating_sub(mark.at_ms) < remembered;
            if !keep {
                floor = floor.max(mark.generation);
            }
            keep
        });
        state.floor = floor;
        state.schools.insert(school.to_owned(), SchoolMark { generation, at_ms: now });
        state.entries.retain(|key, entry| school_of(key) != school && entry.cached_at.elapsed() < ttl);
        self.flights().retain(|key, _| school_of(key) != school);
        self.generation.store(generation, Ordering::Release);
    }

    pub fn len(&self) -> usize {
        self.state().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes held as the byte bound counts them (0 for a cache bounded by entries).
    pub fn bytes(&self) -> usize {
        match self.bound {
            Bound::Bytes { weigh, .. } => self.state().entries.values().map(|entry| weigh(&entry.value)).sum(),
            Bound::Entries(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests;
