//! What the AI may read about a task: its template (for the questions), its content items
//! that are READY with their text (photo notes, and the transcript or extracted text of a
//! file, voice note or recording) and its current answers. Never the files themselves.
//! Access is checked by the caller (`task_submissions::access`).

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{question_responses, resource_transcripts, stored_files, task_items, task_submissions};
use crate::db::DbConn;
use crate::with_conn;

/// One READY content item and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentItem {
    /// `FILE`, `VOICE_NOTE`, `PHOTO_NOTES` or `RECORDING`.
    pub kind: String,
    pub name: String,
    /// The notes typed about photos (or any item).
    pub notes: Option<String>,
    /// The transcript of audio or video, or the text extracted from a document.
    pub transcript: Option<String>,
}

/// A task as the AI reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskContext {
    /// The template (`tasks.id`) whose questions the task answers.
    pub template_id: String,
    pub title: String,
    /// The READY items, oldest first.
    pub items: Vec<ContentItem>,
    /// `(question id, answer)` of the answers saved so far.
    pub answers: Vec<(String, String)>,
}

/// The task `submission_id`'s context, or `None` when there is no such task.
pub async fn of_task(conn: &mut DbConn<'_>, submission_id: &str) -> QueryResult<Option<TaskContext>> {
    let task: Option<(String, String)> = with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::id.eq(submission_id))
        .select((task_submissions::task_id, task_submissions::title))
        .first(c)
        .await
        .optional())?;
    let Some((template_id, title)) = task else {
        return Ok(None);
    };
    type Row = (String, String, Option<String>, Option<String>);
    let rows: Vec<Row> = with_conn!(conn, |c| task_items::table
        .left_join(stored_files::table)
        .left_join(
            resource_transcripts::table.on(resource_transcripts::key.nullable().eq(stored_files::key.nullable())),
        )
        .filter(task_items::submission_id.eq(submission_id))
        .filter(task_items::status.eq("READY"))
        .order((task_items::created_at.asc(), task_items::id.asc()))
        .select((
            task_items::kind,
            task_items::name,
            task_items::notes,
            resource_transcripts::transcript.nullable(),
        ))
        .load(c)
        .await)?;
    let items = rows
        .into_iter()
        .map(|(kind, name, notes, transcript)| ContentItem { kind, name, notes, transcript })
        .collect();
    let answers: Vec<(String, String)> = with_conn!(conn, |c| question_responses::table
        .filter(question_responses::submission_id.eq(submission_id))
        .select((question_responses::question_id, question_responses::answer))
        .load(c)
        .await)?;
    Ok(Some(TaskContext { template_id, title, items, answers }))
}
