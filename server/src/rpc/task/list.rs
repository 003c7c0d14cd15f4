//! `task.list`: the caller's tasks and those shared with them, most recently changed first
//! (then by id), [`PAGE`] at a time after a stable cursor (docs/scaling.md "Paged lists");
//! optionally only those whose title contains `search` (any case), carrying `tag`, or in
//! `status`. Each page also carries every tag of the caller's tasks, for the tag filter.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{caller, full_name, tags_of, TaskStatus};
use crate::db::DbConn;
use crate::models::task_submissions::{self, TaskFilter, TaskListEntry};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{cursor, Ctx, RpcResult};

/// Tasks per page: one line each in the table; a leader has about 20 (the thousand-school
/// data), so nearly everyone sees all of theirs on the first page, and a page of 50 stays
/// near 15 kB.
pub const PAGE: i64 = 50;

/// `{search?, tag?, status?, cursor?}`: every field may be absent or null.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListTasksInput {
    pub search: Option<String>,
    pub tag: Option<String>,
    pub status: Option<TaskStatus>,
    /// `nextCursor` of the page before; none for the first page.
    pub cursor: Option<String>,
}

impl Ts for ListTasksInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ListTasksInput", |gen| {
            vec![
                ("search?".into(), Option::<String>::ts(gen)),
                ("tag?".into(), Option::<String>::ts(gen)),
                ("status?".into(), Option::<TaskStatus>::ts(gen)),
                ("cursor?".into(), Option::<String>::ts(gen)),
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

rpc_type! {
    pub struct TaskPage {
        pub tasks: Vec<TaskSummary>,
        /// Every task the filters keep.
        pub total: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
        /// Every tag of the caller's tasks (whatever the filters), by name, one spelling each.
        pub all_tags: Vec<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: Option<ListTasksInput>) -> RpcResult<TaskPage> {
    let (user, school_id) = caller(ctx)?;
    let input = input.unwrap_or_default();
    let after = cursor::time_key("cursor", input.cursor.as_deref())?;
    let filter = TaskFilter {
        search: input.search,
        tag: input.tag,
        draft: input.status.map(|status| status == TaskStatus::Draft),
        ..TaskFilter::default()
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    // One more than a page tells whether another follows.
    let (mut entries, total) =
        task_submissions::list_page(&mut conn, &user.id, school_id, &filter, after.as_ref(), PAGE + 1).await?;
    let next_cursor = next_page(&mut entries, PAGE);
    let all_tags = all_tags(&mut conn, &user.id, school_id).await?;
    let tasks = entries
        .into_iter()
        .map(|entry| {
            let task = entry.task;
            TaskSummary {
                shared: task.user_id != user.id,
                id: task.id,
                title: task.title,
                tags: tags_of(&task.tags),
                draft: task.draft,
                submitted_at: task.submitted_at.map(JsDate::from),
                updated_at: JsDate::from(task.updated_at),
                template_title: entry.template_title,
                owner_name: full_name(&entry.owner_forename, &entry.owner_surname),
            }
        })
        .collect();
    Ok(TaskPage { tasks, total, next_cursor, all_tags })
}

/// Cuts `entries` (read one past `page` from [`task_submissions::list_page`]) to the page;
/// answers the cursor after its last row when more follow. The report generator's task
/// picker pages the same way.
pub(crate) fn next_page(entries: &mut Vec<TaskListEntry>, page: i64) -> Option<String> {
    if entries.len() as i64 <= page {
        return None;
    }
    entries.truncate(page as usize);
    entries.last().map(|e| cursor::of_time(e.task.updated_at, &e.task.id))
}

/// Every tag of the tasks of `school_id` that `user_id` owns or is a collaborator on
/// (whatever the filters), one spelling each (the first met, by lower case), in name order:
/// the choices of the Tasks page's and the report generator's Tag filter.
pub(crate) async fn all_tags(conn: &mut DbConn<'_>, user_id: &str, school_id: &str) -> RpcResult<Vec<String>> {
    let mut all = BTreeMap::new();
    for stored in task_submissions::tags_of_tasks(conn, user_id, school_id).await? {
        for tag in tags_of(&stored) {
            all.entry(tag.to_lowercase()).or_insert(tag);
        }
    }
    Ok(all.into_values().collect())
}
