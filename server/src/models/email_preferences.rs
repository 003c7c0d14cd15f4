//! Each recipient's e-mail choices, changed from the `/preferences/{token}` link.

use chrono::NaiveDateTime;
use core_wasm::NotificationFrequency;
use diesel::prelude::*;
use diesel::result::QueryResult;
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
    with_conn!(conn, |c| diesel::insert_into(email_preferences::table).values(preference).execute(c).await)?;
    Ok(())
}
