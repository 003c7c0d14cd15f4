//! Reports (`reports`) and what they are written from. A report belongs to its school AND
//! its author: every read and write is scoped by both, so another user's id is simply not
//! found. The sources are the tasks the caller may access (owner or collaborator, as
//! `task_submissions::access` reads it) with their answers and content texts, and the
//! caller's own voice notes with their transcripts (docs/leaders.md, "Report generator").
//! The picker pages the tasks as the Tasks page does (`task_submissions::list_page`) and the
//! voice notes here ([`voice_notes_page`]).

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{
    question_responses, questions, reports, resource_transcripts, stored_files, task_collaborators,
    task_items, task_submissions,
};
use crate::db::DbConn;
use crate::models::stored_files::FileKind;
use crate::models::TimeKey;
use crate::{before_time, with_conn};

/// One saved report.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub struct Report {
    pub id: String,
    pub title: String,
    pub instructions: String,
    pub body: String,
    /// JSON array of task ids.
    pub task_ids: String,
    /// JSON array of voice note (stored file) ids.
    pub voice_note_ids: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A report as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub struct ReportSummary {
    pub id: String,
    pub title: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// What a save writes (ids as JSON text).
#[derive(Debug, Clone)]
pub struct ReportFields<'a> {
    pub title: &'a str,
    pub instructions: &'a str,
    pub body: &'a str,
    pub task_ids: &'a str,
    pub voice_note_ids: &'a str,
}

/// Who is asking: the author's school and id.
#[derive(Debug, Clone, Copy)]
pub struct Author<'a> {
    pub school_id: &'a str,
    pub user_id: &'a str,
}

pub async fn insert(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    id: &str,
    fields: &ReportFields<'_>,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(reports::table)
        .values((
            reports::id.eq(id),
            reports::school_id.eq(author.school_id),
            reports::user_id.eq(author.user_id),
            reports::title.eq(fields.title),
            reports::instructions.eq(fields.instructions),
            reports::body.eq(fields.body),
            reports::task_ids.eq(fields.task_ids),
            reports::voice_note_ids.eq(fields.voice_note_ids),
            reports::created_at.eq(at),
            reports::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Rewrites the author's report `id`; `false` when they have none by that id.
pub async fn update(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    id: &str,
    fields: &ReportFields<'_>,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(
        reports::table
            .filter(reports::id.eq(id))
            .filter(reports::school_id.eq(author.school_id))
            .filter(reports::user_id.eq(author.user_id))
    )
    .set((
        reports::title.eq(fields.title),
        reports::instructions.eq(fields.instructions),
        reports::body.eq(fields.body),
        reports::task_ids.eq(fields.task_ids),
        reports::voice_note_ids.eq(fields.voice_note_ids),
        reports::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// A page of the author's reports, most recently changed first (then by id): at most
/// `limit` after `after` (from the newest without); and how many they have in all.
pub async fn list_page(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    after: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<(Vec<ReportSummary>, i64)> {
    macro_rules! own {
        () => {
            reports::table
                .filter(reports::school_id.eq(author.school_id))
                .filter(reports::user_id.eq(author.user_id))
                .into_boxed()
        };
    }
    let rows: Vec<ReportSummary> = with_conn!(conn, |c| {
        let mut query = own!();
        if let Some(key) = after {
            query = query.filter(before_time!(reports::updated_at, reports::id, key));
        }
        query
            .order((reports::updated_at.desc(), reports::id.desc()))
            .limit(limit)
            .select(ReportSummary::as_select())
            .load(c)
            .await
    })?;
    let total = match crate::models::total_of_first_page(after.is_none(), rows.len(), limit) {
        Some(total) => total,
        None => with_conn!(conn, |c| own!().count().get_result(c).await)?,
    };
    Ok((rows, total))
}

/// The author's report `id`, or `None` (also for anyone else's).
pub async fn find(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    id: &str,
) -> QueryResult<Option<Report>> {
    with_conn!(conn, |c| reports::table
        .filter(reports::id.eq(id))
        .filter(reports::school_id.eq(author.school_id))
        .filter(reports::user_id.eq(author.user_id))
        .select(Report::as_select())
        .first(c)
        .await
        .optional())
}

/// Deletes the author's report `id`; `false` when they have none by that id.
pub async fn delete(conn: &mut DbConn<'_>, author: Author<'_>, id: &str) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::delete(
        reports::table
            .filter(reports::id.eq(id))
            .filter(reports::school_id.eq(author.school_id))
            .filter(reports::user_id.eq(author.user_id))
    )
    .execute(c)
    .await)?;
    Ok(n == 1)
}

// ---------------------------------------------------------------------------------------
// Sources

/// Whether every one of `task_ids` is a task `author` may write a report from (their own or
/// shared with them, in their school) and every one of `voice_note_ids` is one of their own
/// voice notes that has arrived: `(tasks ok, voice notes ok)`. A save checks this so that a
/// report never stores another school's ids (issue 26), not only when it is generated.
pub async fn sources_in_scope(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    task_ids: &[String],
    voice_note_ids: &[String],
) -> QueryResult<(bool, bool)> {
    let tasks_ok = if task_ids.is_empty() {
        true
    } else {
        let shared: Vec<String> = with_conn!(conn, |c| task_collaborators::table
            .filter(task_collaborators::user_id.eq(author.user_id))
            .filter(task_collaborators::submission_id.eq_any(task_ids))
            .select(task_collaborators::submission_id)
            .load(c)
            .await)?;
        let found: i64 = with_conn!(conn, |c| task_submissions::table
            .filter(task_submissions::id.eq_any(task_ids))
            .filter(task_submissions::school_id.eq(author.school_id))
            .filter(
                task_submissions::user_id
                    .eq(author.user_id)
                    .or(task_submissions::id.eq_any(shared.clone())),
            )
            .count()
            .get_result(c)
            .await)?;
        found == task_ids.len() as i64
    };
    let notes_ok = if voice_note_ids.is_empty() {
        true
    } else {
        let found: i64 = with_conn!(conn, |c| stored_files::table
            .filter(stored_files::id.eq_any(voice_note_ids))
            .filter(stored_files::school_id.eq(author.school_id))
            .filter(stored_files::user_id.eq(author.user_id))
            .filter(stored_files::kind.eq(FileKind::VoiceNote.as_str()))
            .filter(stored_files::uploaded_at.is_not_null())
            .count()
            .get_result(c)
            .await)?;
        found == voice_note_ids.len() as i64
    };
    Ok((tasks_ok, notes_ok))
}

/// One task's text for the model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskText {
    pub id: String,
    pub title: String,
    pub tags: String,
    /// (question, answer) in question order; unanswered questions left out.
    pub answers: Vec<(String, String)>,
    /// (item name, text): photo notes and transcripts of READY content items.
    pub contents: Vec<(String, String)>,
}

/// The texts of the tasks `ids` in the given order, or `None` when any of them is not one
/// `author` may access (the caller answers NOT_FOUND).
pub async fn task_texts(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    ids: &[String],
) -> QueryResult<Option<Vec<TaskText>>> {
    let shared: Vec<String> = with_conn!(conn, |c| task_collaborators::table
        .filter(task_collaborators::user_id.eq(author.user_id))
        .filter(task_collaborators::submission_id.eq_any(ids))
        .select(task_collaborators::submission_id)
        .load(c)
        .await)?;
    let rows: Vec<(String, String, String)> = with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::id.eq_any(ids))
        .filter(task_submissions::school_id.eq(author.school_id))
        .filter(
            task_submissions::user_id
                .eq(author.user_id)
                .or(task_submissions::id.eq_any(shared.clone())),
        )
        .select((
            task_submissions::id,
            task_submissions::title,
            task_submissions::tags
        ))
        .load(c)
        .await)?;
    let mut by_id: HashMap<String, TaskText> = rows
        .into_iter()
        .map(|(id, title, tags)| {
            (
                id.clone(),
                TaskText {
                    id,
                    title,
                    tags,
                    ..TaskText::default()
                },
            )
        })
        .collect();
    if ids.iter().any(|id| !by_id.contains_key(id)) {
        return Ok(None);
    }
    let answers: Vec<(String, String, String)> = with_conn!(conn, |c| question_responses::table
        .inner_join(questions::table)
        .filter(question_responses::submission_id.eq_any(ids))
        .order((
            question_responses::submission_id,
            questions::position,
            questions::id
        ))
        .select((
            question_responses::submission_id,
            questions::text,
            question_responses::answer
        ))
        .load(c)
        .await)?;
    for (task, question, answer) in answers {
        if answer.trim().is_empty() {
            continue;
        }
        if let Some(text) = by_id.get_mut(&task) {
            text.answers.push((question, answer));
        }
    }
    let items: Vec<(String, String, Option<String>, Option<String>)> =
        with_conn!(conn, |c| task_items::table
            .left_join(stored_files::table)
            .filter(task_items::submission_id.eq_any(ids))
            .filter(task_items::status.eq("READY"))
            .order((
                task_items::submission_id,
                task_items::created_at,
                task_items::id
            ))
            .select((
                task_items::submission_id,
                task_items::name,
                task_items::notes,
                stored_files::key.nullable(),
            ))
            .load(c)
            .await)?;
    let keys: Vec<String> = items.iter().filter_map(|i| i.3.clone()).collect();
    let transcripts = transcripts_of(conn, &keys).await?;
    for (task, name, notes, key) in items {
        let mut text = notes.unwrap_or_default();
        if let Some(transcript) = key.as_ref().and_then(|k| transcripts.get(k)) {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(transcript);
        }
        if text.trim().is_empty() {
            continue;
        }
        if let Some(task) = by_id.get_mut(&task) {
            task.contents.push((name, text));
        }
    }
    Ok(Some(ids.iter().filter_map(|id| by_id.remove(id)).collect()))
}

/// The transcripts of the stored files at `keys`, by key.
async fn transcripts_of(
    conn: &mut DbConn<'_>,
    keys: &[String],
) -> QueryResult<HashMap<String, String>> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(String, String)> = with_conn!(conn, |c| resource_transcripts::table
        .filter(resource_transcripts::key.eq_any(keys))
        .select((resource_transcripts::key, resource_transcripts::transcript))
        .load(c)
        .await)?;
    Ok(rows.into_iter().collect())
}

/// One of the caller's voice notes, with its transcript when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoiceNoteText {
    pub id: String,
    pub filename: String,
    pub created_at: NaiveDateTime,
    pub transcript: Option<String>,
}

/// `author`'s voice notes that have arrived (scoped by school, owner and kind), for the
/// picker's pages and for generation. A macro since a boxed query cannot be cloned.
macro_rules! arrived_notes {
    ($author:expr) => {
        stored_files::table
            .filter(stored_files::school_id.eq($author.school_id))
            .filter(stored_files::user_id.eq($author.user_id))
            .filter(stored_files::kind.eq(FileKind::VoiceNote.as_str()))
            .filter(stored_files::uploaded_at.is_not_null())
            .into_boxed()
    };
}

/// The voice notes `ids` of `author`'s that have arrived (any other id is left out), newest
/// first, with their transcripts.
pub async fn voice_note_texts(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    ids: &[String],
) -> QueryResult<Vec<VoiceNoteText>> {
    let rows: Vec<NoteRow> = with_conn!(conn, |c| arrived_notes!(author)
        .filter(stored_files::id.eq_any(ids))
        .order((stored_files::created_at.desc(), stored_files::id.desc()))
        .select(NOTE_COLUMNS)
        .load(c)
        .await)?;
    with_transcripts(conn, rows).await
}

/// A page of `author`'s voice notes that have arrived, newest first (then by id): at most
/// `limit` after `after` (from the newest without), with their transcripts; and how many
/// they have in all. Each page is one range read of `stored_files (user_id, kind,
/// created_at, id)`, as the voice notes page's.
pub async fn voice_notes_page(
    conn: &mut DbConn<'_>,
    author: Author<'_>,
    after: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<(Vec<VoiceNoteText>, i64)> {
    let total: i64 = with_conn!(conn, |c| arrived_notes!(author).count().get_result(c).await)?;
    let rows: Vec<NoteRow> = with_conn!(conn, |c| {
        let mut query = arrived_notes!(author);
        if let Some(key) = after {
            query = query.filter(before_time!(stored_files::created_at, stored_files::id, key));
        }
        query
            .order((stored_files::created_at.desc(), stored_files::id.desc()))
            .limit(limit)
            .select(NOTE_COLUMNS)
            .load(c)
            .await
    })?;
    Ok((with_transcripts(conn, rows).await?, total))
}

/// (id, key, filename, created_at) of a voice note.
type NoteRow = (String, String, String, NaiveDateTime);

const NOTE_COLUMNS: (stored_files::id, stored_files::key, stored_files::filename, stored_files::created_at) = (
    stored_files::id,
    stored_files::key,
    stored_files::filename,
    stored_files::created_at,
);

/// `rows` with their transcripts (a blank one reads as none), in the same order.
async fn with_transcripts(conn: &mut DbConn<'_>, rows: Vec<NoteRow>) -> QueryResult<Vec<VoiceNoteText>> {
    let keys: Vec<String> = rows.iter().map(|r| r.1.clone()).collect();
    let mut transcripts = transcripts_of(conn, &keys).await?;
    Ok(rows
        .into_iter()
        .map(|(id, key, filename, created_at)| VoiceNoteText {
            id,
            filename,
            created_at,
            transcript: transcripts.remove(&key).filter(|t| !t.trim().is_empty()),
        })
        .collect())
}
