//! Reach (`deliveries`, docs/reach.md): one row per e-mail a notification's send decided on,
//! for each pupil and audience, including those it could not send. The state a user sees is
//! worked out from the row's facts by [`reach_state`], so it only ever moves forward.

use chrono::{Duration, NaiveDateTime};
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{deliveries, form_groups, notifications, schools, students, submissions};
use crate::db::DbConn;
use crate::{batch_insert, with_conn};

/// Why an e-mail was not sent (`deliveries.not_sent_reason`).
pub const NO_ADDRESS: &str = "NO_ADDRESS";
pub const OPTED_OUT: &str = "OPTED_OUT";
pub const REFUSED: &str = "REFUSED";

/// A delivery the send decided on.
#[derive(Debug, Clone, PartialEq, Eq, Insertable)]
#[diesel(table_name = deliveries)]
pub struct NewDelivery {
    pub id: String,
    pub school_id: String,
    pub notification_id: String,
    pub student_id: String,
    /// `pupil` or `parent`.
    pub audience: String,
    pub address: Option<String>,
    pub not_sent_reason: Option<String>,
    pub created_at: NaiveDateTime,
}

const NEW_DELIVERY_COLUMNS: usize = 8;

/// Writes `rows`, keeping any that exist (a send run again changes nothing).
pub async fn insert_new(conn: &mut DbConn<'_>, rows: Vec<NewDelivery>) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    batch_insert!(
        conn,
        deliveries::table,
        rows,
        columns = NEW_DELIVERY_COLUMNS,
        |q| q.on_conflict_do_nothing()
    )?;
    Ok(())
}

/// The delivery of notification `notification_id` to pupil `student_id`'s `audience`.
macro_rules! one {
    ($n:expr, $s:expr, $a:expr) => {
        deliveries::table
            .filter(deliveries::notification_id.eq($n))
            .filter(deliveries::student_id.eq($s))
            .filter(deliveries::audience.eq($a))
    };
}

/// The id of one delivery, for its signed link.
pub async fn find_id(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    student_id: &str,
    audience: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| one!(notification_id, student_id, audience)
        .select(deliveries::id)
        .first(c)
        .await
        .optional())
}

/// The SMTP server took the message at `at` (a repeat keeps the first time; a message the
/// server refused stays Not sent).
pub async fn mark_sent(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    student_id: &str,
    audience: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(
        one!(notification_id, student_id, audience)
            .filter(deliveries::sent_at.is_null())
            .filter(deliveries::not_sent_reason.is_null())
    )
    .set(deliveries::sent_at.eq(at))
    .execute(c)
    .await)?;
    Ok(())
}

/// The recipient switched this type of e-mail off after the send queued it: not sent.
pub async fn mark_opted_out(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    student_id: &str,
    audience: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(
        one!(notification_id, student_id, audience)
            .filter(deliveries::sent_at.is_null())
            .filter(deliveries::not_sent_reason.is_null())
    )
    .set(deliveries::not_sent_reason.eq(OPTED_OUT))
    .execute(c)
    .await)?;
    Ok(())
}

/// A link in delivery `id` was followed at `at`. Returns the delivery's notification, pupil
/// and audience (where the link leads), or `None` for an unknown id.
pub async fn mark_opened(
    conn: &mut DbConn<'_>,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<Option<(String, String, String)>> {
    let found: Option<(String, String, String)> = with_conn!(conn, |c| deliveries::table
        .find(id)
        .select((
            deliveries::notification_id,
            deliveries::student_id,
            deliveries::audience,
        ))
        .first(c)
        .await
        .optional())?;
    if found.is_some() {
        with_conn!(conn, |c| diesel::update(
            deliveries::table
                .find(id)
                .filter(deliveries::opened_at.is_null())
        )
        .set(deliveries::opened_at.eq(at))
        .execute(c)
        .await)?;
    }
    Ok(found)
}

/// The pupil opened their submission link `submission_id` (their own e-mail carries it):
/// their delivery of that notification counts as opened. Reads first, so the usual visit
/// (already opened) writes nothing.
pub async fn mark_opened_by_pupil(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    let unopened: Option<String> = with_conn!(conn, |c| deliveries::table
        .inner_join(
            submissions::table.on(submissions::notification_id
                .eq(deliveries::notification_id)
                .and(submissions::student_id.eq(deliveries::student_id))),
        )
        .filter(submissions::id.eq(submission_id))
        .filter(deliveries::audience.eq("pupil"))
        .filter(deliveries::sent_at.is_not_null())
        .filter(deliveries::opened_at.is_null())
        .select(deliveries::id)
        .first(c)
        .await
        .optional())?;
    if let Some(id) = unopened {
        with_conn!(conn, |c| diesel::update(
            deliveries::table
                .find(&id)
                .filter(deliveries::opened_at.is_null())
        )
        .set(deliveries::opened_at.eq(at))
        .execute(c)
        .await)?;
    }
    Ok(())
}

/// A message as its signed link shows it (`/messages/{token}`).
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct PublicMessage {
    pub audience: String,
    pub forename: String,
    pub surname: String,
    pub school: String,
    pub title: String,
    pub custom_title: Option<String>,
    /// Sanitised when it was saved.
    pub body: String,
    pub submission_due_date: Option<NaiveDateTime>,
}

impl PublicMessage {
    /// The custom title when it is not blank, else the title.
    pub fn heading(&self) -> &str {
        self.custom_title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .unwrap_or(&self.title)
    }
}

/// The message delivery `id` carried.
pub async fn public_message(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<PublicMessage>> {
    with_conn!(conn, |c| deliveries::table
        .inner_join(students::table.on(students::id.eq(deliveries::student_id)))
        .inner_join(notifications::table.on(notifications::id.eq(deliveries::notification_id)))
        .inner_join(schools::table.on(schools::id.eq(notifications::school_id)))
        .filter(deliveries::id.eq(id))
        .select((
            deliveries::audience,
            students::forename,
            students::surname,
            schools::name,
            notifications::title,
            notifications::custom_title,
            notifications::body,
            notifications::submission_due_date,
        ))
        .first(c)
        .await
        .optional())
}

/// Where a pupil's delivery to one address stands, as the Reach tab shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReachState {
    NotSent,
    Waiting,
    Sent,
    Bounced,
    Opened,
    HandedIn,
}

impl ReachState {
    pub const ALL: [ReachState; 6] = [
        ReachState::NotSent,
        ReachState::Waiting,
        ReachState::Sent,
        ReachState::Bounced,
        ReachState::Opened,
        ReachState::HandedIn,
    ];

    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            ReachState::NotSent => "NOT_SENT",
            ReachState::Waiting => "WAITING",
            ReachState::Sent => "SENT",
            ReachState::Bounced => "BOUNCED",
            ReachState::Opened => "OPENED",
            ReachState::HandedIn => "HANDED_IN",
        }
    }

    /// What the page calls it.
    pub fn label(self) -> &'static str {
        match self {
            ReachState::NotSent => "Not sent",
            ReachState::Waiting => "Waiting",
            ReachState::Sent => "Sent",
            ReachState::Bounced => "Bounced",
            ReachState::Opened => "Opened",
            ReachState::HandedIn => "Handed in",
        }
    }
}

/// One delivery with its pupil, as the Reach tab lists it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct ReachRow {
    pub id: String,
    pub student_id: String,
    pub forename: String,
    pub surname: String,
    pub form_group: Option<String>,
    pub audience: String,
    pub address: Option<String>,
    pub not_sent_reason: Option<String>,
    pub sent_at: Option<NaiveDateTime>,
    pub bounced_at: Option<NaiveDateTime>,
    pub bounce_reason: Option<String>,
    pub opened_at: Option<NaiveDateTime>,
    /// When the pupil handed in (assignments).
    pub received_at: Option<NaiveDateTime>,
}

impl ReachRow {
    /// The furthest point reached: handed in, opened, bounced, sent, not sent, else
    /// waiting. Each fact only ever gets set, so the state only moves forward.
    pub fn state(&self) -> ReachState {
        if self.received_at.is_some() {
            ReachState::HandedIn
        } else if self.opened_at.is_some() {
            ReachState::Opened
        } else if self.bounced_at.is_some() {
            ReachState::Bounced
        } else if self.sent_at.is_some() {
            ReachState::Sent
        } else if self.not_sent_reason.is_some() {
            ReachState::NotSent
        } else {
            ReachState::Waiting
        }
    }

    /// Not reached: not sent, bounced, or sent and not opened `days` days later (at `now`).
    pub fn not_reached(&self, now: NaiveDateTime, days: i64) -> bool {
        match self.state() {
            ReachState::NotSent | ReachState::Bounced => true,
            ReachState::Sent => self
                .sent_at
                .is_some_and(|sent| sent + Duration::days(days) <= now),
            ReachState::Waiting | ReachState::Opened | ReachState::HandedIn => false,
        }
    }

    /// Why, in plain words, for the list and the paper list.
    pub fn reason(&self, now: NaiveDateTime, days: i64) -> String {
        let server_said = |prefix: &str| match self.bounce_reason.as_deref().map(str::trim) {
            Some(r) if !r.is_empty() => format!("{prefix}: {r}"),
            _ => prefix.to_owned(),
        };
        match self.state() {
            ReachState::NotSent => match self.not_sent_reason.as_deref() {
                Some(NO_ADDRESS) => "No e-mail address".to_owned(),
                Some(OPTED_OUT) => "Turned off e-mails of this kind".to_owned(),
                _ => server_said("Address refused"),
            },
            ReachState::Bounced => server_said("Bounced"),
            ReachState::Sent if self.not_reached(now, days) => {
                format!(
                    "Not opened after {days} {}",
                    if days == 1 { "day" } else { "days" }
                )
            }
            ReachState::Waiting => "Not sent yet".to_owned(),
            _ => String::new(),
        }
    }
}

/// Every delivery of notification `notification_id`, by pupil (surname, forename), the
/// pupil before the parent.
pub async fn reach_of(conn: &mut DbConn<'_>, notification_id: &str) -> QueryResult<Vec<ReachRow>> {
    with_conn!(conn, |c| deliveries::table
        .inner_join(students::table.on(students::id.eq(deliveries::student_id)))
        .left_join(form_groups::table.on(students::form_group_id.eq(form_groups::id.nullable())))
        .left_join(
            submissions::table.on(submissions::notification_id
                .eq(deliveries::notification_id)
                .and(submissions::student_id.eq(deliveries::student_id))),
        )
        .filter(deliveries::notification_id.eq(notification_id))
        .select((
            deliveries::id,
            deliveries::student_id,
            students::forename,
            students::surname,
            form_groups::name.nullable(),
            deliveries::audience,
            deliveries::address,
            deliveries::not_sent_reason,
            deliveries::sent_at,
            deliveries::bounced_at,
            deliveries::bounce_reason,
            deliveries::opened_at,
            submissions::received_at.nullable(),
        ))
        .order((
            students::surname,
            students::forename,
            deliveries::student_id,
            deliveries::audience.desc(),
        ))
        .load(c)
        .await)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn at(day: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, day)
            .and_then(|d| d.and_hms_opt(9, 0, 0))
            .expect("date")
    }

    fn row() -> ReachRow {
        ReachRow {
            id: "d".into(),
            student_id: "s".into(),
            forename: "Ada".into(),
            surname: "Lovelace".into(),
            form_group: None,
            audience: "parent".into(),
            address: Some("mum@home.test".into()),
            not_sent_reason: None,
            sent_at: None,
            bounced_at: None,
            bounce_reason: None,
            opened_at: None,
            received_at: None,
        }
    }

    #[test]
    fn the_state_only_moves_forward() {
        let mut r = row();
        assert_eq!(r.state(), ReachState::Waiting);
        r.sent_at = Some(at(2));
        assert_eq!(r.state(), ReachState::Sent);
        r.bounced_at = Some(at(2));
        r.bounce_reason = Some("550 5.1.1 User unknown".into());
        assert_eq!(r.state(), ReachState::Bounced);
        assert_eq!(r.reason(at(3), 3), "Bounced: 550 5.1.1 User unknown");
        r.opened_at = Some(at(3));
        assert_eq!(r.state(), ReachState::Opened);
        r.received_at = Some(at(4));
        assert_eq!(r.state(), ReachState::HandedIn);
        let mut none = row();
        none.not_sent_reason = Some(NO_ADDRESS.into());
        assert_eq!(none.state(), ReachState::NotSent);
        assert_eq!(none.reason(at(3), 3), "No e-mail address");
    }

    #[test]
    fn not_opened_counts_as_not_reached_after_the_days_chosen() {
        let mut r = row();
        r.sent_at = Some(at(2));
        assert!(!r.not_reached(at(4), 3));
        assert!(r.not_reached(at(5), 3));
        assert_eq!(r.reason(at(5), 3), "Not opened after 3 days");
        assert!(!r.not_reached(at(5), 4));
        r.opened_at = Some(at(6));
        assert!(!r.not_reached(at(9), 3));
        let waiting = row();
        assert!(!waiting.not_reached(at(20), 1));
    }
}
