//! `feedback.list`: the Feedback Hub — submissions received and not marked that the
//! caller may mark, oldest received first, optionally of one notification or class.

use crate::db::DbConn;
use crate::models::{stored_files, submissions};
use crate::rpc::feedback::scope;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// The Hub lists at most this many at once (oldest first); the count says how many wait.
const MAX_ITEMS: i64 = 500;

rpc_type! {
    pub struct FeedbackListInput {
        pub notification_id: Option<String>,
        pub class_id: Option<String>,
    }
}

rpc_type! {
    pub struct HubFile {
        pub id: String,
        pub filename: String,
        pub size_bytes: i64,
        pub url: String,
    }
}

rpc_type! {
    /// A submission waiting for feedback.
    pub struct HubItem {
        pub submission_id: String,
        pub student_id: String,
        pub student_forename: String,
        pub student_surname: String,
        pub notification_id: String,
        pub notification_title: String,
        pub received_at: JsDate,
        pub late: bool,
        pub content: Option<String>,
        pub files: Vec<HubFile>,
    }
}

rpc_type! {
    /// A choice for a filter.
    pub struct FilterOption {
        pub id: String,
        pub name: String,
    }
}

rpc_type! {
    pub struct FeedbackHub {
        pub items: Vec<HubItem>,
        /// The notifications with work waiting (unfiltered), for the filter.
        pub notifications: Vec<FilterOption>,
        /// The school's classes, for the filter.
        pub classes: Vec<FilterOption>,
    }
}

pub async fn handler(ctx: &Ctx, input: FeedbackListInput) -> RpcResult<FeedbackHub> {
    let scope = scope(ctx)?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let notification_id = input.notification_id.as_deref().filter(|s| !s.is_empty());
    let class_id = input.class_id.as_deref().filter(|s| !s.is_empty());
    let rows =
        submissions::waiting(&mut conn, &scope, notification_id, class_id, MAX_ITEMS).await?;
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        items.push(hub_item(&mut conn, row).await?);
    }
    let mut notifications: Vec<FilterOption> = Vec::new();
    for row in submissions::waiting(&mut conn, &scope, None, None, MAX_ITEMS).await? {
        if !notifications.iter().any(|n| n.id == row.notification_id) {
            notifications.push(FilterOption {
                id: row.notification_id,
                name: row.notification_title,
            });
        }
    }
    notifications.sort_by(|a, b| a.name.cmp(&b.name));
    let classes = crate::models::students::school_classes(&mut conn, school_id)
        .await?
        .into_iter()
        .map(|(id, name)| FilterOption { id, name })
        .collect();
    Ok(FeedbackHub {
        items,
        notifications,
        classes,
    })
}

async fn hub_item(conn: &mut DbConn<'_>, row: submissions::HubRow) -> RpcResult<HubItem> {
    let files = stored_files::of_submission(conn, &row.submission_id).await?;
    Ok(HubItem {
        files: files
            .into_iter()
            .map(|f| HubFile {
                url: format!(
                    "/api/submissions/{}/{}/files/{}",
                    row.submission_id, row.token, f.id
                ),
                id: f.id,
                filename: f.filename,
                size_bytes: f.size_bytes.unwrap_or(0),
            })
            .collect(),
        late: row
            .submission_due_date
            .is_some_and(|due| row.received_at > due),
        submission_id: row.submission_id,
        student_id: row.student_id,
        student_forename: row.student_forename,
        student_surname: row.student_surname,
        notification_id: row.notification_id,
        notification_title: row.notification_title,
        received_at: row.received_at.into(),
        content: row.content,
    })
}
