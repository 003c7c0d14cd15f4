//! Notifications translated for recipients who chose another e-mail language
//! (`notification_translations`, docs/translation.md): one row per (notification, language).

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;

use crate::db::schema::notification_translations;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::with_conn;

/// One stored translation: the title and (sanitised HTML) body in `language`, and the line
/// that says, in that language, that it was translated automatically.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = notification_translations)]
pub struct Translation {
    pub notification_id: String,
    pub language: String,
    pub source_hash: String,
    pub title: String,
    pub body: String,
    pub notice: String,
    pub created_at: NaiveDateTime,
}

/// The translation of `notification_id` into `language`, if one was made from the text
/// whose hash is `source_hash` (a translation of an older text is not returned).
pub async fn find(
    conn: &mut DbConn<'_>,
    notification_id: &str,
    language: &str,
    source_hash: &str,
) -> QueryResult<Option<Translation>> {
    with_conn!(conn, |c| notification_translations::table
        .filter(notification_translations::notification_id.eq(notification_id))
        .filter(notification_translations::language.eq(language))
        .filter(notification_translations::source_hash.eq(source_hash))
        .select(Translation::as_select())
        .first(c)
        .await
        .optional())
}

/// Keeps `translation`, replacing one of an older text for the same (notification,
/// language).
pub async fn save(conn: &mut DbConn<'_>, t: &Translation) -> QueryResult<()> {
    let id = new_id();
    with_conn!(conn, |c| diesel::insert_into(notification_translations::table)
        .values((
            notification_translations::id.eq(&id),
            notification_translations::notification_id.eq(&t.notification_id),
            notification_translations::language.eq(&t.language),
            notification_translations::source_hash.eq(&t.source_hash),
            notification_translations::title.eq(&t.title),
            notification_translations::body.eq(&t.body),
            notification_translations::notice.eq(&t.notice),
            notification_translations::created_at.eq(t.created_at),
        ))
        .on_conflict((
            notification_translations::notification_id,
            notification_translations::language,
        ))
        .do_update()
        .set((
            notification_translations::source_hash.eq(excluded(notification_translations::source_hash)),
            notification_translations::title.eq(excluded(notification_translations::title)),
            notification_translations::body.eq(excluded(notification_translations::body)),
            notification_translations::notice.eq(excluded(notification_translations::notice)),
            notification_translations::created_at.eq(excluded(notification_translations::created_at)),
        ))
        .execute(c)
        .await)?;
    Ok(())
}
