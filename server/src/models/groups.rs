//! Year groups (shared by every school), form groups and classes (each a school's own).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{classes, form_groups, year_groups};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::now;
use crate::with_conn;

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = form_groups)]
pub struct NewFormGroup {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub name: String,
    pub school_id: String,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = classes)]
pub struct NewClass {
    pub id: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub name: String,
    pub school_id: String,
}

/// The id of the year group called `name`, created if it does not exist yet.
pub async fn year_group_id(conn: &mut DbConn<'_>, name: &str) -> QueryResult<String> {
    let existing: Option<String> = with_conn!(conn, |c| year_groups::table
        .filter(year_groups::name.eq(name))
        .select(year_groups::id)
        .first(c)
        .await
        .optional())?;
    if let Some(id) = existing {
        return Ok(id);
    }
    let id = new_id();
    let at = now();
    with_conn!(conn, |c| diesel::insert_into(year_groups::table)
        .values((
            year_groups::id.eq(&id),
            year_groups::created_at.eq(at),
            year_groups::updated_at.eq(at),
            year_groups::name.eq(name),
        ))
        .execute(c)
        .await)?;
    Ok(id)
}

pub async fn insert_form_group(conn: &mut DbConn<'_>, group: &NewFormGroup) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(form_groups::table)
        .values(group)
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn insert_class(conn: &mut DbConn<'_>, class: &NewClass) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(classes::table)
        .values(class)
        .execute(c)
        .await)?;
    Ok(())
}
