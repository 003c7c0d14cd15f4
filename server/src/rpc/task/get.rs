//! `task.get`: one task with its template's questions, the answers (with who wrote each
//! last and its version, the base of the next save), its collaborators and the caller's
//! plan.

use super::{
    collaborator_views, full_name, plan_of, require_task, tags_of, AccessView, PersonView,
    PlanView, TaskId,
};
use crate::db::DbConn;
use crate::models::task_submissions;
use crate::models::templates;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};

rpc_type! {
    /// The template a task was made from.
    pub struct TaskTemplateView {
        pub id: String,
        pub title: String,
    }
}

rpc_type! {
    /// A question of the task's template.
    pub struct TaskQuestionView {
        pub id: String,
        pub text: String,
        pub required: bool,
        pub position: i32,
    }
}

rpc_type! {
    /// A stored answer: `version` is the base of the next save of it.
    pub struct AnswerView {
        pub question_id: String,
        pub answer: String,
        pub version: i32,
        pub updated_by_name: Option<String>,
        pub updated_at: JsDate,
    }
}

rpc_type! {
    /// One task, whole.
    pub struct TaskView {
        pub id: String,
        pub title: String,
        pub tags: Vec<String>,
        pub draft: bool,
        pub submitted_at: Option<JsDate>,
        pub updated_at: JsDate,
        pub access: AccessView,
        pub template: TaskTemplateView,
        pub questions: Vec<TaskQuestionView>,
        pub answers: Vec<AnswerView>,
        pub collaborators: Vec<PersonView>,
        pub plan: PlanView,
    }
}

/// The stored answers of task `id`, with their authors' names.
pub(crate) async fn answer_views(conn: &mut DbConn<'_>, id: &str) -> RpcResult<Vec<AnswerView>> {
    let answers = task_submissions::answers_of(conn, id).await?;
    let mut author_ids: Vec<String> = answers
        .iter()
        .filter_map(|a| a.updated_by_id.clone())
        .collect();
    author_ids.sort();
    author_ids.dedup();
    let people = task_submissions::people(conn, &author_ids).await?;
    Ok(answers
        .into_iter()
        .map(|a| AnswerView {
            updated_by_name: a.updated_by_id.as_ref().and_then(|by| {
                people
                    .iter()
                    .find(|(id, ..)| id == by)
                    .map(|(_, forename, surname, _)| full_name(forename, surname))
            }),
            question_id: a.question_id,
            answer: a.answer,
            version: a.version,
            updated_at: JsDate::from(a.updated_at),
        })
        .collect())
}

pub async fn handler(ctx: &Ctx, input: TaskId) -> RpcResult<TaskView> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (access, task) = require_task(ctx, &mut conn, &input.id).await?;
    // The template is read directly: a task stays readable when its template is archived
    // or no longer visible to a collaborator.
    let template = templates_title(&mut conn, &task.task_id).await?;
    let questions = templates::questions_of(&mut conn, &task.task_id)
        .await?
        .into_iter()
        .map(|q| TaskQuestionView {
            id: q.id,
            text: q.text,
            required: q.required,
            position: q.position,
        })
        .collect();
    let answers = answer_views(&mut conn, &task.id).await?;
    let plan = plan_of(ctx, &mut conn, user).await?;
    let collaborators = collaborator_views(&mut conn, &task.id).await?;
    Ok(TaskView {
        tags: tags_of(&task.tags),
        id: task.id,
        title: task.title,
        draft: task.draft,
        submitted_at: task.submitted_at.map(JsDate::from),
        updated_at: JsDate::from(task.updated_at),
        access: access.into(),
        template: TaskTemplateView {
            id: task.task_id,
            title: template,
        },
        questions,
        answers,
        collaborators,
        plan: plan.into(),
    })
}

/// The title of template `id`.
async fn templates_title(conn: &mut DbConn<'_>, id: &str) -> RpcResult<String> {
    task_submissions::template_title(conn, id)
        .await?
        .ok_or_else(|| RpcError::internal(format!("task template {id} is missing")))
}
