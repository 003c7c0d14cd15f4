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
