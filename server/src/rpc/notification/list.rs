//! `notification.list`: Activity — the notifications the caller may see (teachers: those
//! they sent; admins: all of their school's), newest first, searchable by title, 20 a page
//! after a stable cursor (docs/scaling.md "Paged lists"), each with its status and counts
//! of recipients, submissions, marked and held.

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use super::{notification_type_ts, scope};
use crate::models::notifications::{self, with_activity, NotificationStatus};
use crate::models::now;
use crate::models::recipients::{count_recipients, Filters};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{cursor, Ctx, RpcResult};

/// A creation time in a cursor, to the nanosecond (both databases keep microseconds).
const CURSOR_TIME: &str = "%Y-%m-%dT%H:%M:%S%.f";

/// Activity's page size.
pub const DEFAULT_PAGE_SIZE: i64 = 20;
const MAX_PAGE_SIZE: i64 = 100;

rpc_type! {
    pub struct ListNotifications {
        pub search: Option<String>,
        /// `nextCursor` of the page before; absent = the newest.
        pub cursor: Option<String>,
        /// Absent = 20; at most 100.
        pub page_size: Option<i64>,
    }
}

/// One row of Activity. Written out by hand (not `rpc_type!`) because one field is `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityItem {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: core_wasm::NotificationType,
    pub title: String,
    pub custom_title: Option<String>,
    pub sender_name: String,
    pub created_at: JsDate,
    pub send_date: Option<JsDate>,
    pub submission_due_date: Option<JsDate>,
    pub status: NotificationStatus,
    /// Pupils it was sent to; before sending, the pupils its filters select now.
    pub recipients: i64,
    pub submissions: i64,
    pub marked: i64,
    /// Marks whose feedback is held (docs/feedback-release.md).
    pub held: i64,
}

impl Ts for ActivityItem {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ActivityItem", |gen| {
            vec![
                ("id".into(), String::ts(gen)),
                ("type".into(), notification_type_ts()),
                ("title".into(), String::ts(gen)),
                ("customTitle".into(), Option::<String>::ts(gen)),
                ("senderName".into(), String::ts(gen)),
                ("createdAt".into(), JsDate::ts(gen)),
                ("sendDate".into(), Option::<JsDate>::ts(gen)),
                ("submissionDueDate".into(), Option::<JsDate>::ts(gen)),
                ("status".into(), NotificationStatus::ts(gen)),
                ("recipients".into(), i64::ts(gen)),
                ("submissions".into(), i64::ts(gen)),
                ("marked".into(), i64::ts(gen)),
                ("held".into(), i64::ts(gen)),
            ]
        });
        "ActivityItem".into()
    }
}

rpc_type! {
    pub struct ActivityPage {
        pub items: Vec<ActivityItem>,
        pub total: i64,
        pub page_size: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: ListNotifications) -> RpcResult<ActivityPage> {
    let scope = scope(ctx)?;
    let page_size = input
        .page_size
        .unwrap_or(DEFAULT_PAGE_SIZE)
        .clamp(1, MAX_PAGE_SIZE);
    let after = match input.cursor.as_deref().filter(|c| !c.is_empty()) {
        Some(token) => {
            let [at, id] = cursor::decode("cursor", token)?;
            let at = NaiveDateTime::parse_from_str(&at, CURSOR_TIME)
                .map_err(|_| cursor::refused("cursor"))?;
            Some((at, id))
        }
        None => None,
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    // One more than a page tells whether another follows.
    let (mut rows, total) = notifications::list_page(
        &mut conn,
        &scope,
        input.search.as_deref(),
        after.as_ref(),
        page_size + 1,
    )
    .await?;
    let next_cursor = if rows.len() as i64 > page_size {
        rows.truncate(page_size as usize);
        rows.last().map(|(n, _)| {
            cursor::encode(&[&n.created_at.format(CURSOR_TIME).to_string(), &n.id])
        })
    } else {
        None
    };
    let rows = with_activity(&mut conn, rows, now()).await?;
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        let n = row.notification;
        let recipients = if row.receipts > 0 {
            row.receipts
        } else {
            count_recipients(&mut conn, &n.school_id, &Filters::from_stored(&n.filters)).await?
        };
        items.push(ActivityItem {
            id: n.id,
            kind: n.kind,
            title: n.title,
            custom_title: n.custom_title,
            sender_name: row.sender_name,
            created_at: n.created_at.into(),
            send_date: n.send_date.map(JsDate::from),
            submission_due_date: n.submission_due_date.map(JsDate::from),
            status: row.status,
            recipients,
            submissions: row.submissions,
            marked: row.marked,
            held: row.held,
        });
    }
    Ok(ActivityPage {
        items,
        total,
        page_size,
        next_cursor,
    })
}
