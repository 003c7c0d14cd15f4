//! `dashboard.summary`: work to mark (the count and the oldest few), assignments due in
//! the next 7 days, and notifications scheduled to send later — all within the caller's
//! marking scope (their own notifications; an admin's whole school).

use chrono::Duration;

use crate::models::{now, submissions};
use crate::rpc::feedback::scope;
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// How many of the oldest waiting submissions the dashboard shows.
const OLDEST_SHOWN: i64 = 5;
/// "Due soon" looks this many days ahead.
const DUE_SOON_DAYS: i64 = 7;
/// At most this many due and scheduled notifications each.
const LIST_LIMIT: i64 = 10;

rpc_type! {
    pub struct WaitingSubmission {
        pub submission_id: String,
        pub student_id: String,
        pub student_name: String,
        pub notification_title: String,
        pub received_at: JsDate,
    }
}

rpc_type! {
    pub struct DueAssignment {
        pub notification_id: String,
        pub title: String,
        pub submission_due_date: JsDate,
        pub received: i64,
        pub expected: i64,
    }
}

rpc_type! {
    pub struct ScheduledNotification {
        pub notification_id: String,
        pub title: String,
        /// `GENERAL` or `ASSIGNMENT`.
        pub kind: String,
        pub send_date: JsDate,
    }
}

rpc_type! {
    pub struct DashboardSummary {
        pub to_mark: i64,
        pub oldest_to_mark: Vec<WaitingSubmission>,
        pub due_soon: Vec<DueAssignment>,
        pub scheduled: Vec<ScheduledNotification>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<DashboardSummary> {
    let scope = scope(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    let to_mark = crate::models::hub_count::waiting(&mut conn, &scope).await?;
    let oldest_to_mark = crate::models::waiting::waiting(&mut conn, &scope, None, None, None, OLDEST_SHOWN)
        .await?
        .into_iter()
        .map(|row| WaitingSubmission {
            submission_id: row.submission_id,
            student_id: row.student_id,
            student_name: format!("{} {}", row.student_forename, row.student_surname),
            notification_title: row.notification_title,
            received_at: row.received_at.into(),
        })
        .collect();
    let mut due_soon = Vec::new();
    let due = submissions::assignments_due(
        &mut conn,
        &scope,
        at,
        at + Duration::days(DUE_SOON_DAYS),
        LIST_LIMIT,
    )
    .await?;
    for (id, title, _kind, _send, due_date) in due {
        let Some(due_date) = due_date else { continue };
        let (received, expected) = submissions::hand_in_counts(&mut conn, &id).await?;
        due_soon.push(DueAssignment {
            notification_id: id,
            title,
            submission_due_date: due_date.into(),
            received,
            expected,
        });
    }
    let scheduled = submissions::scheduled(&mut conn, &scope, at, LIST_LIMIT)
        .await?
        .into_iter()
        .filter_map(|(id, title, kind, send_date, _)| {
            Some(ScheduledNotification {
                notification_id: id,
                title,
                kind: kind.as_str().to_owned(),
                send_date: send_date?.into(),
            })
        })
        .collect();
    Ok(DashboardSummary {
        to_mark,
        oldest_to_mark,
        due_soon,
        scheduled,
    })
}
