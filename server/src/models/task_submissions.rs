//! Tasks (`task_submissions`): a user's filled-in copy of a template, its answers
//! (`question_responses`) and the colleagues it is shared with (`task_collaborators`).
//! Every lookup is scoped to the caller's school; docs/leaders.md explains the model.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{question_responses, task_collaborators, task_submissions, tasks, users};
use crate::db::sql::{like_escaped, like_pattern, lower};
use crate::db::DbConn;
use crate::models::TimeKey;
use crate::{before_time, with_conn};

/// How the caller reaches a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskAccess {
    /// The user who made it.
    Owner,
    /// A colleague of the same school it was shared with: may see and edit it.
    Collaborator,
}

/// Whether `user_id` of `school_id` may see and edit the task `submission_id`, and how.
/// `None` for a task of another school, of nobody, or not shared with the user: callers
/// answer NOT_FOUND, never FORBIDDEN.
pub async fn access(
    conn: &mut DbConn<'_>,
    user_id: &str,
    school_id: &str,
    submission_id: &str,
) -> QueryResult<Option<TaskAccess>> {
    let owner: Option<String> = with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::id.eq(submission_id))
        .filter(task_submissions::school_id.eq(school_id))
        .select(task_submissions::user_id)
        .first(c)
        .await
        .optional())?;
    let Some(owner) = owner else {
        return Ok(None);
    };
    if owner == user_id {
        return Ok(Some(TaskAccess::Owner));
    }
    let shared: i64 = with_conn!(conn, |c| task_collaborators::table
        .filter(task_collaborators::submission_id.eq(submission_id))
        .filter(task_collaborators::user_id.eq(user_id))
        .count()
        .get_result(c)
        .await)?;
    Ok((shared > 0).then_some(TaskAccess::Collaborator))
}

/// A task row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = task_submissions)]
pub struct TaskRow {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub draft: bool,
    pub title: String,
    pub submitted_at: Option<NaiveDateTime>,
    /// A JSON array of strings.
    pub tags: String,
    /// The template.
    pub task_id: String,
    /// The owner.
    pub user_id: String,
    pub school_id: Option<String>,
}

/// A new task: a draft copy of template `template_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTask<'a> {
    pub id: &'a str,
    pub user_id: &'a str,
    pub school_id: &'a str,
    pub template_id: &'a str,
    pub title: &'a str,
    pub tags_json: &'a str,
    pub at: NaiveDateTime,
}

pub async fn insert(conn: &mut DbConn<'_>, task: &NewTask<'_>) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(task_submissions::table)
        .values((
            task_submissions::id.eq(task.id),
            task_submissions::created_at.eq(task.at),
            task_submissions::updated_at.eq(task.at),
            task_submissions::draft.eq(true),
            task_submissions::title.eq(task.title),
            task_submissions::tags.eq(task.tags_json),
            task_submissions::task_id.eq(task.template_id),
            task_submissions::user_id.eq(task.user_id),
            task_submissions::school_id.eq(task.school_id),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// How many tasks `user_id` made (and still has) since `since`: the weekly limit's count.
pub async fn count_created_since(
    conn: &mut DbConn<'_>,
    user_id: &str,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::user_id.eq(user_id))
        .filter(task_submissions::created_at.gt(since))
        .count()
        .get_result(c)
        .await)
}

/// The task `id`. Callers check [`access`] first.
pub async fn find(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<TaskRow>> {
    with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::id.eq(id))
        .select(TaskRow::as_select())
        .first(c)
        .await
        .optional())
}

/// A task as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskListEntry {
    pub task: TaskRow,
    pub template_title: String,
    pub owner_forename: String,
    pub owner_surname: String,
}

/// Which of a user's tasks a list shows: every one with no filter set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskFilter {
    /// Part of the title, any case.
    pub search: Option<String>,
    /// One of its tags, any case.
    pub tag: Option<String>,
    /// `Some(true)`: drafts only; `Some(false)`: submitted only.
    pub draft: Option<bool>,
    /// The task's date on or after this: when it was submitted, else when it last changed
    /// (the report generator's From).
    pub from: Option<NaiveDateTime>,
    /// The task's date before this (the day after the report generator's To).
    pub until: Option<NaiveDateTime>,
}

/// The ids of the tasks shared with `user_id` (as a collaborator).
async fn shared_with(conn: &mut DbConn<'_>, user_id: &str) -> QueryResult<Vec<String>> {
    with_conn!(conn, |c| task_collaborators::table
        .filter(task_collaborators::user_id.eq(user_id))
        .select(task_collaborators::submission_id)
        .load(c)
        .await)
}

/// A page of the tasks of `school_id` that `user_id` owns or is a collaborator on and that
/// `filter` keeps, most recently changed first (then by id): at most `limit` after `after`
/// (from the newest without); and how many `filter` keeps in all. The Tasks page and the
/// report generator's task picker read it.
pub async fn list_page(
    conn: &mut DbConn<'_>,
    user_id: &str,
    school_id: &str,
    filter: &TaskFilter,
    after: Option<&TimeKey>,
    limit: i64,
) -> QueryResult<(Vec<TaskListEntry>, i64)> {
    let shared = shared_with(conn, user_id).await?;
    let search = filter.search.as_deref().filter(|s| !s.trim().is_empty()).map(like_pattern);
    // Tags are stored as a JSON array: a tag matches as its JSON string, quotes and all, so
    // "y7" never matches "y7b". Lower-cased both ways, since SQLite's lower() folds ASCII
    // only and PostgreSQL's all of Unicode: either way a tag matches in any ASCII case.
    let tag = filter.tag.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(|t| {
        let json = serde_json::Value::from(t).to_string();
        (like_pattern(&json), format!("%{}%", like_escaped(&json.to_ascii_lowercase())))
    });
    macro_rules! kept {
        () => {{
            let mut query = task_submissions::table
                .inner_join(tasks::table)
                .inner_join(users::table)
                .filter(task_submissions::school_id.eq(school_id))
                .filter(task_submissions::user_id.eq(user_id).or(task_submissions::id.eq_any(&shared)))
                .into_boxed();
            if let Some(p) = &search {
                query = query.filter(lower(task_submissions::title).like(p.clone()).escape('\\'));
            }
            if let Some((unicode, ascii)) = &tag {
                query = query.filter(
                    lower(task_submissions::tags)
                        .like(unicode.clone())
                        .escape('\\')
                        .or(lower(task_submissions::tags).like(ascii.clone()).escape('\\')),
                );
            }
            if let Some(draft) = filter.draft {
                query = query.filter(task_submissions::draft.eq(draft));
            }
            if let Some(from) = filter.from {
                query = query.filter(
                    task_submissions::submitted_at
                        .ge(from)
                        .or(task_submissions::submitted_at.is_null().and(task_submissions::updated_at.ge(from))),
                );
            }
            if let Some(until) = filter.until {
                query = query.filter(
                    task_submissions::submitted_at
                        .lt(until)
                        .or(task_submissions::submitted_at.is_null().and(task_submissions::updated_at.lt(until))),
                );
            }
            query
        }};
    }
    let rows: Vec<(TaskRow, String, String, String)> = with_conn!(conn, |c| {
        let mut query = kept!();
        if let Some(key) = after {
            query = query.filter(before_time!(task_submissions::updated_at, task_submissions::id, key));
        }
        query
            .order((task_submissions::updated_at.desc(), task_submissions::id.desc()))
            .limit(limit)
            .select((TaskRow::as_select(), tasks::title, users::forename, users::surname))
            .load(c)
            .await
    })?;
    let total = match crate::models::total_of_first_page(after.is_none(), rows.len(), limit) {
        Some(total) => total,
        None => with_conn!(conn, |c| kept!().count().get_result(c).await)?,
    };
    Ok((
        rows.into_iter()
            .map(|(task, template_title, owner_forename, owner_surname)| TaskListEntry {
                task,
                template_title,
                owner_forename,
                owner_surname,
            })
            .collect(),
        total,
    ))
}

/// The stored tags (JSON arrays) of every task of `school_id` that `user_id` owns or is a
/// collaborator on: the tag filter's choices come from all of them, not from one page.
pub async fn tags_of_tasks(conn: &mut DbConn<'_>, user_id: &str, school_id: &str) -> QueryResult<Vec<String>> {
    let shared = shared_with(conn, user_id).await?;
    with_conn!(conn, |c| task_submissions::table
        .filter(task_submissions::school_id.eq(school_id))
        .filter(task_submissions::user_id.eq(user_id).or(task_submissions::id.eq_any(&shared)))
        .filter(task_submissions::tags.ne("[]"))
        .select(task_submissions::tags)
        .load(c)
        .await)
}

/// Changes a task's title and tags (either may be kept).
pub async fn update_details(
    conn: &mut DbConn<'_>,
    id: &str,
    title: Option<&str>,
    tags_json: Option<&str>,
    at: NaiveDateTime,
) -> QueryResult<()> {
    if let Some(title) = title {
        with_conn!(conn, |c| diesel::update(task_submissions::table.find(id))
            .set(task_submissions::title.eq(title))
            .execute(c)
            .await)?;
    }
    if let Some(tags) = tags_json {
        with_conn!(conn, |c| diesel::update(task_submissions::table.find(id))
            .set(task_submissions::tags.eq(tags))
            .execute(c)
            .await)?;
    }
    with_conn!(conn, |c| diesel::update(task_submissions::table.find(id))
        .set(task_submissions::updated_at.eq(at))
        .execute(c)
        .await)?;
    Ok(())
}

/// Marks a task submitted at `at`.
pub async fn mark_submitted(conn: &mut DbConn<'_>, id: &str, at: NaiveDateTime) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(task_submissions::table.find(id))
        .set((
            task_submissions::draft.eq(false),
            task_submissions::submitted_at.eq(Some(at)),
            task_submissions::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Deletes a task with its answers, collaborators and content items.
pub async fn delete(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        question_responses::table.filter(question_responses::submission_id.eq(id))
    )
    .execute(c)
    .await)?;
    with_conn!(conn, |c| diesel::delete(
        task_collaborators::table.filter(task_collaborators::submission_id.eq(id))
    )
    .execute(c)
    .await)?;
    with_conn!(conn, |c| diesel::delete(task_submissions::table.find(id))
        .execute(c)
        .await)?;
    Ok(())
}

/// One stored answer.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = question_responses)]
pub struct AnswerRow {
    pub question_id: String,
    pub answer: String,
    pub version: i32,
    pub updated_by_id: Option<String>,
    pub updated_at: NaiveDateTime,
}

/// The answers of task `submission_id`.
pub async fn answers_of(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> QueryResult<Vec<AnswerRow>> {
    with_conn!(conn, |c| question_responses::table
        .filter(question_responses::submission_id.eq(submission_id))
        .select(AnswerRow::as_select())
        .load(c)
        .await)
}

/// What a compare-and-set of one answer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetAnswer {
    /// Stored (or already equal): the answer's version now.
    Stored(i32),
    /// Someone else changed it since the caller's base version: nothing was written.
    Conflict,
}

/// Stores `answer` for `question_id` if the stored answer is still at `base_version`
/// (0: no answer yet); an identical text is accepted whatever the base. Run inside a
/// transaction; the version check is repeated in the write itself.
#[allow(clippy::too_many_arguments)]
pub async fn set_answer(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    question_id: &str,
    answer: &str,
    base_version: i32,
    user_id: &str,
    at: NaiveDateTime,
) -> QueryResult<SetAnswer> {
    let current: Option<(String, i32)> = with_conn!(conn, |c| question_responses::table
        .filter(question_responses::submission_id.eq(submission_id))
        .filter(question_responses::question_id.eq(question_id))
        .select((question_responses::answer, question_responses::version))
        .first(c)
        .await
        .optional())?;
    let written = match current {
        Some((text, version)) if text == answer => return Ok(SetAnswer::Stored(version)),
        Some((_, version)) if version != base_version => return Ok(SetAnswer::Conflict),
        Some(_) => with_conn!(conn, |c| diesel::update(
            question_responses::table
                .filter(question_responses::submission_id.eq(submission_id))
                .filter(question_responses::question_id.eq(question_id))
                .filter(question_responses::version.eq(base_version))
        )
        .set((
            question_responses::answer.eq(answer),
            question_responses::version.eq(base_version + 1),
            question_responses::updated_by_id.eq(Some(user_id)),
            question_responses::updated_at.eq(at),
        ))
        .execute(c)
        .await)?,
        None if base_version != 0 => return Ok(SetAnswer::Conflict),
        None => with_conn!(conn, |c| diesel::insert_into(question_responses::table)
            .values((
                question_responses::id.eq(crate::ids::new_id()),
                question_responses::created_at.eq(at),
                question_responses::updated_at.eq(at),
                question_responses::submission_id.eq(submission_id),
                question_responses::question_id.eq(question_id),
                question_responses::answer.eq(answer),
                question_responses::version.eq(1),
                question_responses::updated_by_id.eq(Some(user_id)),
            ))
            .on_conflict_do_nothing()
            .execute(c)
            .await)?,
    };
    Ok(if written == 1 {
        SetAnswer::Stored(base_version + 1)
    } else {
        SetAnswer::Conflict
    })
}

/// A user as a task shows them: (id, forename, surname, e-mail).
pub type Person = (String, String, String, String);

/// The users `ids` (answer authors), in any order.
pub async fn people(conn: &mut DbConn<'_>, ids: &[String]) -> QueryResult<Vec<Person>> {
    with_conn!(conn, |c| users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::forename, users::surname, users::email))
        .load(c)
        .await)
}

/// The colleagues task `submission_id` is shared with, by name.
pub async fn collaborators_of(
    conn: &mut DbConn<'_>,
    submission_id: &str,
) -> QueryResult<Vec<Person>> {
    with_conn!(conn, |c| task_collaborators::table
        .inner_join(users::table)
        .filter(task_collaborators::submission_id.eq(submission_id))
        .order((users::forename.asc(), users::surname.asc(), users::id.asc()))
        .select((users::id, users::forename, users::surname, users::email))
        .load(c)
        .await)
}

/// The enabled users of `school_id` other than `except_user_id`, by name: whom a task may be
/// shared with.
pub async fn colleagues(
    conn: &mut DbConn<'_>,
    school_id: &str,
    except_user_id: &str,
) -> QueryResult<Vec<Person>> {
    with_conn!(conn, |c| users::table
        .filter(users::school_id.eq(school_id))
        .filter(users::id.ne(except_user_id))
        .filter(users::disabled.eq(false))
        .order((users::forename.asc(), users::surname.asc(), users::id.asc()))
        .select((users::id, users::forename, users::surname, users::email))
        .load(c)
        .await)
}

/// Shares task `submission_id` with `user_id` (again: nothing changes).
pub async fn add_collaborator(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    user_id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(task_collaborators::table)
        .values((
            task_collaborators::submission_id.eq(submission_id),
            task_collaborators::user_id.eq(user_id),
            task_collaborators::created_at.eq(at),
        ))
        .on_conflict_do_nothing()
        .execute(c)
        .await)?;
    Ok(())
}

/// Stops sharing task `submission_id` with `user_id`.
pub async fn remove_collaborator(
    conn: &mut DbConn<'_>,
    submission_id: &str,
    user_id: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        task_collaborators::table
            .filter(task_collaborators::submission_id.eq(submission_id))
            .filter(task_collaborators::user_id.eq(user_id))
    )
    .execute(c)
    .await)?;
    Ok(())
}

/// The title of template `template_id`, for a task made from it (whoever may see the
/// template now: the task keeps showing where it came from).
pub async fn template_title(
    conn: &mut DbConn<'_>,
    template_id: &str,
) -> QueryResult<Option<String>> {
    with_conn!(conn, |c| tasks::table
        .filter(tasks::id.eq(template_id))
        .select(tasks::title)
        .first(c)
        .await
        .optional())
}
