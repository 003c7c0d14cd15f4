//! `notification.create`: writes a message or assignment of the caller (sender) in the
//! caller's school and, in the same transaction, queues its `notification.send` job for the
//! send date (or now).

use core_wasm::NotificationType;
use serde::Deserialize;

use super::get::{load_detail, NotificationDetail};
use super::{
    apply_release, check_draft, notification_type_ts, scope, DraftInput, ReleaseChoice,
    ReleaseDate, ReleaseSetting,
};
use crate::ids::new_id;
use crate::models::notifications::{self, NewNotification};
use crate::models::now;
use crate::models::recipients::Filters;
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

/// A new notification. Written out by hand (not `rpc_type!`) because one field is `type`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateNotification {
    #[serde(rename = "type")]
    pub kind: NotificationType,
    pub title: String,
    pub custom_title: Option<String>,
    /// HTML from the editor; sanitised before it is stored.
    pub body: String,
    /// Empty: send now.
    pub send_date: Option<JsDate>,
    /// Assignments only; must be after the send date.
    pub submission_due_date: Option<JsDate>,
    pub send_to_pupil: bool,
    pub send_to_parent: bool,
    pub filters: Filters,
    /// Assignments: 'Feedback release' (absent: When marked).
    #[serde(default)]
    pub feedback_release: ReleaseChoice,
    /// With ON_DATE: when (in the future).
    #[serde(default)]
    pub feedback_release_at: ReleaseDate,
    /// The outbox's key: a replay answers as the first call did.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
}

impl Ts for CreateNotification {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("CreateNotification", |gen| {
            vec![
                ("type".into(), notification_type_ts()),
                ("title".into(), String::ts(gen)),
                ("customTitle".into(), Option::<String>::ts(gen)),
                ("body".into(), String::ts(gen)),
                ("sendDate".into(), Option::<JsDate>::ts(gen)),
                ("submissionDueDate".into(), Option::<JsDate>::ts(gen)),
                ("sendToPupil".into(), bool::ts(gen)),
                ("sendToParent".into(), bool::ts(gen)),
                ("filters".into(), Filters::ts(gen)),
                ("feedbackRelease?".into(), ReleaseChoice::ts(gen)),
                ("feedbackReleaseAt?".into(), ReleaseDate::ts(gen)),
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
            ]
        });
        "CreateNotification".into()
    }
}

pub async fn handler(ctx: &Ctx, input: CreateNotification) -> RpcResult<NotificationDetail> {
    let scope = scope(ctx)?;
    let sender_id = ctx.require_user()?.id.clone();
    let once = Once::new(ctx, &input.idempotency_key)?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if let Some(first) = once.replay(&mut conn).await? {
        return Ok(first);
    }
    let draft = check_draft(
        &mut conn,
        &scope.school_id,
        input.kind,
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
            current_release: None,
        },
        at,
    )
    .await?;
    let release = draft.release;
    let notification = NewNotification {
        id: new_id(),
        created_at: at,
        updated_at: at,
        kind: input.kind,
        title: draft.title,
        custom_title: draft.custom_title,
        body: draft.body,
        send_date: draft.send_date,
        submission_due_date: draft.submission_due_date,
        send_to_parent: draft.send_to_parent,
        send_to_pupil: draft.send_to_pupil,
        filters: draft.filters.to_stored(),
        sender_id,
        school_id: scope.school_id.clone(),
    };
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        notifications::insert(c, &notification).await?;
        apply_release(c, &notification.id, ReleaseSetting::WHEN_MARKED, release, at).await?;
        crate::jobs::notification_send::SendNotification::schedule(
            c,
            &notification.id,
            notification.updated_at,
            notification.send_date.unwrap_or(at),
        )
        .await?;
        let detail = load_detail(c, &scope, &notification.id).await?;
        once.store(c, &detail).await?;
        Ok::<_, RpcError>(detail)
    })
}
