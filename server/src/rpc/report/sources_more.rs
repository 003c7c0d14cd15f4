//! `report.sourcesMore`: the report generator's next page of one of its pickers after the
//! cursor the page before ended with (`tasksNext` / `voiceNotesNext` of `report.sources`,
//! or `nextCursor` of this): 50 tasks under the same filters, or 20 voice notes, in the same
//! order and scope (docs/scaling.md "Paged lists"). Only the rows: the totals and the tags
//! come with the first page.

use serde::{Deserialize, Serialize};

use crate::models::reports;
use crate::models::task_submissions;
use crate::rpc::report::sources::{
    next_note, source_note, source_task, ReportSourcesInput, SourceTask, SourceVoiceNote, TASK_PAGE,
    VOICE_NOTE_PAGE,
};
use crate::rpc::task::list::next_page;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{cursor, Ctx, RpcResult};

/// Which of the pickers' lists: `'TASKS' | 'VOICE_NOTES'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SourceList {
    Tasks,
    VoiceNotes,
}

impl Ts for SourceList {
    fn ts(_: &mut TsGen) -> String {
        "'TASKS' | 'VOICE_NOTES'".to_owned()
    }
}

/// `{list, cursor, search?, from?, to?, tag?}`: the filters as `report.sources` took them
/// (they narrow the tasks only).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportSourcesMoreInput {
    pub list: SourceList,
    /// Where the page starts: the cursor the page before ended with.
    pub cursor: String,
    #[serde(flatten)]
    pub filters: ReportSourcesInput,
}

impl Ts for ReportSourcesMoreInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ReportSourcesMoreInput", |gen| {
            vec![
                ("list".into(), SourceList::ts(gen)),
                ("cursor".into(), String::ts(gen)),
                ("search?".into(), Option::<String>::ts(gen)),
                ("from?".into(), Option::<String>::ts(gen)),
                ("to?".into(), Option::<String>::ts(gen)),
                ("tag?".into(), Option::<String>::ts(gen)),
            ]
        });
        "ReportSourcesMoreInput".into()
    }
}

rpc_type! {
    /// One more page of one list (the other is empty).
    pub struct ReportSourcesPage {
        pub tasks: Vec<SourceTask>,
        pub voice_notes: Vec<SourceVoiceNote>,
        /// Where the page after this one starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: ReportSourcesMoreInput) -> RpcResult<ReportSourcesPage> {
    let author = super::author(ctx)?;
    let filter = input.filters.filter()?;
    let Some(key) = cursor::time_key("cursor", Some(&input.cursor))? else {
        return Err(cursor::refused("cursor"));
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    match input.list {
        SourceList::Tasks => {
            let (mut tasks, _) = task_submissions::list_page(
                &mut conn,
                author.user_id,
                author.school_id,
                &filter,
                Some(&key),
                TASK_PAGE + 1,
            )
            .await?;
            let next_cursor = next_page(&mut tasks, TASK_PAGE);
            Ok(ReportSourcesPage {
                tasks: tasks.into_iter().map(source_task).collect(),
                voice_notes: Vec::new(),
                next_cursor,
            })
        }
        SourceList::VoiceNotes => {
            let (mut notes, _) =
                reports::voice_notes_page(&mut conn, author, Some(&key), VOICE_NOTE_PAGE + 1).await?;
            let next_cursor = next_note(&mut notes, VOICE_NOTE_PAGE);
            Ok(ReportSourcesPage {
                tasks: Vec::new(),
                voice_notes: notes.into_iter().map(source_note).collect(),
                next_cursor,
            })
        }
    }
}
