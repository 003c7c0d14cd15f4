//! `task.list`: the caller's tasks and those shared with them, most recently changed first;
//! optionally only those whose title contains `search` (any case), carrying `tag`, or in
//! `status`.

use serde::Deserialize;

use super::{caller, full_name, tags_of, TaskStatus};
use crate::models::task_submissions;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

/// `{search?, tag?, status?}`: every filter may be absent or null.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListTasksInput {
    pub search: Option<String>,
    pub tag: Option<String>,
    pub status: Option<TaskStatus>,
}

impl Ts for ListTasksInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ListTasksInput", |gen| {
            vec![
                ("search?".into(), Option::<String>::ts(gen)),
                ("tag?".into(), Option::<String>::ts(gen)),
                ("status?".into(), Option::<TaskStatus>::ts(gen)),
            ]
        });
        "ListTasksInput".into()
    }
}

rpc_type! {
    /// A task as the list shows it.
    pub struct TaskSummary {
        pub id: String,
        pub title: String,
        pub tags: Vec<String>,
        pub draft: bool,
        pub submitted_at: Option<JsDate>,
        pub updated_at: JsDate,
        pub template_title: String,
        pub owner_name: String,
        /// The caller is a collaborator, not the owner.
        pub shared: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: ListTasksInput) -> RpcResult<Vec<TaskSummary>> {
    let (user, school_id) = caller(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let entries = task_submissions::list_for(&mut conn, &user.id, school_id).await?;
    let search = input
        .search
        .as_deref()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty());
    let tag = input
        .tag
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    Ok(entries
        .into_iter()
        .filter_map(|entry| {
            let task = entry.task;
            let tags = tags_of(&task.tags);
            let keep = search
                .as_ref()
                .is_none_or(|s| task.title.to_lowercase().contains(s.as_str()))
                && tag.is_none_or(|t| tags.iter().any(|have| have.eq_ignore_ascii_case(t)))
                && input.status.is_none_or(|status| match status {
                    TaskStatus::Draft => task.draft,
                    TaskStatus::Submitted => !task.draft,
                });
            keep.then(|| TaskSummary {
                shared: task.user_id != user.id,
                id: task.id,
                title: task.title,
                tags,
                draft: task.draft,
                submitted_at: task.submitted_at.map(JsDate::from),
                updated_at: JsDate::from(task.updated_at),
                template_title: entry.template_title,
                owner_name: full_name(&entry.owner_forename, &entry.owner_surname),
            })
        })
        .collect())
}
