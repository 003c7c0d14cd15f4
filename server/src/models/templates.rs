//! Templates (`tasks`) and their ordered questions (`questions`). Who may see a template is
//! decided here, once, for every read: PERSONAL its owner; SCHOOL everyone of its school;
//! MAT every school of its school's trust (its own school only when the school has no
//! trust). docs/leaders.md explains the model.

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{question_responses, questions, schools, task_submissions, tasks, users};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::now;
use crate::with_conn;

/// Who is looking: the only input the visibility rule needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    pub user_id: String,
    pub school_id: String,
    /// The trust of the viewer's school, if it belongs to one.
    pub trust_id: Option<String>,
}

impl Viewer {
    /// The viewer for `user_id` of `school_id`, with the school's trust looked up.
    pub async fn of(conn: &mut DbConn<'_>, user_id: &str, school_id: &str) -> QueryResult<Viewer> {
        let trust_id: Option<String> = with_conn!(conn, |c| schools::table
            .filter(schools::id.eq(school_id))
            .select(schools::trust_id)
            .first(c)
            .await
            .optional())?
        .flatten();
        Ok(Viewer {
            user_id: user_id.to_owned(),
            school_id: school_id.to_owned(),
            trust_id,
        })
    }
}

/// A template row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = tasks)]
pub struct TemplateRow {
    pub id: String,
    pub created_at: chrono::NaiveDateTime,
    pub updated_at: chrono::NaiveDateTime,
    pub title: String,
    pub visibility: String,
    /// A JSON array of strings.
    pub tags: String,
    pub user_id: String,
    pub school_id: String,
    pub archived_at: Option<chrono::NaiveDateTime>,
}

/// A question of a template, in its place.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = questions)]
pub struct QuestionRow {
    pub id: String,
    pub text: String,
    #[diesel(column_name = type_)]
    pub kind: String,
    pub required: bool,
    pub position: i32,
}

/// The ids of the schools whose MAT templates `viewer` sees: its trust's schools, or only
/// its own school.
pub async fn mat_school_ids(conn: &mut DbConn<'_>, viewer: &Viewer) -> QueryResult<Vec<String>> {
    match &viewer.trust_id {
        None => Ok(vec![viewer.school_id.clone()]),
        Some(trust_id) => with_conn!(conn, |c| schools::table
            .filter(schools::trust_id.eq(trust_id))
            .select(schools::id)
            .load(c)
            .await),
    }
}

/// Every template `viewer` may see (archived ones included; callers filter), newest first.
pub async fn visible_templates(
    conn: &mut DbConn<'_>,
    viewer: &Viewer,
) -> QueryResult<Vec<TemplateRow>> {
    let mat_schools = mat_school_ids(conn, viewer).await?;
    with_conn!(conn, |c| tasks::table
        .filter(
            tasks::visibility
                .eq("PERSONAL")
                .and(tasks::user_id.eq(&viewer.user_id))
                .and(tasks::school_id.eq(&viewer.school_id))
                .or(tasks::visibility
                    .eq("SCHOOL")
                    .and(tasks::school_id.eq(&viewer.school_id)))
                .or(tasks::visibility
                    .eq("MAT")
                    .and(tasks::school_id.eq_any(&mat_schools))),
        )
        .order((tasks::updated_at.desc(), tasks::id.desc()))
        .select(TemplateRow::as_select())
        .load(c)
        .await)
}

/// The template `id` if `viewer` may see it; `None` otherwise (callers answer NOT_FOUND).
pub async fn find_visible(
    conn: &mut DbConn<'_>,
    viewer: &Viewer,
    id: &str,
) -> QueryResult<Option<TemplateRow>> {
    let row: Option<TemplateRow> = with_conn!(conn, |c| tasks::table
        .filter(tasks::id.eq(id))
        .select(TemplateRow::as_select())
        .first(c)
        .await
        .optional())?;
    let Some(row) = row else {
        return Ok(None);
    };
    let visible = match row.visibility.as_str() {
        "PERSONAL" => row.user_id == viewer.user_id && row.school_id == viewer.school_id,
        "SCHOOL" => row.school_id == viewer.school_id,
        "MAT" => mat_school_ids(conn, viewer).await?.contains(&row.school_id),
        _ => false,
    };
    Ok(visible.then_some(row))
}

/// The questions of template `task_id`, in order.
pub async fn questions_of(conn: &mut DbConn<'_>, task_id: &str) -> QueryResult<Vec<QuestionRow>> {
    with_conn!(conn, |c| questions::table
        .filter(questions::task_id.eq(task_id))
        .order((questions::position.asc(), questions::id.asc()))
        .select(QuestionRow::as_select())
        .load(c)
        .await)
}

/// A template as the list shows it: its row with its owner's name and its counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSummary {
    pub row: TemplateRow,
    pub owner_name: String,
    pub question_count: i64,
    /// How many tasks (`task_submissions`) were started from it.
    pub task_count: i64,
}

/// `rows` with their owners' names, question counts and task counts, in the same order.
pub async fn summarise(
    conn: &mut DbConn<'_>,
    rows: Vec<TemplateRow>,
) -> QueryResult<Vec<TemplateSummary>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut owners: Vec<String> = rows.iter().map(|r| r.user_id.clone()).collect();
    owners.sort_unstable();
    owners.dedup();
    let names: Vec<(String, String, String)> = with_conn!(conn, |c| users::table
        .filter(users::id.eq_any(&owners))
        .select((users::id, users::forename, users::surname))
        .load(c)
        .await)?;
    let questions: Vec<(String, i64)> = with_conn!(conn, |c| questions::table
        .filter(questions::task_id.eq_any(&ids))
        .group_by(questions::task_id)
        .select((questions::task_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    let tasks: Vec<(String, i64)> = with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::task_id.eq_any(&ids))
        .group_by(task_submissions::task_id)
        .select((task_submissions::task_id, diesel::dsl::count_star()))
        .load(c)
        .await)?;
    let count_of = |counts: &[(String, i64)], id: &str| {
        counts.iter().find(|(k, _)| k == id).map_or(0, |(_, n)| *n)
    };
    Ok(rows
        .into_iter()
        .map(|row| TemplateSummary {
            owner_name: names
                .iter()
                .find(|(id, _, _)| *id == row.user_id)
                .map(|(_, forename, surname)| format!("{forename} {surname}").trim().to_owned())
                .unwrap_or_default(),
            question_count: count_of(&questions, &row.id),
            task_count: count_of(&tasks, &row.id),
            row,
        })
        .collect())
}

/// How many tasks were started from template `id`.
pub async fn task_count(conn: &mut DbConn<'_>, id: &str) -> QueryResult<i64> {
    with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::task_id.eq(id))
        .count()
        .get_result(c)
        .await)
}

/// A question to save, in its place: `id` names an existing question of the template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionInput {
    pub id: Option<String>,
    pub text: String,
    pub required: bool,
}

/// The fields of a template to save; `tags` is already its JSON array text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFields {
    pub title: String,
    pub tags: String,
    pub visibility: String,
}

/// A new template of `user_id` in `school_id`, with `questions` in that order; its id.
pub async fn insert_template(
    conn: &mut DbConn<'_>,
    user_id: &str,
    school_id: &str,
    fields: &TemplateFields,
    questions: &[QuestionInput],
) -> QueryResult<String> {
    let id = new_id();
    let at = now();
    with_conn!(conn, |c| diesel::insert_into(tasks::table)
        .values((
            tasks::id.eq(&id),
            tasks::created_at.eq(at),
            tasks::updated_at.eq(at),
            tasks::title.eq(&fields.title),
            tasks::visibility.eq(&fields.visibility),
            tasks::tags.eq(&fields.tags),
            tasks::user_id.eq(user_id),
            tasks::school_id.eq(school_id),
        ))
        .execute(c)
        .await)?;
    for (position, question) in questions.iter().enumerate() {
        insert_question(conn, &id, question, position_of(position), at).await?;
    }
    Ok(id)
}

fn position_of(index: usize) -> i32 {
    i32::try_from(index).unwrap_or(i32::MAX)
}

async fn insert_question(
    conn: &mut DbConn<'_>,
    task_id: &str,
    question: &QuestionInput,
    position: i32,
    at: chrono::NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(questions::table)
        .values((
            questions::id.eq(new_id()),
            questions::created_at.eq(at),
            questions::updated_at.eq(at),
            questions::text.eq(&question.text),
            questions::type_.eq("TEXTAREA"),
            questions::required.eq(question.required),
            questions::position.eq(position),
            questions::task_id.eq(task_id),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Why [`update_template`] refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateRefusal {
    /// The question at this index names an id that is not one of the template's questions.
    UnknownQuestion(usize),
    /// A question left out of the list already has answers in tasks.
    AnsweredQuestionRemoved,
}

/// Saves template `id`'s fields and its questions in the given order: listed ids are
/// updated, new ones inserted, left-out ones deleted — unless a left-out question already
/// has answers, which refuses the whole save (answers are never deleted silently). Run it
/// inside a transaction: a refusal may come after some rows were written.
pub async fn update_template(
    conn: &mut DbConn<'_>,
    id: &str,
    fields: &TemplateFields,
    list: &[QuestionInput],
) -> QueryResult<Result<(), UpdateRefusal>> {
    let existing: Vec<String> = with_conn!(conn, |c| questions::table
        .filter(questions::task_id.eq(id))
        .select(questions::id)
        .load(c)
        .await)?;
    for (index, question) in list.iter().enumerate() {
        if let Some(qid) = &question.id {
            if !existing.contains(qid) {
                return Ok(Err(UpdateRefusal::UnknownQuestion(index)));
            }
        }
    }
    let removed: Vec<String> = existing
        .iter()
        .filter(|e| !list.iter().any(|q| q.id.as_ref() == Some(*e)))
        .cloned()
        .collect();
    if !removed.is_empty() {
        let answered: i64 = with_conn!(conn, |c| question_responses::table
            .filter(question_responses::question_id.eq_any(&removed))
            .count()
            .get_result(c)
            .await)?;
        if answered > 0 {
            return Ok(Err(UpdateRefusal::AnsweredQuestionRemoved));
        }
        with_conn!(conn, |c| diesel::delete(
            questions::table.filter(questions::id.eq_any(&removed))
        )
        .execute(c)
        .await)?;
    }
    let at = now();
    with_conn!(conn, |c| diesel::update(
        tasks::table.filter(tasks::id.eq(id))
    )
    .set((
        tasks::title.eq(&fields.title),
        tasks::tags.eq(&fields.tags),
        tasks::visibility.eq(&fields.visibility),
        tasks::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    for (index, question) in list.iter().enumerate() {
        let position = position_of(index);
        match &question.id {
            None => insert_question(conn, id, question, position, at).await?,
            Some(qid) => {
                with_conn!(conn, |c| diesel::update(
                    questions::table
                        .filter(questions::id.eq(qid))
                        .filter(questions::task_id.eq(id))
                )
                .set((
                    questions::text.eq(&question.text),
                    questions::required.eq(question.required),
                    questions::position.eq(position),
                    questions::updated_at.eq(at),
                ))
                .execute(c)
                .await)?;
            }
        }
    }
    Ok(Ok(()))
}

/// What [`delete_or_archive`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    Deleted,
    /// Tasks use it: it was archived (hidden from the list and from task creation) instead.
    Archived,
}

/// Deletes template `id` with its questions, or archives it when a task uses it.
pub async fn delete_or_archive(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Removal> {
    if task_count(conn, id).await? > 0 {
        set_archived(conn, id, true).await?;
        return Ok(Removal::Archived);
    }
    with_conn!(conn, |c| diesel::delete(
        questions::table.filter(questions::task_id.eq(id))
    )
    .execute(c)
    .await)?;
    with_conn!(conn, |c| diesel::delete(
        tasks::table.filter(tasks::id.eq(id))
    )
    .execute(c)
    .await)?;
    Ok(Removal::Deleted)
}

/// Archives (`true`) or restores (`false`) template `id`. Archiving an archived template
/// keeps its first date.
pub async fn set_archived(conn: &mut DbConn<'_>, id: &str, archived: bool) -> QueryResult<()> {
    let at = now();
    if archived {
        with_conn!(conn, |c| diesel::update(
            tasks::table
                .filter(tasks::id.eq(id))
                .filter(tasks::archived_at.is_null())
        )
        .set((tasks::archived_at.eq(Some(at)), tasks::updated_at.eq(at)))
        .execute(c)
        .await)?;
    } else {
        with_conn!(conn, |c| diesel::update(
            tasks::table.filter(tasks::id.eq(id))
        )
        .set((
            tasks::archived_at.eq(None::<chrono::NaiveDateTime>),
            tasks::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    }
    Ok(())
}
