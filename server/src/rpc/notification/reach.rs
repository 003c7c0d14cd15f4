//! `notification.reach {id, days?, show?, page?}`: who the notification reached
//! (docs/reach.md): the count of each state, how many count as not reached (not sent,
//! bounced, or not opened `days` days after sending; default 3), and one page (200) of the
//! deliveries `show` picks (ALL, NOT_REACHED or a state), each with its state and why.

use chrono::NaiveDateTime;

use super::{not_found, scope};
use crate::models::deliveries::{self, ReachRow, ReachState};
use crate::models::{notifications, now};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// Days after sending before an unopened message counts as not reached, unless the user
/// picks another number (1 to 60).
pub const DEFAULT_DAYS: i64 = 3;
pub const MAX_DAYS: i64 = 60;
/// Deliveries per page: a 2,000-parent message has 4,000.
pub const PAGE_SIZE: usize = 200;

rpc_type! {
    pub struct ReachInput {
        pub id: String,
        pub days: Option<i64>,
        /// ALL (the default), NOT_REACHED, or a state's wire value.
        pub show: Option<String>,
        /// From 1.
        pub page: Option<i64>,
    }
}

rpc_type! {
    pub struct ReachCount {
        /// NOT_SENT, WAITING, SENT, BOUNCED, OPENED or HANDED_IN.
        pub state: String,
        pub label: String,
        pub count: i64,
    }
}

rpc_type! {
    pub struct ReachEntry {
        pub id: String,
        pub student_id: String,
        pub forename: String,
        pub surname: String,
        pub form_group: Option<String>,
        /// `pupil` or `parent`.
        pub audience: String,
        pub address: Option<String>,
        pub state: String,
        /// Why it did not reach them, in plain words ("" when it did).
        pub reason: String,
        pub sent_at: Option<JsDate>,
        pub opened_at: Option<JsDate>,
        pub not_reached: bool,
    }
}

rpc_type! {
    pub struct NotificationReach {
        /// Whether reach was recorded: false for a notification not sent yet, or sent before
        /// Voicemark kept it (its status tells which).
        pub recorded: bool,
        pub days: i64,
        pub counts: Vec<ReachCount>,
        pub not_reached: i64,
        /// Every delivery.
        pub total: i64,
        /// How many `show` picks, and the page of them in `entries`.
        pub shown: i64,
        pub page: i64,
        pub page_size: i64,
        pub entries: Vec<ReachEntry>,
    }
}

/// The days asked for, within 1..=60.
pub fn days_or_default(days: Option<i64>) -> i64 {
    days.unwrap_or(DEFAULT_DAYS).clamp(1, MAX_DAYS)
}

/// The Reach tab's answer for `rows` at `at`: the counts of all, and page `page` (from 1)
/// of those `show` picks.
pub fn reach(
    rows: Vec<ReachRow>,
    days: i64,
    show: Option<&str>,
    page: Option<i64>,
    at: NaiveDateTime,
) -> NotificationReach {
    let mut counts = [0i64; 6];
    let mut not_reached = 0;
    let total = rows.len() as i64;
    let show = show.unwrap_or("ALL");
    let mut picked = Vec::new();
    for r in rows {
        let state = r.state();
        counts[state as usize] += 1;
        let missed = r.not_reached(at, days);
        not_reached += i64::from(missed);
        let wanted = match show {
            "ALL" => true,
            "NOT_REACHED" => missed,
            wire => state.as_str() == wire,
        };
        if wanted {
            picked.push((r, state, missed));
        }
    }
    let shown = picked.len() as i64;
    let pages = picked.len().div_ceil(PAGE_SIZE).max(1) as i64;
    let page = page.unwrap_or(1).clamp(1, pages);
    let entries = picked
        .into_iter()
        .skip((page as usize - 1) * PAGE_SIZE)
        .take(PAGE_SIZE)
        .map(|(r, state, missed)| ReachEntry {
            reason: r.reason(at, days),
            state: state.as_str().to_owned(),
            not_reached: missed,
            sent_at: r.sent_at.map(JsDate::from),
            opened_at: r.opened_at.map(JsDate::from),
            id: r.id,
            student_id: r.student_id,
            forename: r.forename,
            surname: r.surname,
            form_group: r.form_group,
            audience: r.audience,
            address: r.address,
        })
        .collect();
    NotificationReach {
        recorded: total > 0,
        days,
        counts: ReachState::ALL
            .iter()
            .map(|s| ReachCount {
                state: s.as_str().to_owned(),
                label: s.label().to_owned(),
                count: counts[*s as usize],
            })
            .collect(),
        not_reached,
        total,
        shown,
        page,
        page_size: PAGE_SIZE as i64,
        entries,
    }
}

pub async fn handler(ctx: &Ctx, input: ReachInput) -> RpcResult<NotificationReach> {
    let scope = scope(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let row = notifications::find_in_scope(&mut conn, &scope, &input.id)
        .await?
        .ok_or_else(not_found)?;
    let rows = deliveries::reach_of(&mut conn, &row.id).await?;
    Ok(reach(
        rows,
        days_or_default(input.days),
        input.show.as_deref(),
        input.page,
        now(),
    ))
}
