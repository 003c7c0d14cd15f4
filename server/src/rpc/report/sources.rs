//! `report.sources`: what a report can be written from, for the picker's first screen. Tasks
//! the caller may access (their own and those shared with them), filtered by a search on the
//! title, a date range (`from`/`to`, `yyyy-MM-dd`, both included; a task's date is when it
//! was submitted, else when it last changed) and a tag; every tag of those tasks; and the
//! caller's voice notes, each saying whether it has a transcript (one without cannot be
//! chosen yet). Both lists come a page at a time after a stable cursor (docs/scaling.md
//! "Paged lists"): this answers the first page of each with its total and where it goes on
//! (`tasksNext`, `voiceNotesNext`); `report.sourcesMore` answers the pages after.
//!
//! The tasks are the Tasks page's statement (`task_submissions::list_page`): most recently
//! changed first, then by id, as the picker listed them before it was paged. The voice notes
//! are newest first, then by id (`reports::voice_notes_page`); the search, dates and tag
//! narrow the tasks only.

use chrono::NaiveDate;
use core_wasm::limits::{text_error, MAX_TITLE_CHARS};
use serde::Deserialize;

use crate::models::reports::{self, VoiceNoteText};
use crate::models::task_submissions::{self, TaskFilter, TaskListEntry};
use crate::rpc::superjson::JsDate;
use crate::rpc::task::list::{all_tags, next_page};
use crate::rpc::task::tags_of;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{cursor, Ctx, FieldErrors, RpcResult};

/// Tasks per page: one line each in a box that scrolls; a leader has about 20 (the
/// thousand-school data), so nearly everyone sees all of theirs at once, as on the Tasks page.
pub const TASK_PAGE: i64 = 50;
/// Voice notes per page: each shows the first words of its transcript; as the voice notes
/// page.
pub const VOICE_NOTE_PAGE: i64 = 20;

/// `{search?, from?, to?, tag?}`; `undefined` lists everything.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportSourcesInput {
    pub search: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub tag: Option<String>,
}

impl Ts for ReportSourcesInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ReportSourcesInput", |gen| {
            vec![
                ("search?".into(), Option::<String>::ts(gen)),
                ("from?".into(), Option::<String>::ts(gen)),
                ("to?".into(), Option::<String>::ts(gen)),
                ("tag?".into(), Option::<String>::ts(gen)),
            ]
        });
        "ReportSourcesInput".into()
    }
}

impl ReportSourcesInput {
    /// The task filters, checked: each problem a field error in the app's words (the first
    /// page and the pages after check them alike).
    pub(crate) fn filter(&self) -> RpcResult<TaskFilter> {
        let mut fields = FieldErrors::default();
        let from = date(&mut fields, "from", self.from.as_deref());
        let to = date(&mut fields, "to", self.to.as_deref());
        if let (Some(from), Some(to)) = (from, to) {
            if to < from {
                fields.add("to", "The end date must not be before the start date.");
            }
        }
        for (name, value) in [("search", &self.search), ("tag", &self.tag)] {
            if let Some(message) = value
                .as_deref()
                .and_then(|v| text_error(v, MAX_TITLE_CHARS))
            {
                fields.add(name, message);
            }
        }
        fields.into_result()?;
        Ok(TaskFilter {
            search: self.search.clone(),
            tag: self.tag.clone(),
            draft: None,
            from: from.and_then(|d| d.and_hms_opt(0, 0, 0)),
            until: to
                .and_then(|d| d.succ_opt())
                .and_then(|d| d.and_hms_opt(0, 0, 0)),
        })
    }
}

rpc_type! {
    pub struct SourceTask {
        pub id: String,
        pub title: String,
        pub tags: Vec<String>,
        pub draft: bool,
        /// When it was submitted, else when it last changed.
        pub date: JsDate,
    }
}

rpc_type! {
    pub struct SourceVoiceNote {
        pub id: String,
        pub filename: String,
        pub created_at: JsDate,
        pub has_transcript: bool,
        /// The first words of the transcript.
        pub preview: Option<String>,
    }
}

rpc_type! {
    pub struct ReportSources {
        /// The first page of the tasks the filters keep.
        pub tasks: Vec<SourceTask>,
        /// Every task the filters keep.
        pub tasks_total: i64,
        /// Where the tasks' next page starts (`report.sourcesMore`); none when all are listed.
        pub tasks_next: Option<String>,
        /// Every tag of the caller's tasks (whatever the filters), by name, one spelling each.
        pub tags: Vec<String>,
        /// The first page of the caller's voice notes.
        pub voice_notes: Vec<SourceVoiceNote>,
        pub voice_notes_total: i64,
        /// Where the voice notes' next page starts; none when all are listed.
        pub voice_notes_next: Option<String>,
    }
}

fn date(fields: &mut FieldErrors, name: &str, value: Option<&str>) -> Option<NaiveDate> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    match NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        Ok(date) => Some(date),
        Err(_) => {
            fields.add(name, "Enter a date.");
            None
        }
    }
}

pub async fn handler(ctx: &Ctx, input: Option<ReportSourcesInput>) -> RpcResult<ReportSources> {
    let author = super::author(ctx)?;
    let filter = input.unwrap_or_default().filter()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    // One more than a page tells whether another follows.
    let (mut tasks, tasks_total) = task_submissions::list_page(
        &mut conn,
        author.user_id,
        author.school_id,
        &filter,
        None,
        TASK_PAGE + 1,
    )
    .await?;
    let tasks_next = next_page(&mut tasks, TASK_PAGE);
    let tags = all_tags(&mut conn, author.user_id, author.school_id).await?;
    let (mut notes, voice_notes_total) =
        reports::voice_notes_page(&mut conn, author, None, VOICE_NOTE_PAGE + 1).await?;
    let voice_notes_next = next_note(&mut notes, VOICE_NOTE_PAGE);
    Ok(ReportSources {
        tasks: tasks.into_iter().map(source_task).collect(),
        tasks_total,
        tasks_next,
        tags,
        voice_notes: notes.into_iter().map(source_note).collect(),
        voice_notes_total,
        voice_notes_next,
    })
}

/// Cuts `notes` (read one past `page`) to the page; answers the cursor after its last note
/// when more follow.
pub(crate) fn next_note(notes: &mut Vec<VoiceNoteText>, page: i64) -> Option<String> {
    if notes.len() as i64 <= page {
        return None;
    }
    notes.truncate(page as usize);
    notes.last().map(|n| cursor::of_time(n.created_at, &n.id))
}

/// A task as the picker lists it.
pub(crate) fn source_task(entry: TaskListEntry) -> SourceTask {
    let task = entry.task;
    SourceTask {
        tags: tags_of(&task.tags),
        date: task.submitted_at.unwrap_or(task.updated_at).into(),
        id: task.id,
        title: task.title,
        draft: task.draft,
    }
}

/// A voice note as the picker lists it.
pub(crate) fn source_note(note: VoiceNoteText) -> SourceVoiceNote {
    SourceVoiceNote {
        has_transcript: note.transcript.is_some(),
        preview: note.transcript.map(|t| preview(&t)),
        id: note.id,
        filename: note.filename,
        created_at: note.created_at.into(),
    }
}

/// The first 160 characters of `text`, with an ellipsis when there is more.
fn preview(text: &str) -> String {
    let text = text.trim();
    let mut out: String = text.chars().take(160).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}
