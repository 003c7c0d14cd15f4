//! The process's cache of session lookups (issue 15, docs/security.md "Session cache"):
//! every signed-in request looked its session and user up in the database, which cost more
//! than the rest of a light call. A found session is kept here for [`TTL`], by the hash of
//! its token.
//!
//! Freshness (the change feed, `crate::db::changes`, docs/scaling.md):
//! * **In this process, at once.** Every write the models make to an existing user or
//!   session (sign-out, disable, role, leader flag, activation, password change, e-mail
//!   verified, switching school, names, the tour finished, a session's expiry) publishes
//!   `Change::Users` or `Change::Sessions`; this cache subscribes and empties itself on
//!   either (and on `Change::Everything`). Those writes are rare next to reads; the next
//!   request of each session reads the database again. A new session or a new user needs
//!   nothing: no entry can be stale because of it.
//! * **In another process on the same PostgreSQL (a second server, the CLI, the MIS sync
//!   of another server)**: as soon as the change's notification arrives after its commit
//!   (measured in milliseconds, docs/scaling.md); [`TTL`] still bounds an entry if the
//!   listening connection is down.
//!
//! The rules (a read racing a write, the settling second, the size) are `crate::cache`'s.
//! Only found sessions are kept (random tokens cannot fill the cache), at most
//! [`MAX_ENTRIES`]; an entry never outlives its session's own expiry.

use std::sync::LazyLock;
use std::time::Duration;

use chrono::NaiveDateTime;

use super::session::SessionUser;
use crate::cache::ProcessCache;
use crate::db::changes::{self, Change};

/// How long a session lookup is trusted without asking the database again.
pub const TTL: Duration = Duration::from_secs(5);
/// After an invalidation, lookups are not kept for this long (a write's transaction may not
/// have committed yet).
pub const SETTLE: Duration = Duration::from_secs(1);
/// The most sessions kept; a full cache starts again empty.
pub const MAX_ENTRIES: usize = 20_000;

static CACHE: LazyLock<ProcessCache<String, SessionUser>> = LazyLock::new(|| {
    changes::subscribe(on_change);
    ProcessCache::new(crate::cache::CacheKind::Sessions, TTL, SETTLE, MAX_ENTRIES)
});

/// What this cache drops on a change: everything, on any change to users or sessions.
fn on_change(change: Change<'_>) {
    if matches!(change, Change::Users | Change::Sessions | Change::Everything) {
        CACHE.invalidate();
    }
}

/// The process's cached session of `token_hash`, if fresh and unexpired at `at`.
pub fn get(token_hash: &str, at: NaiveDateTime) -> Option<SessionUser> {
    CACHE.get(token_hash, |session| session.expires_at > at)
}

/// Keeps a session read at `generation` ([`generation`]).
pub fn put(session: &SessionUser, generation: u64) {
    CACHE.put(session.token_hash.clone(), session.clone(), generation)
}

/// The generation to read before the database lookup.
pub fn generation() -> u64 {
    CACHE.generation()
}

/// Forgets every cached session (the change feed does this on every change to a user or a
/// session; tests call it to skip the settling second).
pub fn invalidate() {
    CACHE.invalidate()
}
