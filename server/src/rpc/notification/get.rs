//! `notification.get`: one notification of the caller's scope, with its status and counts.

use serde::{Deserialize, Serialize};

use super::{not_found, notification_type_ts, scope};
use crate::db::DbConn;
use crate::models::notifications::{
    self, with_activity, FeedbackRelease, NotificationScope, NotificationStatus,
};
use crate::models::now;
use crate::models::recipients::{count_recipients, Filters};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// Names one notification.
    pub struct NotificationId {
        pub id: String,
    }
}

/// A notification as the editor and the view page show it. Written out by hand (not
/// `rpc_type!`) because one field is called `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationDetail {
    pub id: String,
    /// GENERAL or ASSIGNMENT.
    #[serde(rename = "type")]
    pub kind: core_wasm::NotificationType,
    pub title: String,
    pub custom_title: Option<String>,
    /// Sanitised HTML.
    pub body: String,
    pub send_date: Option<JsDate>,
    pub submission_due_date: Option<JsDate>,
    pub send_to_pupil: bool,
    pub send_to_parent: bool,
    pub filters: Filters,
    pub status: NotificationStatus,
    pub sender_name: String,
    pub created_at: JsDate,
    pub updated_at: JsDate,
    /// Pupils it was sent to; before sending, the pupils its filters select now.
    pub recipients: i64,
    pub submissions: i64,
    pub marked: i64,
    /// Only a scheduled notification may be changed.
    pub editable: bool,
    /// Assignments: when marks reach pupils and parents (docs/feedback-release.md).
    pub feedback_release: FeedbackRelease,
    /// With ON_DATE: when.
    pub feedback_release_at: Option<JsDate>,
    /// Marks whose feedback is held.
    pub held: i64,
}

impl Ts for NotificationDetail {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("NotificationDetail", |gen| {
            vec![
                ("id".into(), String::ts(gen)),
                ("type".into(), notification_type_ts()),
                ("title".into(), String::ts(gen)),
                ("customTitle".into(), Option::<String>::ts(gen)),
                ("body".into(), String::ts(gen)),
                ("sendDate".into(), Option::<JsDate>::ts(gen)),
                ("submissionDueDate".into(), Option::<JsDate>::ts(gen)),
                ("sendToPupil".into(), bool::ts(gen)),
                ("sendToParent".into(), bool::ts(gen)),
                ("filters".into(), Filters::ts(gen)),
                ("status".into(), NotificationStatus::ts(gen)),
                ("senderName".into(), String::ts(gen)),
                ("createdAt".into(), JsDate::ts(gen)),
                ("updatedAt".into(), JsDate::ts(gen)),
                ("recipients".into(), i64::ts(gen)),
                ("submissions".into(), i64::ts(gen)),
                ("marked".into(), i64::ts(gen)),
                ("editable".into(), bool::ts(gen)),
                ("feedbackRelease".into(), FeedbackRelease::ts(gen)),
                ("feedbackReleaseAt".into(), Option::<JsDate>::ts(gen)),
                ("held".into(), i64::ts(gen)),
            ]
        });
        "NotificationDetail".into()
    }
}

/// The notification `id` as `scope` may see it, with status and counts.
pub async fn load_detail(
    conn: &mut DbConn<'_>,
    scope: &NotificationScope,
    id: &str,
) -> RpcResult<NotificationDetail> {
    let row = notifications::find_in_scope(conn, scope, id)
        .await?
        .ok_or_else(not_found)?;
    let sender_name = notifications::user_name(conn, &row.sender_id).await?;
    let activity = with_activity(conn, vec![(row, sender_name)], now())
        .await?
        .pop()
        .ok_or_else(not_found)?;
    let row = activity.notification;
    let filters = Filters::from_stored(&row.filters);
    let recipients = if activity.receipts > 0 {
        activity.receipts
    } else {
        count_recipients(conn, &row.school_id, &filters).await?
    };
    let feedback_release = row.release();
    Ok(NotificationDetail {
        feedback_release,
        feedback_release_at: row
            .feedback_release_at
            .filter(|_| feedback_release == FeedbackRelease::OnDate)
            .map(JsDate::from),
        held: activity.held,
        id: row.id,
        kind: row.kind,
        title: row.title,
        custom_title: row.custom_title,
        body: row.body,
        send_date: row.send_date.map(JsDate::from),
        submission_due_date: row.submission_due_date.map(JsDate::from),
        send_to_pupil: row.send_to_pupil,
        send_to_parent: row.send_to_parent,
        filters,
        status: activity.status,
        sender_name: activity.sender_name,
        created_at: row.created_at.into(),
        updated_at: row.updated_at.into(),
        recipients,
        submissions: activity.submissions,
        marked: activity.marked,
        editable: activity.status == NotificationStatus::Scheduled,
    })
}

pub async fn handler(ctx: &Ctx, input: NotificationId) -> RpcResult<NotificationDetail> {
    let scope = scope(ctx)?;
    let mut pooled = ctx.conn().await?;
    load_detail(&mut pooled.db(), &scope, &input.id).await
}
