//! The change feed (issue 30, docs/scaling.md): what the models changed, told to every read
//! cache of every process.
//!
//! It sits at the bottom of the layering, below the models and the caches: a model function
//! that changes what a cache may hold calls [`publish`] with *what* changed ([`Change`]);
//! each cache [`subscribe`]s and decides for itself what to drop. Models know no cache.
//!
//! * **This process, at once.** [`publish`] hands the change to this process's subscribers
//!   before it returns.
//! * **Every process, after commit (PostgreSQL).** [`publish`] also runs
//!   `SELECT pg_notify('voicemark_changes', '<process> <change>')` on the connection that made
//!   the write. PostgreSQL delivers a notification only when its transaction commits (at
//!   once for a statement outside a transaction) and drops it on rollback, so no process
//!   hears of a change it could not yet read. Each `voicemark serve` keeps one listening
//!   connection ([`crate::db::listen`]) and hands every notification it hears, its own too, to
//!   its subscribers: hearing its own again after commit closes the gap of a transaction
//!   that commits later than the caches' settling second.
//! * **SQLite** is one process: [`publish`] only tells this process.
//!
//! Call [`publish`] after the write it reports (for a write outside a transaction the
//! notification then follows the commit).

use std::sync::{LazyLock, RwLock};

use diesel::result::QueryResult;
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;

use crate::db::DbConn;

/// The PostgreSQL channel the changes go out on.
pub const CHANNEL: &str = "voicemark_changes";

/// What changed. Kept small: a cache drops everything it holds of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A user row: role, disabled, leader, activation, password, names, school, e-mail.
    Users,
    /// A session row: signed out, expiry moved, the school it acts in.
    Sessions,
    /// Pupils, year groups or form groups (the roster).
    Roster,
    /// Submissions or the assignments they belong to: a hand-in, a mark, a new or deleted
    /// submission.
    Submissions,
    /// Anything may have changed: the listening connection was lost (notifications may have
    /// been missed), or a notification named a change this version does not know.
    Everything,
}

impl Change {
    pub const ALL: [Change; 5] = [
        Change::Users,
        Change::Sessions,
        Change::Roster,
        Change::Submissions,
        Change::Everything,
    ];

    /// The name sent in a notification.
    pub fn name(self) -> &'static str {
        match self {
            Change::Users => "users",
            Change::Sessions => "sessions",
            Change::Roster => "roster",
            Change::Submissions => "submissions",
            Change::Everything => "everything",
        }
    }

    /// The change a notification's name stands for; [`Change::Everything`] for a name this
    /// version does not know.
    pub fn from_name(name: &str) -> Change {
        Change::ALL
            .into_iter()
            .find(|change| change.name() == name)
            .unwrap_or(Change::Everything)
    }
}

/// This process's name in the notifications it sends (random, made once).
pub fn process_id() -> &'static str {
    static ID: LazyLock<String> = LazyLock::new(|| crate::ids::new_id());
    &ID
}

/// The payload of a notification: `<process> <change>`.
pub fn payload(change: Change) -> String {
    format!("{} {}", process_id(), change.name())
}

/// A notification's payload read back: (the sending process, the change).
pub fn parse_payload(payload: &str) -> (&str, Change) {
    match payload.split_once(' ') {
        Some((process, name)) => (process, Change::from_name(name.trim())),
        None => ("", Change::Everything),
    }
}

/// Whoever wants to hear of changes: a cache's function that drops what a change makes stale.
pub type Subscriber = fn(Change);

static SUBSCRIBERS: RwLock<Vec<Subscriber>> = RwLock::new(Vec::new());

/// Adds `subscriber` (once: a second call with the same function is ignored). A cache
/// subscribes when it is first made, so an unused cache costs nothing.
pub fn subscribe(subscriber: Subscriber) {
    let mut subscribers = SUBSCRIBERS.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !subscribers.iter().any(|known| std::ptr::fn_addr_eq(*known, subscriber)) {
        subscribers.push(subscriber);
    }
}

/// Tells this process's subscribers of `change`.
pub fn apply(change: Change) {
    // A copy, so a subscriber may touch a cache that is still being made (and subscribing).
    let subscribers = SUBSCRIBERS.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
    for subscriber in subscribers {
        subscriber(change);
    }
}

/// Reports `change`, made on `conn`: this process's caches at once; on PostgreSQL every
/// process's once the write commits (see the module's rules).
pub async fn publish(conn: &mut DbConn<'_>, change: Change) -> QueryResult<()> {
    apply(change);
    if let DbConn::Postgres(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(CHANNEL)
            .bind::<Text, _>(payload(change))
            .execute(&mut **pg)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_names_the_process_and_the_change() {
        for change in Change::ALL {
            let sent = payload(change);
            assert_eq!(parse_payload(&sent), (process_id(), change));
        }
        assert_eq!(parse_payload("abc pupils-v2").1, Change::Everything, "an unknown name");
        assert_eq!(parse_payload("garbage").1, Change::Everything);
    }

    static HEARD: std::sync::Mutex<Vec<Change>> = std::sync::Mutex::new(Vec::new());

    fn hear(change: Change) {
        HEARD.lock().expect("lock").push(change);
    }

    #[test]
    fn subscribers_hear_each_change_once() {
        subscribe(hear);
        subscribe(hear);
        apply(Change::Roster);
        let heard = HEARD.lock().expect("lock").clone();
        assert_eq!(heard.iter().filter(|c| **c == Change::Roster).count(), 1);
    }
}
