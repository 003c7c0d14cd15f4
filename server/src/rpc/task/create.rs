//! `task.create`: starts a draft task from a template the caller may see and that is not
//! archived (NOT_FOUND otherwise). On Basic, at most `BASIC_WEEKLY_TASK_LIMIT` tasks in
//! any 7 days: the next is FORBIDDEN with `weekly_task_limit_message`.

use chrono::Duration;
use core_wasm::plan::{may_create_task, weekly_task_limit_message, TASK_LIMIT_WINDOW_DAYS};
use serde::Deserialize;

use super::{caller, check_tags, check_title, plan_of};
use crate::ids::new_id;
use crate::models::task_submissions::{self, NewTask};
use crate::models::templates::{self, Viewer};
use crate::models::user_directory;
use crate::models::now;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// `{title, templateId, tags?}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTaskInput {
    pub title: String,
    pub template_id: String,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
}

impl Ts for CreateTaskInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("CreateTaskInput", |gen| {
            vec![
                ("title".into(), String::ts(gen)),
                ("templateId".into(), String::ts(gen)),
                ("tags?".into(), Option::<Vec<String>>::ts(gen)),
            ]
        });
        "CreateTaskInput".into()
    }
}

rpc_type! {
    /// The new task's id.
    pub struct CreatedTask {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: CreateTaskInput) -> RpcResult<CreatedTask> {
    let (user, school_id) = caller(ctx)?;
    let mut errors = FieldErrors::default();
    let title = check_title(&mut errors, &input.title);
    let tags = check_tags(&mut errors, input.tags.as_deref().unwrap_or_default());
    errors.into_result()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let viewer = Viewer::of(&mut conn, &user.id, school_id).await?;
    let template = templates::find_visible(&mut conn, &viewer, &input.template_id)
        .await?
        .filter(|t| t.archived_at.is_none())
        .ok_or_else(|| {
            RpcError::new(
                ErrorCode::NotFound,
                "This template does not exist or can no longer be used.",
            )
        })?;
    let plan = plan_of(ctx, &mut conn, user).await?;
    let id = new_id();
    let at = now();
    transaction!(&mut conn, |c| {
        // Two creates at once must not both pass the count.
        user_directory::lock_user(c, &user.id).await?;
        let since = at - Duration::days(TASK_LIMIT_WINDOW_DAYS);
        let made = task_submissions::count_created_since(c, &user.id, since).await?;
        if !may_create_task(plan, u32::try_from(made).unwrap_or(u32::MAX)) {
            return Err(RpcError::forbidden(weekly_task_limit_message()));
        }
        task_submissions::insert(
            c,
            &NewTask {
                id: &id,
                user_id: &user.id,
                school_id,
                template_id: &template.id,
                title: &title,
                tags_json: &tags,
                at,
            },
        )
        .await?;
        Ok::<_, RpcError>(())
    })?;
    Ok(CreatedTask { id })
}
