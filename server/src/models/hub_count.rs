//! The Feedback Hub count (the sidebar badge, the dashboard's "to mark"): submissions
//! received and not yet marked that a member of staff may mark (`MarkerScope`). Kept per
//! scope in the process for a few seconds (issue 15, docs/performance.md); every model write
//! that can change a count publishes `Change::Submissions` naming its school
//! (`crate::db::changes`), on which that school's kept counts are forgotten, in every
//! process (docs/scaling.md). The other schools' counts stay: a hand-in in one school no
//! longer sends every other school's badge to the database.

use std::sync::LazyLock;
use std::time::Duration;

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::cache::ProcessCache;
use crate::db::changes::{self, Change};
use crate::db::schema::{notifications, submissions};
use crate::db::DbConn;
use crate::models::submissions::MarkerScope;
use crate::with_conn;

/// How long a Feedback Hub count is answered from memory: the bound within which another
/// process's hand-ins and marks show in this one's badge when the change feed's listening
/// connection is down (`crate::cache`, docs/scaling.md).
pub const COUNT_TTL: Duration = Duration::from_secs(5);

/// The Feedback Hub counts by scope, kept in the process, each under its scope's school.
/// Every model write that can change a count (a hand-in, a mark, a new or deleted
/// submission) publishes `Change::Submissions` with the school.
static WAITING: LazyLock<ProcessCache<MarkerScope, i64>> =
    LazyLock::new(|| {
        changes::subscribe(on_change);
        ProcessCache::new(crate::cache::CacheKind::HubCount, COUNT_TTL, Duration::from_secs(1), 50_000)
            .with_schools(|scope: &MarkerScope| scope.school_id.as_str())
    });

/// What the counts drop on a change: one school's on a change to its submissions; all of
/// them on a change to submissions that names no school, or on anything.
fn on_change(change: Change<'_>) {
    match change {
        Change::Submissions { school: Some(school) } => WAITING.invalidate_school(school),
        Change::Submissions { school: None } | Change::Everything => forget(),
        Change::Users | Change::Sessions | Change::Roster => {}
    }
}

/// Forgets every kept Feedback Hub count.
pub fn forget() {
    WAITING.invalidate();
}

/// How many submissions wait for marking within `scope`: the Feedback Hub count, answered
/// from memory while fresh (see [`WAITING`]).
pub async fn waiting(conn: &mut DbConn<'_>, scope: &MarkerScope) -> QueryResult<i64> {
    if let Some(count) = WAITING.get(scope, |_| true) {
        return Ok(count);
    }
    let generation = WAITING.generation();
    let count = count_waiting(conn, scope).await?;
    WAITING.put(scope.clone(), count, generation);
    Ok(count)
}

/// [`waiting`] from the database.
pub async fn count_waiting(conn: &mut DbConn<'_>, scope: &MarkerScope) -> QueryResult<i64> {
    with_conn!(conn, |c| {
        let mut query = submissions::table
            .inner_join(notifications::table)
            .filter(notifications::school_id.eq(&scope.school_id))
            .filter(submissions::received_at.is_not_null())
            .filter(submissions::marked_at.is_null())
            .into_boxed();
        if let Some(sender) = &scope.sender_id {
            query = query.filter(notifications::sender_id.eq(sender));
        }
        query.count().get_result(c).await
    })
}
