//! Each recipient's e-mail choices, changed from the `/preferences/{token}` link.

use chrono::NaiveDateTime;
use core_wasm::NotificationFrequency;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;

use crate::db::schema::email_preferences;
use crate::db::DbConn;
use crate::with_conn;

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = email_preferences)]
pub struct NewEmailPreference {
    pub email: String,
    pub language: String,
    pub general: bool,
    pub assignment: bool,
    pub frequency: NotificationFrequency,
    pub token: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

pub async fn insert(conn: &mut DbConn<'_>, preference: &NewEmailPreference) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(email_preferences::table)
        .values(preference)
        .execute(c)
        .await)?;
    Ok(())
}

/// A recipient's choices, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = email_preferences)]
pub struct StoredChoices {
    pub general: bool,
    pub assignment: bool,
    pub frequency: NotificationFrequency,
    pub language: String,
}

/// The choices stored for `email`, if any.
pub async fn find_choices(
    conn: &mut DbConn<'_>,
    email: &str,
) -> QueryResult<Option<StoredChoices>> {
    with_conn!(conn, |c| email_preferences::table
        .find(email)
        .select(StoredChoices::as_select())
        .first(c)
        .await
        .optional())
}

/// Saves the choices in `preference`, creating the row on first save. An existing row keeps
/// its token, so links already sent stay valid.
pub async fn save_choices(
    conn: &mut DbConn<'_>,
    preference: &NewEmailPreference,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(email_preferences::table)
        .values(preference)
        .on_conflict(email_preferences::email)
        .do_update()
        .set((
            email_preferences::language.eq(excluded(email_preferences::language)),
            email_preferences::general.eq(excluded(email_preferences::general)),
            email_preferences::assignment.eq(excluded(email_preferences::assignment)),
            email_preferences::frequency.eq(excluded(email_preferences::frequency)),
            email_preferences::updated_at.eq(excluded(email_preferences::updated_at)),
        ))
        .execute(c)
        .await)?;
    Ok(())
}
