//! Pupils, their classes, and the listing view (with year and form group names).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{class_students, form_groups, students, year_groups};
use crate::db::DbConn;
use crate::with_conn;

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = students)]
pub struct NewStudent {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub school_id: String,
    pub year_group_id: Option<String>,
    pub form_group_id: Option<String>,
}

/// A pupil as lists show them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StudentListing {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub year_group: Option<String>,
    pub form_group: Option<String>,
}

pub async fn insert(conn: &mut DbConn<'_>, student: &NewStudent) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(students::table)
        .values(student)
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn add_to_class(
    conn: &mut DbConn<'_>,
    student_id: &str,
    class_id: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(class_students::table)
        .values((
            class_students::class_id.eq(class_id),
            class_students::student_id.eq(student_id)
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Every pupil of one school, by surname then forename. Scoped by `school_id`: the caller
/// passes the school it is allowed to read.
pub async fn list_for_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<StudentListing>> {
    let rows: Vec<(String, String, String, Option<String>, Option<String>)> =
        with_conn!(conn, |c| students::table
            .left_join(year_groups::table)
            .left_join(form_groups::table)
            .filter(students::school_id.eq(school_id))
            .order((
                students::surname.asc(),
                students::forename.asc(),
                students::id.asc()
            ))
            .select((
                students::id,
                students::forename,
                students::surname,
                year_groups::name.nullable(),
                form_groups::name.nullable(),
            ))
            .load(c)
            .await)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, forename, surname, year_group, form_group)| StudentListing {
                id,
                forename,
                surname,
                year_group,
                form_group,
            },
        )
        .collect())
}

/// One pupil's details for the profile page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentDetail {
    pub id: String,
    pub forename: String,
    pub surname: String,
    pub email: Option<String>,
    pub parent_email: Option<String>,
    pub upn: Option<String>,
    pub year_group: Option<String>,
    pub form_group: Option<String>,
}

type DetailRow = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The pupil `id` if they belong to `school_id`.
pub async fn find_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<StudentDetail>> {
    let row: Option<DetailRow> = with_conn!(conn, |c| students::table
        .left_join(year_groups::table)
        .left_join(form_groups::table)
        .filter(students::id.eq(id))
        .filter(students::school_id.eq(school_id))
        .select((
            students::id,
            students::forename,
            students::surname,
            students::email,
            students::parent_email,
            students::upn,
            year_groups::name.nullable(),
            form_groups::name.nullable(),
        ))
        .first(c)
        .await
        .optional())?;
    Ok(row.map(
        |(id, forename, surname, email, parent_email, upn, year_group, form_group)| StudentDetail {
            id,
            forename,
            surname,
            email,
            parent_email,
            upn,
            year_group,
            form_group,
        },
    ))
}

/// The classes a pupil is in, by name: (id, name).
pub async fn classes_of(
    conn: &mut DbConn<'_>,
    student_id: &str,
) -> QueryResult<Vec<(String, String)>> {
    use crate::db::schema::classes;
    with_conn!(conn, |c| classes::table
        .inner_join(class_students::table)
        .filter(class_students::student_id.eq(student_id))
        .order((classes::name.asc(), classes::id.asc()))
        .select((classes::id, classes::name))
        .load(c)
        .await)
}

/// A staff comment on a pupil, with its author's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentComment {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub user_id: String,
    pub author_forename: String,
    pub author_surname: String,
    pub comment: String,
}

/// A pupil's comments, newest first.
pub async fn comments(conn: &mut DbConn<'_>, student_id: &str) -> QueryResult<Vec<StudentComment>> {
    use crate::db::schema::{student_comments, users};
    let rows: Vec<(String, NaiveDateTime, String, String, String, String)> =
        with_conn!(conn, |c| student_comments::table
            .inner_join(users::table)
            .filter(student_comments::student_id.eq(student_id))
            .order((
                student_comments::created_at.desc(),
                student_comments::id.desc()
            ))
            .select((
                student_comments::id,
                student_comments::created_at,
                student_comments::user_id,
                users::forename,
                users::surname,
                student_comments::comment,
            ))
            .load(c)
            .await)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, created_at, user_id, author_forename, author_surname, comment)| StudentComment {
                id,
                created_at,
                user_id,
                author_forename,
                author_surname,
                comment,
            },
        )
        .collect())
}

pub async fn insert_comment(
    conn: &mut DbConn<'_>,
    id: &str,
    user_id: &str,
    student_id: &str,
    comment: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    use crate::db::schema::student_comments;
    with_conn!(conn, |c| diesel::insert_into(student_comments::table)
        .values((
            student_comments::id.eq(id),
            student_comments::created_at.eq(at),
            student_comments::updated_at.eq(at),
            student_comments::user_id.eq(user_id),
            student_comments::student_id.eq(student_id),
            student_comments::comment.eq(comment),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// The comment `id` if its pupil belongs to `school_id`: (author's user id, student id).
pub async fn find_comment_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<(String, String)>> {
    use crate::db::schema::student_comments;
    with_conn!(conn, |c| student_comments::table
        .inner_join(students::table)
        .filter(student_comments::id.eq(id))
        .filter(students::school_id.eq(school_id))
        .select((student_comments::user_id, student_comments::student_id))
        .first(c)
        .await
        .optional())
}

pub async fn delete_comment(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    use crate::db::schema::student_comments;
    with_conn!(conn, |c| diesel::delete(
        student_comments::table.filter(student_comments::id.eq(id))
    )
    .execute(c)
    .await)?;
    Ok(())
}

/// Every class of one school, by name: (id, name).
pub async fn school_classes(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Vec<(String, String)>> {
    use crate::db::schema::classes;
    with_conn!(conn, |c| classes::table
        .filter(classes::school_id.eq(school_id))
        .order((classes::name.asc(), classes::id.asc()))
        .select((classes::id, classes::name))
        .load(c)
        .await)
}

// Queries for background jobs.

/// Pupil `id`'s forename and surname, if the pupil exists.
pub async fn find_name(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| students::table
        .find(id)
        .select((students::forename, students::surname))
        .first(c)
        .await
        .optional())
}
