//! `ai.formatAnswer {taskId, questionId, text}` → `{text}`: the chat model tidies an answer
//! the user wrote (grammar, British English, short paragraphs or bullets; the meaning and
//! facts kept). Nothing is saved: the user sees the result, may undo it, and saves the form.
//! The call is kept in `assistant_queries`. No chat provider: PRECONDITION_FAILED with
//! [`prompt::NOT_SET_UP`]; a task the caller cannot reach, or a question not on its
//! template: NOT_FOUND.

use serde_json::json;

use crate::models::{task_context, task_submissions, templates};
use crate::rpc::ai::{prompt, record_query};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The longest answer that may be tidied, in characters.
pub const MAX_FORMAT_CHARS: usize = 20_000;

rpc_type! {
    pub struct FormatAnswerInput {
        pub task_id: String,
        pub question_id: String,
        pub text: String,
    }
}

rpc_type! {
    pub struct FormattedAnswer {
        /// The tidied answer.
        pub text: String,
    }
}

pub async fn handler(ctx: &Ctx, input: FormatAnswerInput) -> RpcResult<FormattedAnswer> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let text = input.text.trim();
    if text.is_empty() {
        return Err(RpcError::field("text", "Write an answer first, then use AI Formatting."));
    }
    if text.chars().count() > MAX_FORMAT_CHARS {
        return Err(RpcError::field(
            "text",
            format!("AI Formatting takes answers of at most {MAX_FORMAT_CHARS} characters."),
        ));
    }
    let question = {
        let mut pooled = ctx.conn().await?;
        let mut conn = pooled.db();
        task_submissions::access(&mut conn, &user.id, school_id, &input.task_id)
            .await?
            .ok_or_else(|| RpcError::bare(ErrorCode::NotFound))?;
        let context = task_context::of_task(&mut conn, &input.task_id)
            .await?
            .ok_or_else(|| RpcError::bare(ErrorCode::NotFound))?;
        templates::questions_of(&mut conn, &context.template_id)
            .await?
            .into_iter()
            .find(|q| q.id == input.question_id)
            .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "This question is not on the task's template."))?
    };
    let Some(chat) = ctx.state.providers.chat.as_ref() else {
        return Err(RpcError::new(ErrorCode::PreconditionFailed, prompt::NOT_SET_UP));
    };
    let query = json!({
        "kind": "formatAnswer",
        "taskId": input.task_id,
        "questionId": question.id,
        "question": question.text,
        "text": text,
    })
    .to_string();
    let reply = chat.complete(&prompt::format_answer(&question.text, text)).await;
    let formatted = match reply {
        Ok(reply) => prompt::clean_formatted(&reply),
        Err(err) => {
            let message = prompt::user_message(&err);
            record_query(&ctx.state, &user.id, &query, &json!({"error": message}).to_string()).await;
            return Err(RpcError {
                code: ErrorCode::InternalServerError,
                message,
                fields: None,
                detail: Some(format!("chat: {err}")),
            });
        }
    };
    record_query(&ctx.state, &user.id, &query, &json!({"text": formatted}).to_string()).await;
    if formatted.is_empty() {
        return Err(RpcError::new(
            ErrorCode::InternalServerError,
            "The AI service sent back an empty answer. Your text is unchanged.",
        ));
    }
    Ok(FormattedAnswer { text: formatted })
}
