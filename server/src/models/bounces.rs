//! Bounces on `deliveries` (issue 29 item 2, docs/bounces.md): an SMTP refusal at send
//! time, a hard or soft bounce reported later by a sending service's webhook (SendGrid) or
//! by a delivery status notification in the bounce mailbox (VERP + IMAP). A hard bounce also
//! refuses the address (`models::address_refusals`), which stops every further e-mail to it
//! until someone saves the pupil's address again. The lead's `models::deliveries` writes the
//! rows at send time; this file only marks them.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::addresses::normalise_email;
use crate::db::schema::{address_refusals, deliveries, students};
use crate::db::DbConn;
use crate::models::address_refusals as refusals;
use crate::with_conn;

/// How long after sending a bounce that names no delivery is matched by its address alone.
pub const MATCH_BY_ADDRESS_DAYS: i64 = 7;

/// The mail server refused the message at send (a 5xx to RCPT TO or DATA), or the address
/// was already refused when its job ran: the delivery is Not sent / REFUSED with the
/// server's words as `bounce_reason`. A delivery already sent is left as it is (states only
/// move forward). Returns whether a row changed.
pub async fn refused_at_send(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    student_id: &str,
    audience: &str,
    reason: &str,
) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(
        deliveries::table
            .filter(deliveries::notification_id.eq(notification_id))
            .filter(deliveries::student_id.eq(student_id))
            .filter(deliveries::audience.eq(audience))
            .filter(deliveries::sent_at.is_null())
    )
    .set((
        deliveries::not_sent_reason.eq(crate::models::deliveries::REFUSED),
        deliveries::bounce_reason.eq(reason),
    ))
    .execute(c)
    .await)?;
    Ok(n > 0)
}

/// A bounce as a webhook or a delivery status notification reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounce {
    /// The address that bounced (any case; normalised here).
    pub address: String,
    /// The delivery the message carried (SendGrid's custom argument, the VERP token), when
    /// known.
    pub delivery_id: Option<String>,
    /// Permanent (5.x.x, SendGrid's `bounce`): the address is refused from now on.
    pub hard: bool,
    /// What the receiving server said.
    pub reason: String,
    pub at: NaiveDateTime,
}

/// What [`record`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Deliveries newly marked Bounced.
    pub bounced: usize,
    /// Whether the address is now refused.
    pub refused: bool,
}

/// Records `bounce`: a hard one refuses the address; the delivery it names (when that
/// delivery went to this address), or else every delivery sent to the address in the last
/// [`MATCH_BY_ADDRESS_DAYS`] days and not yet bounced, is marked Bounced with the reason.
/// A delivery already bounced keeps its first reason. Run it in one transaction.
pub async fn record(conn: &mut DbConn<'_>, bounce: &Bounce) -> QueryResult<Recorded> {
    let address = normalise_email(&bounce.address);
    let mut recorded = Recorded::default();
    if bounce.hard && address.contains('@') {
        refusals::refuse(conn, &address, &bounce.reason, bounce.at).await?;
        recorded.refused = true;
    }
    let named = match bounce.delivery_id.as_deref() {
        Some(id) => with_conn!(conn, |c| deliveries::table
            .find(id)
            .filter(deliveries::address.eq(&address))
            .select(deliveries::id)
            .first::<String>(c)
            .await
            .optional())?,
        None => None,
    };
    let ids: Vec<String> = match named {
        Some(id) => vec![id],
        None => {
            let since = bounce.at - chrono::Duration::days(MATCH_BY_ADDRESS_DAYS);
            with_conn!(conn, |c| deliveries::table
                .filter(deliveries::address.eq(&address))
                .filter(deliveries::sent_at.ge(since))
                .filter(deliveries::bounced_at.is_null())
                .select(deliveries::id)
                .load::<String>(c)
                .await)?
        }
    };
    if !ids.is_empty() {
        recorded.bounced = with_conn!(conn, |c| diesel::update(
            deliveries::table
                .filter(deliveries::id.eq_any(&ids))
                .filter(deliveries::bounced_at.is_null())
        )
        .set((
            deliveries::bounced_at.eq(bounce.at),
            deliveries::bounce_reason.eq(&bounce.reason),
        ))
        .execute(c)
        .await)?;
    }
    Ok(recorded)
}

/// A refused address of a pupil: whose it is (`pupil` or `parent`), the address, when and
/// why it was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PupilRefusal {
    pub student_id: String,
    pub forename: String,
    pub surname: String,
    pub audience: &'static str,
    pub address: String,
    pub reason: String,
    pub refused_at: NaiveDateTime,
}

/// The refused addresses of pupil `student_id` of school `school_id` (pupil's first).
pub async fn refusals_of_pupil(
    conn: &mut DbConn<'_>,
    school_id: &str,
    student_id: &str,
) -> QueryResult<Vec<PupilRefusal>> {
    refusals_where(conn, school_id, Some(student_id)).await
}

/// Every current pupil of school `school_id` with a refused pupil or parent address, by
/// surname and forename.
pub async fn refusals_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<PupilRefusal>> {
    refusals_where(conn, school_id, None).await
}

async fn refusals_where(
    conn: &mut DbConn<'_>,
    school_id: &str,
    student_id: Option<&str>,
) -> QueryResult<Vec<PupilRefusal>> {
    type Row = (String, String, String, Option<String>, Option<String>);
    // The school's pupils are read once and matched against the (few) refused addresses
    // among theirs: addresses are stored normalised, but older rows may not be.
    let rows: Vec<Row> = with_conn!(conn, |c| {
        let mut query = students::table
            .filter(students::school_id.eq(school_id))
            .filter(students::archived_at.is_null())
            .filter(students::email.is_not_null().or(students::parent_email.is_not_null()))
            .order((students::surname.asc(), students::forename.asc(), students::id.asc()))
            .select((
                students::id,
                students::forename,
                students::surname,
                students::email,
                students::parent_email,
            ))
            .into_boxed();
        if let Some(id) = student_id {
            query = query.filter(students::id.eq(id));
        }
        query.load(c).await
    })?;
    let mut addresses: Vec<String> = Vec::new();
    for (_, _, _, email, parent) in &rows {
        addresses.extend(email.iter().chain(parent.iter()).map(|a| normalise_email(a)));
    }
    addresses.sort();
    addresses.dedup();
    let mut found: std::collections::HashMap<String, (String, NaiveDateTime)> = Default::default();
    for chunk in addresses.chunks(crate::db::MAX_BIND_PARAMS / 2) {
        let got: Vec<(String, String, NaiveDateTime)> = with_conn!(conn, |c| address_refusals::table
            .filter(address_refusals::address.eq_any(chunk))
            .select((
                address_refusals::address,
                address_refusals::reason,
                address_refusals::refused_at,
            ))
            .load(c)
            .await)?;
        found.extend(got.into_iter().map(|(a, r, t)| (a, (r, t))));
    }
    let mut out = Vec::new();
    if found.is_empty() {
        return Ok(out);
    }
    for (id, forename, surname, email, parent) in rows {
        for (audience, raw) in [("pupil", email), ("parent", parent)] {
            let Some(address) = raw.map(|a| normalise_email(&a)) else {
                continue;
            };
            if let Some((reason, at)) = found.get(&address) {
                out.push(PupilRefusal {
                    student_id: id.clone(),
                    forename: forename.clone(),
                    surname: surname.clone(),
                    audience,
                    address,
                    reason: reason.clone(),
                    refused_at: *at,
                });
            }
        }
    }
    Ok(out)
}

/// The sentence the pupil's record shows for a refusal.
pub fn refusal_sentence(audience: &str, address: &str, reason: &str, at: NaiveDateTime) -> String {
    let whose = if audience == "parent" { "Parent's" } else { "The pupil's" };
    format!(
        "{whose} address {address} was refused by their mail server on {}: {reason}. Nothing more is sent to it until the address is changed or saved again.",
        at.format("%d/%m/%Y")
    )
}
