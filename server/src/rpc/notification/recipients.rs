//! `notification.recipients`: who a notification goes to. Before sending, the pupils its
//! filters select now (state SCHEDULED); after, each pupil with a receipt, with its sentAt
//! (state QUEUED while the receipt has no sentAt, SENT after).

use super::get::NotificationId;
use super::{not_found, scope};
use crate::models::recipients::{resolve_recipients, Filters};
use crate::models::{notifications, receipts};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct NotificationRecipient {
        pub student_id: String,
        pub forename: String,
        pub surname: String,
        pub sent_at: Option<JsDate>,
        /// SCHEDULED (not sent yet), QUEUED (receipt written, not yet sent) or SENT.
        pub state: String,
    }
}

pub async fn handler(ctx: &Ctx, input: NotificationId) -> RpcResult<Vec<NotificationRecipient>> {
    let scope = scope(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let row = notifications::find_in_scope(&mut conn, &scope, &input.id)
        .await?
        .ok_or_else(not_found)?;
    let receipts = receipts::receipts_of(&mut conn, &row.id).await?;
    if receipts.is_empty() {
        let pupils = resolve_recipients(
            &mut conn,
            &row.school_id,
            &Filters::from_stored(&row.filters),
        )
        .await?;
        return Ok(pupils
            .into_iter()
            .map(|p| NotificationRecipient {
                student_id: p.student_id,
                forename: p.forename,
                surname: p.surname,
                sent_at: None,
                state: "SCHEDULED".into(),
            })
            .collect());
    }
    Ok(receipts
        .into_iter()
        .map(|r| NotificationRecipient {
            student_id: r.student_id,
            forename: r.forename,
            surname: r.surname,
            state: if r.sent_at.is_some() {
                "SENT"
            } else {
                "QUEUED"
            }
            .into(),
            sent_at: r.sent_at.map(JsDate::from),
        })
        .collect())
}
