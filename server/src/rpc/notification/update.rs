//! `notification.update`: changes a notification while it is still scheduled. The queued
//! send job of the previous save is taken off the queue and a new one is queued for the new
//! send date, in the same transaction as the change; once sending has begun the answer is
//! BAD_REQUEST "This notification has already been sent."
//!
//! The one exception: an assignment's 'Feedback release' may change after sending (that is
//! when marks are held): the input names a release and every other field is sent back as
//! it is stored. The change
//! applies to the marks still held: When marked releases them at once through the job
//! queue, a new date moves the scheduled release (docs/feedback-release.md).

use super::get::{load_detail, NotificationDetail};
use chrono::NaiveDateTime;

use super::{
    apply_release, check_draft, check_release, not_found, scope, DraftInput, ReleaseChoice,
    ReleaseDate, ReleaseSetting,
};
use crate::mail::templates::sanitize_body;
use crate::models::notifications::{self, NotificationChanges, NotificationRow};
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
        /// Assignments: 'Feedback release' (absent: unchanged).
        #[serde(default)]
        pub feedback_release: ReleaseChoice,
        /// With ON_DATE: when.
        #[serde(default)]
        pub feedback_release_at: ReleaseDate,
    }
}

/// Whether two times are the same to the millisecond (what a JavaScript `Date` keeps).
fn same_time(given: Option<&JsDate>, stored: Option<NaiveDateTime>) -> bool {
    given.map(|d| d.0.timestamp_millis()) == stored.map(|d| d.and_utc().timestamp_millis())
}

/// Whether `input` carries `row`'s fields unchanged, apart from the feedback release.
fn only_release_changes(row: &NotificationRow, input: &UpdateNotification) -> bool {
    let custom_title = input
        .custom_title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let mut filters = input.filters.clone();
    for list in [
        &mut filters.classes,
        &mut filters.year_groups,
        &mut filters.form_groups,
        &mut filters.students,
    ] {
        list.sort();
        list.dedup();
    }
    input.title.trim() == row.title
        && custom_title == row.custom_title.as_deref()
        && sanitize_body(&input.body) == row.body
        && same_time(input.send_date.as_ref(), row.send_date)
        && same_time(input.submission_due_date.as_ref(), row.submission_due_date)
        && input.send_to_pupil == row.send_to_pupil
        && input.send_to_parent == row.send_to_parent
        && filters == Filters::from_stored(&row.filters)
}

fn stored_release(row: &NotificationRow) -> ReleaseSetting {
    ReleaseSetting {
        release: row.release(),
        at: row.feedback_release_at,
    }
}

pub async fn handler(ctx: &Ctx, input: UpdateNotification) -> RpcResult<NotificationDetail> {
    let scope = scope(ctx)?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let id = input.id.clone();
    // What a sent assignment's edit is compared with (the closure moves `input`'s fields).
    let sent_edit = input.clone();
    transaction!(&mut conn, |c| {
        let row = notifications::find_in_scope(c, &scope, &id)
            .await?
            .ok_or_else(not_found)?;
        let scheduled =
            row.send_date.is_some_and(|d| d > at) && receipts::receipt_count(c, &id).await? == 0;
        let current = stored_release(&row);
        if !scheduled {
            if row.kind != core_wasm::NotificationType::Assignment
                || sent_edit.feedback_release.0.is_none()
                || !only_release_changes(&row, &sent_edit)
            {
                return Err(RpcError::bad_request(ALREADY_SENT));
            }
            let mut errors = crate::rpc::FieldErrors::default();
            let release = check_release(
                &mut errors,
                row.kind,
                &sent_edit.feedback_release,
                &sent_edit.feedback_release_at,
                Some(current),
                at,
            );
            errors.into_result()?;
            apply_release(c, &id, current, release, at).await?;
            return Ok::<_, RpcError>(());
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
                feedback_release: input.feedback_release,
                feedback_release_at: input.feedback_release_at,
                current_release: Some(current),
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
        apply_release(c, &id, current, draft.release, at).await?;
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
