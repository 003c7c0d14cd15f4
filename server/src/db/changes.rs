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
//!   `SELECT pg_notify('voicemark_changes', '<process> <change>[ <school>]')` on the connection
//!   that made the write ([`payload`]: the school when the change names one). PostgreSQL
//!   delivers a notification only when its transaction commits (at once for a statement
//!   outside a transaction) and drops it on rollback, so no process hears of a change it
//!   could not yet read. Each `voicemark serve` keeps one listening
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

/// What changed. Kept small: a cache drops everything it holds of a kind, or, where the
/// change names its school, that school's part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    /// A user row: role, disabled, leader, activation, password, names, school, e-mail.
    Users,
    /// A session row: signed out, expiry moved, the school it acts in.
    Sessions,
    /// Pupils, year groups, form groups, classes or who is in a class (the roster and the
    /// audience pickers).
    Roster,
    /// Submissions or the assignments they belong to: a hand-in, a mark, a new or deleted
    /// submission, all of one `school`. `None` when the school is not known (a notification
    /// from a version that did not send it, or a school id too long to send): then any
    /// school's may have changed.
    Submissions { school: Option<&'a str> },
    /// Anything may have changed: the listening connection was lost (notifications may have
    /// been missed), or a notification named a change this version does not know.
    Everything,
}

/// The longest school id a notification carries (bytes). PostgreSQL refuses a payload of
/// 8,000 bytes or more; ids are 36 (`ids::new_id`), the process id as many, the change's name
/// at most 11. A longer school id is sent as no school: every process then forgets every
/// school's part, which is never wrong, only slower.
pub const MAX_SCHOOL_IN_PAYLOAD: usize = 1_000;

impl<'a> Change<'a> {
    pub const ALL: [Change<'static>; 5] = [
        Change::Users,
        Change::Sessions,
        Change::Roster,
        Change::Submissions { school: None },
        Change::Everything,
    ];

    /// The name sent in a notification.
    pub fn name(self) -> &'static str {
        match self {
            Change::Users => "users",
            Change::Sessions => "sessions",
            Change::Roster => "roster",
            Change::Submissions { .. } => "submissions",
            Change::Everything => "everything",
        }
    }

    /// The school the change is confined to, if it names one.
    pub fn school(self) -> Option<&'a str> {
        match self {
            Change::Submissions { school } => school,
            _ => None,
        }
    }

    /// The change a notification's name and school stand for; [`Change::Everything`] for a
    /// name this version does not know. A school given with a change that names none here
    /// (a later version's) is ignored: the whole kind is dropped, which is never wrong.
    pub fn from_name(name: &str, school: Option<&'a str>) -> Change<'a> {
        match Change::ALL.into_iter().find(|change| change.name() == name) {
            Some(Change::Submissions { .. }) => Change::Submissions { school },
            Some(change) => change,
            None => Change::Everything,
        }
    }
}

/// This process's name in the notifications it sends (random, made once).
pub fn process_id() -> &'static str {
    static ID: LazyLock<String> = LazyLock::new(|| crate::ids::new_id());
    &ID
}

/// The payload of a notification: `<process> <change>`, and ` <school>` after it when the
/// change names a school of at most [`MAX_SCHOOL_IN_PAYLOAD`] bytes. A process of an earlier
/// version reads `<change> <school>` as a name it does not know and forgets everything.
pub fn payload(change: Change<'_>) -> String {
    match change.school().filter(|school| !school.is_empty() && school.len() <= MAX_SCHOOL_IN_PAYLOAD) {
        Some(school) => format!("{} {} {school}", process_id(), change.name()),
        None => format!("{} {}", process_id(), change.name()),
    }
}

/// A notification's payload read back: (the sending process, the change). The school is
/// everything after the second space, as sent.
pub fn parse_payload(payload: &str) -> (&str, Change<'_>) {
    let mut parts = payload.splitn(3, ' ');
    match (parts.next(), parts.next()) {
        (Some(process), Some(name)) => {
            let school = parts.next().filter(|school| !school.is_empty());
            (process, Change::from_name(name.trim(), school))
        }
        _ => ("", Change::Everything),
    }
}

/// Whoever wants to hear of changes: a cache's function that drops what a change makes stale.
pub type Subscriber = fn(Change<'_>);

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
pub fn apply(change: Change<'_>) {
    // A copy, so a subscriber may touch a cache that is still being made (and subscribing).
    let subscribers = SUBSCRIBERS.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
    for subscriber in subscribers {
        subscriber(change);
    }
}

/// Reports `change`, made on `conn`: this process's caches at once; on PostgreSQL every
/// process's once the write commits (see the module's rules).
pub async fn publish(conn: &mut DbConn<'_>, change: Change<'_>) -> QueryResult<()> {
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

    #[test]
    fn a_payload_names_the_school_of_a_change_confined_to_one() {
        let school = "0195f3b2-7c1e-7a43-9d2b-5f6e8a9b0c01";
        let change = Change::Submissions { school: Some(school) };
        let sent = payload(change);
        assert_eq!(sent, format!("{} submissions {school}", process_id()));
        assert_eq!(parse_payload(&sent), (process_id(), change));
        // An id with a space travels whole; one too long to send is sent as no school.
        let spaced = Change::Submissions { school: Some("a school") };
        assert_eq!(parse_payload(&payload(spaced)).1, spaced);
        let long = "x".repeat(MAX_SCHOOL_IN_PAYLOAD + 1);
        let sent = payload(Change::Submissions { school: Some(&long) });
        assert_eq!(parse_payload(&sent).1, Change::Submissions { school: None });
        assert!(sent.len() < 100);
        let longest = "x".repeat(MAX_SCHOOL_IN_PAYLOAD);
        assert!(payload(Change::Submissions { school: Some(&longest) }).len() < 8_000, "PostgreSQL's limit");
        // An earlier version's payload (no school), and a later one's school on a change
        // that names none here.
        assert_eq!(parse_payload("abc submissions").1, Change::Submissions { school: None });
        assert_eq!(parse_payload("abc roster s1").1, Change::Roster);
        assert_eq!(parse_payload("abc submissions ").1, Change::Submissions { school: None });
    }

    static HEARD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

    fn hear(change: Change<'_>) {
        HEARD.lock().expect("lock").push(format!("{change:?}"));
    }

    #[test]
    fn subscribers_hear_each_change_once() {
        subscribe(hear);
        subscribe(hear);
        apply(Change::Submissions { school: Some("heard-once") });
        let heard = HEARD.lock().expect("lock").clone();
        let told = format!("{:?}", Change::Submissions { school: Some("heard-once") });
        assert_eq!(heard.iter().filter(|c| **c == told).count(), 1);
    }
}
