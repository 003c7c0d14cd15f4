//! `task.submit`: submits a task once every required question has a non-blank answer;
//! otherwise BAD_REQUEST with a field error per unanswered question (`answers.<id>`).
//! Owner and collaborators may submit. Unsaved text is not read: the app saves first.

use super::require_task;
use crate::models::{now, task_submissions, templates};
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    /// `{id}`: the task to submit.
    pub struct SubmitTaskInput {
        pub id: String,
        /// The outbox's key: a replay answers as the first call did.
        #[serde(default)]
        pub idempotency_key: IdempotencyKey,
    }
}

rpc_type! {
    /// When the task was submitted.
    pub struct SubmittedTask {
        pub submitted_at: JsDate,
    }
}

pub async fn handler(ctx: &Ctx, input: SubmitTaskInput) -> RpcResult<SubmittedTask> {
    let once = Once::new(ctx, &input.idempotency_key)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if let Some(first) = once.replay(&mut conn).await? {
        return Ok(first);
    }
    let (_, task) = require_task(ctx, &mut conn, &input.id).await?;
    let questions = templates::questions_of(&mut conn, &task.task_id).await?;
    let answers = task_submissions::answers_of(&mut conn, &task.id).await?;
    let mut errors = FieldErrors::default();
    for question in questions.iter().filter(|q| q.required) {
        let answered = answers
            .iter()
            .any(|a| a.question_id == question.id && !a.answer.trim().is_empty());
        if !answered {
            errors.add(
                &format!("answers.{}", question.id),
                format!("Answer the required question \u{201c}{}\u{201d} before submitting.", question.text),
            );
        }
    }
    errors.into_result()?;
    let at = now();
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        task_submissions::mark_submitted(c, &task.id, at).await?;
        let submitted = SubmittedTask {
            submitted_at: JsDate::from(at),
        };
        once.store(c, &submitted).await?;
        Ok::<_, RpcError>(submitted)
    })
}
