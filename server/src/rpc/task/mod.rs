//! `task.*`: a user's tasks, each a filled-in copy of a template (docs/leaders.md, "Tasks").
//! Every signed-in user of a school may use them. A task is reached only through
//! `models::task_submissions::access`: its owner and the colleagues it is shared with; for
//! anyone else it is NOT_FOUND. Sharing (Collaborate) is Pro; Basic may start
//! `core_wasm::plan::BASIC_WEEKLY_TASK_LIMIT` tasks in any 7 days.

pub mod add_collaborator;
pub mod colleagues;
pub mod create;
pub mod delete;
pub mod get;
pub mod list;
pub mod remove_collaborator;
pub mod save;
pub mod submit;
pub mod template_choices;

use core_wasm::limits::{MAX_GROUP_NAME_CHARS, MAX_TITLE_CHARS};
use core_wasm::plan::Plan;
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::models::task_submissions::{self, TaskAccess, TaskRow};
use crate::models::users::User;
use crate::rpc::input::check_length;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};

/// Most tags on one task.
pub const MAX_TAGS: usize = 20;

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "task.addCollaborator" => add_collaborator),
        procedure!(Query "task.colleagues" => colleagues),
        procedure!(Mutation "task.create" => create),
        procedure!(Mutation "task.delete" => delete),
        procedure!(Query "task.get" => get),
        procedure!(Query "task.list" => list),
        procedure!(Mutation "task.removeCollaborator" => remove_collaborator),
        procedure!(Mutation "task.save" => save),
        procedure!(Mutation "task.submit" => submit),
        procedure!(Query "task.templateChoices" => template_choices),
    ]
}

rpc_type! {
    /// `{id}`: the input of the calls about one task.
    pub struct TaskId {
        pub id: String,
    }
}

rpc_type! {
    /// A colleague on a task.
    pub struct PersonView {
        pub id: String,
        pub name: String,
    }
}

/// The caller and their school.
pub(crate) fn caller(ctx: &Ctx) -> RpcResult<(&User, &str)> {
    let user = ctx.require_user()?;
    Ok((user, ctx.school_id()?))
}

/// The caller's plan (`crate::plans`: their school's subscription).
pub(crate) async fn plan_of(ctx: &Ctx, conn: &mut DbConn<'_>, user: &User) -> RpcResult<Plan> {
    Ok(crate::plans::user_plan(conn, &ctx.state.config, user).await?)
}

/// NOT_FOUND for a task the caller may not reach, whatever the reason.
pub(crate) fn task_not_found() -> RpcError {
    RpcError::new(
        ErrorCode::NotFound,
        "This task does not exist or is not shared with you.",
    )
}

/// The task `id` and how the caller reaches it; NOT_FOUND otherwise.
pub(crate) async fn require_task(
    ctx: &Ctx,
    conn: &mut DbConn<'_>,
    id: &str,
) -> RpcResult<(TaskAccess, TaskRow)> {
    let (user, school_id) = caller(ctx)?;
    let access = task_submissions::access(conn, &user.id, school_id, id)
        .await?
        .ok_or_else(task_not_found)?;
    let row = task_submissions::find(conn, id)
        .await?
        .ok_or_else(task_not_found)?;
    Ok((access, row))
}

/// The task `id` if the caller owns it: FORBIDDEN with `message` for a collaborator.
pub(crate) async fn require_owner(
    ctx: &Ctx,
    conn: &mut DbConn<'_>,
    id: &str,
    message: &str,
) -> RpcResult<TaskRow> {
    match require_task(ctx, conn, id).await? {
        (TaskAccess::Owner, row) => Ok(row),
        (TaskAccess::Collaborator, _) => Err(RpcError::forbidden(message)),
    }
}

/// A trimmed title, or a field error.
pub(crate) fn check_title(errors: &mut FieldErrors, title: &str) -> String {
    let title = title.trim().to_owned();
    if title.is_empty() {
        errors.add("title", "Enter a title.");
    }
    check_length(errors, "title", &title, MAX_TITLE_CHARS);
    title
}

/// The tags trimmed, without blanks and repeats, as stored (a JSON array); field errors
/// for too many or too long.
pub(crate) fn check_tags(errors: &mut FieldErrors, tags: &[String]) -> String {
    let mut kept: Vec<String> = Vec::new();
    for tag in tags {
        let tag = tag.trim();
        if tag.is_empty() || kept.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
            continue;
        }
        check_length(errors, "tags", tag, MAX_GROUP_NAME_CHARS);
        kept.push(tag.to_owned());
    }
    if kept.len() > MAX_TAGS {
        errors.add("tags", format!("Use at most {MAX_TAGS} tags."));
    }
    serde_json::to_string(&kept).unwrap_or_else(|_| "[]".into())
}

/// The stored tags of a task (a JSON array; anything else reads as none).
pub(crate) fn tags_of(json: &str) -> Vec<String> {
    serde_json::from_str(json).unwrap_or_default()
}

/// "Forename Surname".
pub(crate) fn full_name(forename: &str, surname: &str) -> String {
    format!("{forename} {surname}").trim().to_owned()
}

/// The colleagues a task is shared with, by name.
pub(crate) async fn collaborator_views(
    conn: &mut DbConn<'_>,
    id: &str,
) -> RpcResult<Vec<PersonView>> {
    Ok(task_submissions::collaborators_of(conn, id)
        .await?
        .into_iter()
        .map(|(id, forename, surname, _)| PersonView {
            name: full_name(&forename, &surname),
            id,
        })
        .collect())
}

/// Declares a string enum for the wire: its serde names and its TypeScript union.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl Ts for $name {
            fn ts(_: &mut TsGen) -> String {
                [$(concat!("'", $text, "'")),+].join(" | ")
            }
        }
    };
}

wire_enum!(
    /// A task's state: a draft, or submitted.
    TaskStatus { Draft => "DRAFT", Submitted => "SUBMITTED" }
);
wire_enum!(
    /// How the caller reaches a task.
    AccessView { Owner => "OWNER", Collaborator => "COLLABORATOR" }
);
wire_enum!(
    /// The caller's plan.
    PlanView { Basic => "BASIC", Pro => "PRO" }
);

impl From<TaskAccess> for AccessView {
    fn from(access: TaskAccess) -> Self {
        match access {
            TaskAccess::Owner => AccessView::Owner,
            TaskAccess::Collaborator => AccessView::Collaborator,
        }
    }
}

impl From<Plan> for PlanView {
    fn from(plan: Plan) -> Self {
        match plan {
            Plan::Basic => PlanView::Basic,
            Plan::Pro => PlanView::Pro,
        }
    }
}
