//! A task's content (`task_items`): files, voice notes, photo notes and recordings added to
//! a task, each with its processing `status`; and the text read from them
//! (`resource_transcripts`, keyed by the stored file's key). Callers check the task's
//! access first (`task_submissions::access`); every lookup here is scoped by the task.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{resource_transcripts, stored_files, task_items};
use crate::db::DbConn;
use crate::with_conn;

/// `task_items.kind`.
pub const FILE: &str = "FILE";
pub const VOICE_NOTE: &str = "VOICE_NOTE";
pub const PHOTO_NOTES: &str = "PHOTO_NOTES";
pub const RECORDING: &str = "RECORDING";

/// `task_items.status`.
pub const QUEUED: &str = "QUEUED";
pub const PROCESSING: &str = "PROCESSING";
pub const READY: &str = "READY";
pub const FAILED: &str = "FAILED";

/// The longest text kept for one item, in characters.
pub const MAX_TEXT_CHARS: usize = 200_000;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = task_items)]
pub struct TaskItem {
    pub id: String,
    pub submission_id: String,
    pub user_id: String,
    pub kind: String,
    pub file_id: Option<String>,
    pub name: String,
    pub content_type: Option<String>,
    pub notes: Option<String>,
    pub status: String,
    pub error: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// The stored file behind an item, as the list and the job need it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = stored_files)]
pub struct ItemFile {
    pub id: String,
    pub key: String,
    pub filename: String,
    pub content_type: String,
    pub size_bytes: Option<i64>,
    pub uploaded_at: Option<NaiveDateTime>,
}

pub async fn insert(conn: &mut DbConn<'_>, item: &TaskItem) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(task_items::table)
        .values(item)
        .execute(c)
        .await)?;
    Ok(())
}

/// The task's items with their files, oldest first.
pub async fn of_task(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> QueryResult<Vec<(TaskItem, Option<ItemFile>)>> {
    with_conn!(conn, |c| task_items::table
        .left_join(stored_files::table)
        .filter(task_items::submission_id.eq(submission_id))
        .order((task_items::created_at.asc(), task_items::id.asc()))
        .select((TaskItem::as_select(), Option::<ItemFile>::as_select()))
        .load(c)
        .await)
}

/// The item `id` of task `submission_id`, with its file.
pub async fn find(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    id: &str,
) -> QueryResult<Option<(TaskItem, Option<ItemFile>)>> {
    with_conn!(conn, |c| task_items::table
        .left_join(stored_files::table)
        .filter(task_items::submission_id.eq(submission_id))
        .filter(task_items::id.eq(id))
        .select((TaskItem::as_select(), Option::<ItemFile>::as_select()))
        .first(c)
        .await
        .optional())
}

/// The item `id` whatever its task (the processing job's lookup).
pub async fn find_any(
    conn: &mut DbConn<'_>,
    id: &str,
) -> QueryResult<Option<(TaskItem, Option<ItemFile>)>> {
    with_conn!(conn, |c| task_items::table
        .left_join(stored_files::table)
        .filter(task_items::id.eq(id))
        .select((TaskItem::as_select(), Option::<ItemFile>::as_select()))
        .first(c)
        .await
        .optional())
}

/// The item of task `submission_id` whose file is at `key`.
pub async fn find_by_key(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    key: &str,
) -> QueryResult<Option<(TaskItem, Option<ItemFile>)>> {
    with_conn!(conn, |c| task_items::table
        .inner_join(stored_files::table)
        .filter(task_items::submission_id.eq(submission_id))
        .filter(stored_files::key.eq(key))
        .select((TaskItem::as_select(), Option::<ItemFile>::as_select()))
        .first(c)
        .await
        .optional())
}

/// The queued items whose file is `file_id` (its bytes just arrived).
pub async fn queued_for_file(
    conn: &mut DbConn<'_>,
    file_id: &str,
) -> QueryResult<Vec<(String, NaiveDateTime)>> {
    with_conn!(conn, |c| task_items::table
        .filter(task_items::file_id.eq(file_id))
        .filter(task_items::status.eq(QUEUED))
        .select((task_items::id, task_items::updated_at))
        .load(c)
        .await)
}

/// Which of `file_ids` are already items of the task.
pub async fn files_in_task(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    file_ids: &[String],
) -> QueryResult<Vec<String>> {
    let found: Vec<Option<String>> = with_conn!(conn, |c| task_items::table
        .filter(task_items::submission_id.eq(submission_id))
        .filter(task_items::file_id.eq_any(file_ids))
        .select(task_items::file_id)
        .load(c)
        .await)?;
    Ok(found.into_iter().flatten().collect())
}

/// Moves a queued (or, after a crash, still processing) item to PROCESSING; `false` when
/// it is in neither state (removed, already done, or made ready by its recording).
pub async fn start(conn: &mut DbConn<'_>, id: &str, at: NaiveDateTime) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(
        task_items::table
            .find(id)
            .filter(task_items::status.eq_any([QUEUED, PROCESSING]))
    )
    .set((
        task_items::status.eq(PROCESSING),
        task_items::error.eq(None::<String>),
        task_items::updated_at.eq(at)
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Ends processing: READY (`error` None) or FAILED with the reason. Only an item still
/// PROCESSING changes.
pub async fn finish(
    conn: &mut DbConn<'_>,
    id: &str,
    error: Option<&str>,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let status = if error.is_some() { FAILED } else { READY };
    let n = with_conn!(conn, |c| diesel::update(
        task_items::table
            .find(id)
            .filter(task_items::status.eq(PROCESSING))
    )
    .set((
        task_items::status.eq(status),
        task_items::error.eq(error),
        task_items::updated_at.eq(at)
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Puts a failed item back in the queue; `false` when it had not failed.
pub async fn requeue(conn: &mut DbConn<'_>, id: &str, at: NaiveDateTime) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(
        task_items::table
            .find(id)
            .filter(task_items::status.eq(FAILED))
    )
    .set((
        task_items::status.eq(QUEUED),
        task_items::error.eq(None::<String>),
        task_items::updated_at.eq(at)
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Makes an uploaded file a recording; READY at once when its transcript came with it.
pub async fn make_recording(
    conn: &mut DbConn<'_>,
    id: &str,
    ready: bool,
    at: NaiveDateTime,
) -> QueryResult<()> {
    if ready {
        with_conn!(conn, |c| diesel::update(task_items::table.find(id))
            .set((
                task_items::kind.eq(RECORDING),
                task_items::status.eq(READY),
                task_items::error.eq(None::<String>),
                task_items::updated_at.eq(at)
            ))
            .execute(c)
            .await)?;
    } else {
        with_conn!(conn, |c| diesel::update(task_items::table.find(id))
            .set((
                task_items::kind.eq(RECORDING),
                task_items::updated_at.eq(at)
            ))
            .execute(c)
            .await)?;
    }
    Ok(())
}

pub async fn delete(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(task_items::table.find(id))
        .execute(c)
        .await)?;
    Ok(())
}

/// The texts stored for `keys`, as (key, text).
pub async fn transcripts(
    conn: &mut DbConn<'_>,
    keys: &[String],
) -> QueryResult<Vec<(String, String)>> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    with_conn!(conn, |c| resource_transcripts::table
        .filter(resource_transcripts::key.eq_any(keys))
        .select((resource_transcripts::key, resource_transcripts::transcript))
        .load(c)
        .await)
}

/// Stores (or replaces) the text of the file at `key`, cut to [`MAX_TEXT_CHARS`].
pub async fn save_transcript(
    conn: &mut DbConn<'_>,
    key: &str,
    text: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    let text = cap(text);
    let n = with_conn!(conn, |c| diesel::update(resource_transcripts::table.find(key))
        .set((
            resource_transcripts::transcript.eq(&text),
            resource_transcripts::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    if n == 0 {
        with_conn!(conn, |c| diesel::insert_into(resource_transcripts::table)
            .values((
                resource_transcripts::key.eq(key),
                resource_transcripts::transcript.eq(&text),
                resource_transcripts::created_at.eq(at),
                resource_transcripts::updated_at.eq(at)
            ))
            .execute(c)
            .await)?;
    }
    Ok(())
}

pub async fn delete_transcript(conn: &mut DbConn<'_>, key: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(resource_transcripts::table.find(key))
        .execute(c)
        .await)?;
    Ok(())
}

/// `text` cut to [`MAX_TEXT_CHARS`] characters.
pub fn cap(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((at, _)) => text[..at].to_owned(),
        None => text.to_owned(),
    }
}
