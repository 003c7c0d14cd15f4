//! `task.submit`: submits a task once every required question has a non-blank answer;
//! otherwise BAD_REQUEST with a field error per unanswered question (`answers.<id>`).
//! Owner and collaborators may submit. Unsaved text is not read: the app saves first.

use super::require_task;
use crate::models::{now, task_submissions, templates};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcResult};

use super::TaskId;

rpc_type! {
    /// When the task was submitted.
    pub struct SubmittedTask {
        pub submitted_at: JsDate,
    }
}

pub async fn handler(ctx: &Ctx, input: TaskId) -> RpcResult<SubmittedTask> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
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
    task_submissions::mark_submitted(&mut conn, &task.id, at).await?;
    Ok(SubmittedTask {
        submitted_at: JsDate::from(at),
    })
}
