//! `stored_files`: one row per object in the store. Direct uploads and voice notes get
//! theirs when the signed upload URL is handed out (`uploaded_at` NULL until the bytes
//! arrive), pupils' submission files once their bytes are stored. Every lookup for a user
//! is scoped by school and owner; submission files by their submission.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{stored_files, task_items, tasks};
use crate::db::DbConn;
use crate::models::TimeKey;
use crate::{before_time, with_conn};

/// `stored_files.kind` of direct uploads and voice notes (submission files are found by
/// their `submission_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `user.uploadFile`: expires after `VOICEMARK_UPLOAD_TTL_HOURS`.
    Upload,
    /// `leader.uploadVoiceNote`: kept until deleted.
    VoiceNote,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Upload => "UPLOAD",
            FileKind::VoiceNote => "VOICE_NOTE",
        }
    }

    /// The key segment: `{school}/{segment}/{random}/{name}`.
    pub fn key_segment(self) -> &'static str {
        match self {
            FileKind::Upload => "uploads",
            FileKind::VoiceNote => "voice-notes",
        }
    }
}

/// A stored file as the upload and listing code reads it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = stored_files)]
pub struct StoredFile {
    pub id: String,
    pub key: String,
    pub school_id: Option<String>,
    pub user_id: Option<String>,
    pub kind: String,
    pub filename: String,
    pub content_type: String,
    /// The size declared when the upload was signed; the upload must match it.
    pub size_bytes: Option<i64>,
    pub uploaded_at: Option<NaiveDateTime>,
    pub in_personal_folder: bool,
    pub expires_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = stored_files)]
pub struct NewStoredFile {
    pub id: String,
    pub key: String,
    pub school_id: Option<String>,
    pub user_id: Option<String>,
    pub task_id: Option<String>,
    pub kind: String,
    pub filename: String,
    pub content_type: String,
    pub size_bytes: Option<i64>,
    pub in_personal_folder: bool,
    pub expires_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: Option<NaiveDateTime>,
}

pub async fn insert(conn: &mut DbConn<'_>, file: &NewStoredFile) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(stored_files::table)
        .values(file)
        .execute(c)
        .await)?;
    Ok(())
}

/// Whether task `task_id` belongs to school `school_id`.
pub async fn task_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    task_id: &str,
) -> QueryResult<bool> {
    let found: Option<String> = with_conn!(conn, |c| tasks::table
        .filter(tasks::id.eq(task_id))
        .filter(tasks::school_id.eq(school_id))
        .select(tasks::id)
        .first(c)
        .await
        .optional())?;
    Ok(found.is_some())
}

/// The direct upload or voice note at `key` (the signed-URL endpoint's lookup; the
/// signature, not the caller, is the credential there).
pub async fn find_by_key(conn: &mut DbConn<'_>, key: &str) -> QueryResult<Option<StoredFile>> {
    with_conn!(conn, |c| stored_files::table
        .filter(stored_files::key.eq(key))
        .filter(
            stored_files::kind.eq_any([FileKind::Upload.as_str(), FileKind::VoiceNote.as_str()])
        )
        .select(StoredFile::as_select())
        .first(c)
        .await
        .optional())
}

/// Whose file, of which kind: every user-facing lookup goes through this.
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    pub school_id: &'a str,
    pub user_id: &'a str,
    pub kind: FileKind,
}

/// The owner's file with `id`, or `None` (also when it is someone else's).
pub async fn find_owned(
    conn: &mut DbConn<'_>,
    owner: Owner<'_>,
    id: &str,
) -> QueryResult<Option<StoredFile>> {
    with_conn!(conn, |c| stored_files::table
        .filter(stored_files::id.eq(id))
        .filter(stored_files::school_id.eq(owner.school_id))
        .filter(stored_files::user_id.eq(owner.user_id))
        .filter(stored_files::kind.eq(owner.kind.as_str()))
        .select(StoredFile::as_select())
        .first(c)
        .await
        .optional())
}

/// The owner's file at `key`, or `None` (also when it is someone else's).
pub async fn find_owned_by_key(
    conn: &mut DbConn<'_>,
    owner: Owner<'_>,
    key: &str,
) -> QueryResult<Option<StoredFile>> {
    with_conn!(conn, |c| stored_files::table
        .filter(stored_files::key.eq(key))
        .filter(stored_files::school_id.eq(owner.school_id))
        .filter(stored_files::user_id.eq(owner.user_id))
        .filter(stored_files::kind.eq(owner.kind.as_str()))
        .select(StoredFile::as_select())
        .first(c)
        .await
        .optional())
}

/// A page of the owner's voice notes in their personal folder, newest first (then by id):
/// at most `limit` after `after` (from the newest without); and how many there are in all.
/// Each page is one range read of `stored_files (user_id, kind, created_at, id)`. The voice
/// notes page and the task's "Pull in voice notes" picker read it.
pub async fn personal_voice_notes_page(
    conn: &mut DbConn<'_>,
    school_id: &str,
    user_id: &str,
    after: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<(Vec<StoredFile>, i64)> {
    macro_rules! own {
        () => {
            stored_files::table
                .filter(stored_files::school_id.eq(school_id))
                .filter(stored_files::user_id.eq(user_id))
                .filter(stored_files::kind.eq(FileKind::VoiceNote.as_str()))
                .filter(stored_files::in_personal_folder.eq(true))
                .into_boxed()
        };
    }
    let total: i64 = with_conn!(conn, |c| own!().count().get_result(c).await)?;
    let rows: Vec<StoredFile> = with_conn!(conn, |c| {
        let mut query = own!();
        if let Some(key) = after {
            query = query.filter(before_time!(stored_files::created_at, stored_files::id, key));
        }
        query
            .order((stored_files::created_at.desc(), stored_files::id.desc()))
            .limit(limit)
            .select(StoredFile::as_select())
            .load(c)
            .await
    })?;
    Ok((rows, total))
}

/// The owner's uploads that have not expired at `at`, newest first (arrived or not).
/// Files added to a task (a `task_items` row names them) belong to the task, not here.
pub async fn live_uploads(
    conn: &mut DbConn<'_>,
    school_id: &str,
    user_id: &str,
    at: NaiveDateTime,
) -> QueryResult<Vec<StoredFile>> {
    with_conn!(conn, |c| stored_files::table
        .filter(stored_files::school_id.eq(school_id))
        .filter(stored_files::user_id.eq(user_id))
        .filter(stored_files::kind.eq(FileKind::Upload.as_str()))
        .filter(
            stored_files::expires_at
                .is_null()
                .or(stored_files::expires_at.gt(at))
        )
        .filter(diesel::dsl::not(diesel::dsl::exists(
            task_items::table.filter(task_items::file_id.eq(stored_files::id.nullable()))
        )))
        .order((stored_files::created_at.desc(), stored_files::id.desc()))
        .select(StoredFile::as_select())
        .load(c)
        .await)
}

/// Records that the bytes of `id` arrived (once: a second call changes nothing).
pub async fn mark_uploaded(
    conn: &mut DbConn<'_>,
    id: &str,
    size: u64,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(
        stored_files::table
            .find(id)
            .filter(stored_files::uploaded_at.is_null())
    )
    .set((
        stored_files::uploaded_at.eq(at),
        // The size that arrived: the declared one, or the real one when none was declared.
        stored_files::size_bytes.eq(size as i64),
        stored_files::updated_at.eq(at)
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Puts a voice note in its owner's personal folder (and records its arrival).
pub async fn move_to_personal_folder(
    conn: &mut DbConn<'_>,
    id: &str,
    size: u64,
    at: NaiveDateTime,
) -> QueryResult<()> {
    mark_uploaded(conn, id, size, at).await?;
    with_conn!(conn, |c| diesel::update(stored_files::table.find(id))
        .set((
            stored_files::in_personal_folder.eq(true),
            stored_files::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn rename(
    conn: &mut DbConn<'_>,
    id: &str,
    filename: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(stored_files::table.find(id))
        .set((
            stored_files::filename.eq(filename),
            stored_files::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// A file handed in with a submission.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = stored_files)]
pub struct SubmissionFile {
    pub id: String,
    pub key: String,
    pub filename: String,
    pub content_type: String,
    pub size_bytes: Option<i64>,
    pub uploaded_at: Option<NaiveDateTime>,
}

/// A file a pupil hands in, recorded once its bytes are stored.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = stored_files)]
pub struct NewSubmissionFile {
    pub id: String,
    pub key: String,
    pub school_id: Option<String>,
    pub submission_id: Option<String>,
    pub filename: String,
    pub content_type: String,
    pub size_bytes: Option<i64>,
    pub uploaded_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

/// The files of one submission, in upload order.
pub async fn of_submission(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> QueryResult<Vec<SubmissionFile>> {
    with_conn!(conn, |c| stored_files::table
        .filter(stored_files::submission_id.eq(submission_id))
        .order((stored_files::created_at.asc(), stored_files::id.asc()))
        .select(SubmissionFile::as_select())
        .load(c)
        .await)
}

/// The files of each of `submission_ids`, each submission's in order of storing: one
/// statement for a whole list (the Feedback Hub's 700 rows), not one per submission.
pub async fn of_submissions(
    conn: &mut DbConn<'_>,
    submission_ids: &[&str],
) -> QueryResult<HashMap<String, Vec<SubmissionFile>>> {
    let mut by: HashMap<String, Vec<SubmissionFile>> = HashMap::new();
    if submission_ids.is_empty() {
        return Ok(by);
    }
    let rows: Vec<(Option<String>, SubmissionFile)> = with_conn!(conn, |c| stored_files::table
        .filter(stored_files::submission_id.eq_any(submission_ids))
        .order((stored_files::created_at.asc(), stored_files::id.asc()))
        .select((stored_files::submission_id, SubmissionFile::as_select()))
        .load(c)
        .await)?;
    for (submission_id, file) in rows {
        if let Some(id) = submission_id {
            by.entry(id).or_default().push(file);
        }
    }
    Ok(by)
}

/// The bytes already stored for one submission.
pub async fn submission_bytes(conn: &mut DbConn<'_>, submission_id: &str) -> QueryResult<i64> {
    let sizes: Vec<Option<i64>> = with_conn!(conn, |c| stored_files::table
        .filter(stored_files::submission_id.eq(submission_id))
        .select(stored_files::size_bytes)
        .load(c)
        .await)?;
    Ok(sizes.into_iter().flatten().sum())
}

pub async fn insert_submission_file(
    conn: &mut DbConn<'_>,
    file: &NewSubmissionFile,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(stored_files::table)
        .values(file)
        .execute(c)
        .await)?;
    Ok(())
}

/// Deletes the rows `ids`; returns how many went.
pub async fn delete_rows(conn: &mut DbConn<'_>, ids: &[String]) -> QueryResult<usize> {
    if ids.is_empty() {
        return Ok(0);
    }
    with_conn!(conn, |c| diesel::delete(
        stored_files::table.filter(stored_files::id.eq_any(ids))
    )
    .execute(c)
    .await)
}

/// Up to `limit` files whose time is up at `at`: expired (`expires_at <= at`, any kind), or
/// direct uploads and voice notes whose bytes never arrived and that were signed before
/// `abandoned_before`.
pub async fn due_for_removal(
    conn: &mut DbConn<'_>,
    at: NaiveDateTime,
    abandoned_before: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<StoredFile>> {
    with_conn!(conn, |c| stored_files::table
        .filter(
            stored_files::expires_at.le(at).or(stored_files::uploaded_at
                .is_null()
                .and(stored_files::created_at.lt(abandoned_before))
                .and(
                    stored_files::kind
                        .eq_any([FileKind::Upload.as_str(), FileKind::VoiceNote.as_str()])
                )),
        )
        .order(stored_files::created_at.asc())
        .limit(limit)
        .select(StoredFile::as_select())
        .load(c)
        .await)
}

/// The next time something will be due: the earliest future `expires_at`, or the moment
/// the oldest pending upload is a day old. `None` when nothing waits.
pub async fn next_due(
    conn: &mut DbConn<'_>,
    at: NaiveDateTime,
    abandon_after: chrono::Duration,
) -> QueryResult<Option<NaiveDateTime>> {
    let expiry: Option<NaiveDateTime> = with_conn!(conn, |c| stored_files::table
        .filter(stored_files::expires_at.gt(at))
        .select(diesel::dsl::min(stored_files::expires_at))
        .first(c)
        .await)?;
    let pending: Option<NaiveDateTime> = with_conn!(conn, |c| stored_files::table
        .filter(stored_files::uploaded_at.is_null())
        .filter(
            stored_files::kind.eq_any([FileKind::Upload.as_str(), FileKind::VoiceNote.as_str()])
        )
        .select(diesel::dsl::min(stored_files::created_at))
        .first(c)
        .await)?;
    Ok([expiry, pending.map(|p| p + abandon_after)]
        .into_iter()
        .flatten()
        .min())
}
