//! `feedback.listMore`: the Feedback Hub's next page of one list after the cursor the page
//! before ended with (`waitingNext` / `markedNext` of `feedback.list`, or `nextCursor` of
//! this): 500 waiting submissions after it, oldest first, or 200 marked ones before it,
//! newest marked first, under the same filters and scope (docs/scaling.md "Paged lists").
//! Only the rows: the counts, held groups and filter choices come with the first page.

use serde::{Deserialize, Serialize};

use crate::models::{marks, stored_files, waiting};
use crate::rpc::feedback::list::{
    hub_item, marked_item, next_marked, next_waiting, HubItem, MarkedItem, MAX_ITEMS, MAX_MARKED,
};
use crate::rpc::feedback::scope;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{cursor, Ctx, RpcResult};

/// Which of the Hub's lists: `'WAITING' | 'MARKED'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HubList {
    Waiting,
    Marked,
}

impl Ts for HubList {
    fn ts(_: &mut TsGen) -> String {
        "'WAITING' | 'MARKED'".to_owned()
    }
}

rpc_type! {
    pub struct FeedbackListMoreInput {
        pub notification_id: Option<String>,
        pub class_id: Option<String>,
        pub list: HubList,
        /// Where the page starts: the cursor the page before ended with.
        pub cursor: String,
    }
}

rpc_type! {
    /// One more page of one list (the other is empty).
    pub struct FeedbackPage {
        pub waiting: Vec<HubItem>,
        pub marked: Vec<MarkedItem>,
        /// Where the page after this one starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: FeedbackListMoreInput) -> RpcResult<FeedbackPage> {
    let scope = scope(ctx)?;
    let Some(key) = cursor::time_key("cursor", Some(&input.cursor))? else {
        return Err(cursor::refused("cursor"));
    };
    let notification_id = input.notification_id.as_deref().filter(|s| !s.is_empty());
    let class_id = input.class_id.as_deref().filter(|s| !s.is_empty());
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    match input.list {
        HubList::Waiting => {
            let mut rows = waiting::waiting(
                &mut conn,
                &scope,
                notification_id,
                class_id,
                Some(&key),
                MAX_ITEMS + 1,
            )
            .await?;
            let next_cursor = next_waiting(&mut rows, MAX_ITEMS);
            let ids: Vec<&str> = rows.iter().map(|r| r.submission_id.as_str()).collect();
            let mut files = stored_files::of_submissions(&mut conn, &ids).await?;
            Ok(FeedbackPage {
                waiting: rows.into_iter().map(|row| hub_item(&mut files, row)).collect(),
                marked: Vec::new(),
                next_cursor,
            })
        }
        HubList::Marked => {
            let mut rows =
                marks::marked(&mut conn, &scope, notification_id, class_id, Some(&key), MAX_MARKED + 1)
                    .await?;
            let next_cursor = next_marked(&mut rows, MAX_MARKED);
            let ids: Vec<&str> = rows.iter().map(|r| r.hub.submission_id.as_str()).collect();
            let mut files = stored_files::of_submissions(&mut conn, &ids).await?;
            Ok(FeedbackPage {
                waiting: Vec::new(),
                marked: rows.into_iter().map(|row| marked_item(&mut files, row)).collect(),
                next_cursor,
            })
        }
    }
}
