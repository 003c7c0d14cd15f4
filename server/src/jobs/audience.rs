//! Who gets which e-mail: the one place for the rules that the sending and e-mail jobs
//! apply (see `docs/jobs-and-mail.md`, "Sending a notification").
//!
//! - A notification goes to the **pupil** when it is sent to pupils and the pupil has an
//!   address; to the **parent** when it is sent to parents, the parent has an address and
//!   the school lets that type go to parents (`notify_parents_general` /
//!   `notify_parents_assignment`).
//! - Feedback goes to the pupil, and to the parent when the notification went to parents and
//!   the school allows it.
//! - Only to addresses whose preference switch for the type is on; a missing preference row
//!   is created with the school's frequency. `IMMEDIATELY` mails now; `DAILY` / `WEEKLY`
//!   gather into a digest at the next digest time (feedback always goes at once).
//! - Addresses are normalised (`crate::addresses`): trimmed, lower case, with an `@`.

use std::collections::{BTreeSet, HashMap};

use chrono::{Datelike, Duration, NaiveDateTime, NaiveTime, Weekday};
use core_wasm::{NotificationFrequency, NotificationType};
use diesel::result::QueryResult;
use serde::{Deserialize, Serialize};

use crate::addresses::{is_address, mail_address};
use crate::db::DbConn;
use crate::models::email_preferences::{self, Preference};
use crate::models::notifications::Sendable;
use crate::models::organisations::{self, SchoolMailRules};
use crate::models::recipients::{ReceiptForDigest, Recipient};
use crate::models::submissions::FeedbackForEmail;

/// Who is e-mailed about a pupil: the pupil, or the pupil's parent. Stored in e-mail job
/// payloads and keys as `pupil` / `parent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    Pupil,
    Parent,
}

impl Audience {
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::Pupil => "pupil",
            Audience::Parent => "parent",
        }
    }
}

/// One e-mail to send about a pupil.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub student_id: String,
    pub audience: Audience,
    /// The normalised address.
    pub to: String,
}

/// School `school_id`'s e-mail rules, if the school exists.
pub async fn school_rules(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<SchoolMailRules>> {
    organisations::school_mail_rules(conn, school_id).await
}

/// Whether the school lets a notification of `kind` be e-mailed to parents.
pub fn parents_allowed(rules: &SchoolMailRules, kind: NotificationType) -> bool {
    match kind {
        NotificationType::General => rules.notify_parents_general,
        NotificationType::Assignment => rules.notify_parents_assignment,
    }
}

/// Everyone a notification's send is about, before preferences: per pupil, the pupil and
/// then the parent, each with their normalised address (`None`: none, or not an address).
/// The parent is left out when the notification is not for parents or the school keeps
/// this type from them.
pub fn notification_audiences(
    n: &Sendable,
    rules: &SchoolMailRules,
    recipients: &[Recipient],
) -> Vec<(String, Audience, Option<String>)> {
    let to_parents = n.send_to_parent && parents_allowed(rules, n.kind);
    let mut planned = Vec::new();
    for r in recipients {
        if n.send_to_pupil {
            planned.push((
                r.student_id.clone(),
                Audience::Pupil,
                mail_address(r.email.as_deref()),
            ));
        }
        if to_parents {
            planned.push((
                r.student_id.clone(),
                Audience::Parent,
                mail_address(r.parent_email.as_deref()),
            ));
        }
    }
    planned
}

/// The e-mails a notification's send may queue, before preferences: per pupil, the pupil
/// and then the parent.
pub fn notification_targets(
    n: &Sendable,
    rules: &SchoolMailRules,
    recipients: &[Recipient],
) -> Vec<Target> {
    notification_audiences(n, rules, recipients)
        .into_iter()
        .filter_map(|(student_id, audience, to)| {
            to.map(|to| Target {
                student_id,
                audience,
                to,
            })
        })
        .collect()
}

/// The e-mails about marked work: the pupil, and the parent when the notification went to
/// parents and the school allows it.
pub fn feedback_targets(
    marked: &FeedbackForEmail,
    rules: Option<&SchoolMailRules>,
) -> Vec<(Audience, String)> {
    let n = &marked.notification;
    let to_parents = n.send_to_parent && rules.is_some_and(|r| parents_allowed(r, n.kind));
    let mut targets = Vec::new();
    if let Some(to) = mail_address(marked.pupil_email.as_deref()) {
        targets.push((Audience::Pupil, to));
    }
    if to_parents {
        if let Some(to) = mail_address(marked.parent_email.as_deref()) {
            targets.push((Audience::Parent, to));
        }
    }
    targets
}

/// The preference rows of `addresses` (each once), created with `frequency` where missing.
/// Only addresses whose row [`Preference::allows`] the type may be mailed.
pub async fn preferences(
    conn: &mut DbConn<'_>,
    addresses: impl IntoIterator<Item = &String>,
    frequency: NotificationFrequency,
) -> QueryResult<HashMap<String, Preference>> {
    let unique: Vec<String> = addresses
        .into_iter()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    email_preferences::ensure_for(conn, &unique, frequency).await
}

/// At delivery time: the preference of `to` if it still wants e-mail about `kind` (it may
/// have been switched off, or removed, since the job was queued).
pub async fn still_wanted(
    conn: &mut DbConn<'_>,
    to: &str,
    kind: NotificationType,
) -> QueryResult<Option<Preference>> {
    Ok(email_preferences::find(conn, to)
        .await?
        .filter(|p| p.allows(kind)))
}

/// Whether a digest to `address` lists this receipt, and as whom: as the pupil when the
/// notification went to pupils and the address is the pupil's; as the parent when it went
/// to parents, the school allows it and the address is the parent's; and only when the
/// address's preference allows the type.
pub fn digest_audience(
    row: &ReceiptForDigest,
    address: &str,
    preference: &Preference,
) -> Option<Audience> {
    let n = &row.notification;
    if !preference.allows(n.kind) {
        return None;
    }
    let parents_allowed = match n.kind {
        NotificationType::General => row.notify_parents_general,
        NotificationType::Assignment => row.notify_parents_assignment,
    };
    if row.send_to_pupil && is_address(row.pupil_email.as_deref(), address) {
        Some(Audience::Pupil)
    } else if n.send_to_parent
        && parents_allowed
        && is_address(row.parent_email.as_deref(), address)
    {
        Some(Audience::Parent)
    } else {
        None
    }
}

/// The next digest time strictly after `at`: today's or tomorrow's `hour`:00 UTC for daily
/// digests; the next Friday at that hour for weekly ones.
pub fn next_digest_time(
    frequency: NotificationFrequency,
    at: NaiveDateTime,
    hour: u32,
) -> NaiveDateTime {
    let time = NaiveTime::from_hms_opt(hour.min(23), 0, 0).unwrap_or(NaiveTime::MIN);
    let mut day = at.date();
    loop {
        let candidate = day.and_time(time);
        let weekday_ok =
            frequency != NotificationFrequency::Weekly || day.weekday() == Weekday::Fri;
        if candidate > at && weekday_ok {
            return candidate;
        }
        day += Duration::days(1);
    }
}

/// The length of a digest period (the window of a first digest).
pub fn digest_period(frequency: NotificationFrequency) -> Duration {
    match frequency {
        NotificationFrequency::Weekly => Duration::days(7),
        _ => Duration::days(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn digests_go_out_at_the_next_hour_or_friday() {
        let at = NaiveDate::from_ymd_opt(2026, 11, 23) // a Monday
            .and_then(|d| d.and_hms_opt(17, 30, 0))
            .expect("date");
        assert_eq!(
            next_digest_time(NotificationFrequency::Daily, at, 16).to_string(),
            "2026-11-24 16:00:00"
        );
        assert_eq!(
            next_digest_time(NotificationFrequency::Daily, at, 18).to_string(),
            "2026-11-23 18:00:00"
        );
        assert_eq!(
            next_digest_time(NotificationFrequency::Weekly, at, 16).to_string(),
            "2026-11-27 16:00:00"
        );
    }

    fn recipient(id: &str, email: Option<&str>, parent: Option<&str>) -> Recipient {
        Recipient {
            student_id: id.into(),
            forename: "Ada".into(),
            surname: "Lovelace".into(),
            email: email.map(Into::into),
            parent_email: parent.map(Into::into),
        }
    }

    #[test]
    fn parents_get_a_notification_only_when_it_and_the_school_allow() {
        let rules = SchoolMailRules {
            notify_parents_general: true,
            notify_parents_assignment: false,
            notifications_frequency: NotificationFrequency::Immediately,
        };
        let mut n = Sendable {
            id: "n".into(),
            kind: NotificationType::General,
            send_date: None,
            send_to_parent: true,
            send_to_pupil: true,
            filters: "{}".into(),
            school_id: "s".into(),
        };
        let pupils = [
            recipient("a", Some(" Ada@Pupils.Test"), Some("mum@home.test")),
            recipient("b", None, Some("no address")),
        ];
        let to: Vec<_> = notification_targets(&n, &rules, &pupils)
            .into_iter()
            .map(|t| (t.student_id, t.audience, t.to))
            .collect();
        assert_eq!(
            to,
            [
                (
                    "a".to_owned(),
                    Audience::Pupil,
                    "ada@pupils.test".to_owned()
                ),
                ("a".to_owned(), Audience::Parent, "mum@home.test".to_owned()),
            ]
        );
        // The school keeps assignments from parents; the pupil still gets one.
        n.kind = NotificationType::Assignment;
        let to = notification_targets(&n, &rules, &pupils);
        assert_eq!(to.len(), 1);
        assert_eq!(to[0].audience, Audience::Pupil);
        n.send_to_pupil = false;
        assert!(notification_targets(&n, &rules, &pupils).is_empty());
    }

    #[test]
    fn audiences_are_stored_in_lower_case() {
        assert_eq!(
            serde_json::to_string(&Audience::Parent).expect("json"),
            "\"parent\""
        );
        assert_eq!(Audience::Pupil.as_str(), "pupil");
    }
}
