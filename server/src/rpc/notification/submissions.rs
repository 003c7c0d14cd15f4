//! `notification.submissions`: the work handed in for a notification, earliest first.

use super::get::NotificationId;
use super::{not_found, scope};
use crate::models::notifications;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct NotificationSubmission {
        pub id: String,
        pub student_id: String,
        pub forename: String,
        pub surname: String,
        pub received_at: Option<JsDate>,
        pub marked_at: Option<JsDate>,
        /// NEUTRAL, POSITIVE or NEGATIVE once marked.
        pub sentiment: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: NotificationId) -> RpcResult<Vec<NotificationSubmission>> {
    let scope = scope(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let row = notifications::find_in_scope(&mut conn, &scope, &input.id)
        .await?
        .ok_or_else(not_found)?;
    let rows = notifications::submissions_of(&mut conn, &row.id).await?;
    Ok(rows
        .into_iter()
        .map(|s| NotificationSubmission {
            id: s.id,
            student_id: s.student_id,
            forename: s.forename,
            surname: s.surname,
            received_at: s.received_at.map(JsDate::from),
            marked_at: s.marked_at.map(JsDate::from),
            sentiment: s.sentiment,
        })
        .collect())
}
