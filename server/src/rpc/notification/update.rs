//! `notification.update`: changes a notification while it is still scheduled. The queued
//! send job of the previous save is taken off the queue and a new one is queued for the new
//! send date, in the same transaction as the change; once sending has begun the answer is
//! BAD_REQUEST "This notification has already been sent."

use super::get::{load_detail, NotificationDetail};
use super::{check_draft, not_found, scope, DraftInput};
use crate::models::notifications::{self, NotificationChanges};
use crate::models::recipients::Filters;
use crate::models::{now, receipts};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

pub const ALREADY_SENT: &str = "This notification has already been sent.";

rpc_type! {
    /// The new fields of notification `id` (its type cannot change).
    pub struct UpdateNotification {
        pub id: String,
        pub title: String,
        pub custom_title: Option<String>,
        pub body: String,
        pub send_date: Option<JsDate>,
        pub submission_due_date: Option<JsDate>,
        pub send_to_pupil: bool,
        pub send_to_parent: bool,
        pub filters: Filters,
    }
}

pub async fn handler(ctx: &Ctx, input: UpdateNotification) -> RpcResult<NotificationDetail> {
    let scope = scope(ctx)?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let id = input.id;
    transaction!(&mut conn, |c| {
        let row = notifications::find_in_scope(c, &scope, &id)
            .await?
            .ok_or_else(not_found)?;
        let scheduled =
            row.send_date.is_some_and(|d| d > at) && receipts::receipt_count(c, &id).await? == 0;
        if !scheduled {
            return Err(RpcError::bad_request(ALREADY_SENT));
        }
        let draft = check_draft(
            c,
            &scope.school_id,
            row.kind,
            DraftInput {
                title: input.title,
                custom_title: input.custom_title,
                body: input.body,
                send_date: input.send_date,
                submission_due_date: input.submission_due_date,
                send_to_pupil: input.send_to_pupil,
                send_to_parent: input.send_to_parent,
                filters: input.filters,
            },
            at,
        )
        .await?;
        let old_key = notifications::send_job_key(&id, row.updated_at);
        if !notifications::withdraw_queued_send(c, &old_key).await? {
            return Err(RpcError::bad_request(ALREADY_SENT));
        }
        // A save in the same microsecond as the last one would reuse its job key.
        let updated_at = if at > row.updated_at {
            at
        } else {
            row.updated_at + chrono::Duration::microseconds(1)
        };
        let changes = NotificationChanges {
            updated_at,
            title: draft.title,
            custom_title: draft.custom_title,
            body: draft.body,
            send_date: draft.send_date,
            submission_due_date: draft.submission_due_date,
            send_to_parent: draft.send_to_parent,
            send_to_pupil: draft.send_to_pupil,
            filters: draft.filters.to_stored(),
        };
        notifications::update(c, &id, &changes).await?;
        crate::jobs::notification_send::SendNotification::schedule(
            c,
            &id,
            updated_at,
            draft.send_date.unwrap_or(at),
        )
        .await?;
        Ok::<_, RpcError>(())
    })?;
    load_detail(&mut pooled.db(), &scope, &id).await
}
