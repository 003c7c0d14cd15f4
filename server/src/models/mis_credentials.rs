//! A school's MIS credentials (docs/mis-sync.md): Wonde's id and sealed token or
//! Groupcall's id and sealed secret (a school has one source: saving one clears the other),
//! and `last_full_sync`. Re-exported by `mis.rs`.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::schools;
use crate::db::DbConn;
use crate::mis::Source;
use crate::models::now;
use crate::with_conn;

/// A school's Wonde id and sealed token, if connected.
pub async fn wonde_credentials(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<(Option<String>, Option<String>)>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((schools::wonde_id, schools::wonde_token))
        .first(c)
        .await
        .optional())
}

/// A school's Groupcall id and sealed secret, if connected.
pub async fn groupcall_credentials(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<(Option<String>, Option<String>)>> {
    with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((schools::groupcall_id, schools::groupcall_secret))
        .first(c)
        .await
        .optional())
}

/// Which source the school is connected to (a school has one: saving one clears the
/// other), if any.
pub async fn connected_source(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<Option<Source>> {
    type Row = (Option<String>, Option<String>, Option<String>, Option<String>);
    let row: Option<Row> = with_conn!(conn, |c| schools::table
        .find(school_id)
        .select((
            schools::wonde_id,
            schools::wonde_token,
            schools::groupcall_id,
            schools::groupcall_secret,
        ))
        .first(c)
        .await
        .optional())?;
    Ok(match row {
        Some((_, _, Some(_), Some(_))) => Some(Source::Groupcall),
        Some((Some(_), Some(_), _, _)) => Some(Source::Wonde),
        _ => None,
    })
}

/// Stores the school's Groupcall id and its secret, already sealed, and clears Wonde's (a
/// school has one MIS source).
pub async fn set_groupcall_credentials(
    conn: &mut DbConn<'_>,
    school_id: &str,
    groupcall_id: &str,
    sealed_secret: &str,
) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(schools::table.find(school_id))
        .set((
            schools::groupcall_id.eq(groupcall_id),
            schools::groupcall_secret.eq(sealed_secret),
            schools::wonde_id.eq(None::<String>),
            schools::wonde_token.eq(None::<String>),
            schools::updated_at.eq(now()),
        ))
        .execute(c)
        .await)?;
    Ok(n == 1)
}

/// Stores the school's Wonde id and its token, already sealed, and clears Groupcall's (a
/// school has one MIS source).
pub async fn set_wonde_credentials(
    conn: &mut DbConn<'_>,
    school_id: &str,
    wonde_id: &str,
    sealed_token: &str,
) -> QueryResult<bool> {
    let n = with_conn!(conn, |c| diesel::update(schools::table.find(school_id))
        .set((
            schools::wonde_id.eq(wonde_id),
            schools::wonde_token.eq(sealed_token),
            schools::groupcall_id.eq(None::<String>),
            schools::groupcall_secret.eq(None::<String>),
            schools::updated_at.eq(now()),
        ))
        .execute(c)
        .await)?;
    Ok(n == 1)
}

/// Records the end of a full sync.
pub async fn set_last_full_sync(
    conn: &mut DbConn<'_>,
    school_id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(schools::table.find(school_id))
        .set(schools::last_full_sync.eq(at))
        .execute(c)
        .await)?;
    Ok(())
}

pub async fn last_full_sync(
    conn: &mut DbConn<'_>,
    school_id: &str,
) -> QueryResult<Option<NaiveDateTime>> {
    Ok(with_conn!(conn, |c| schools::table
        .find(school_id)
        .select(schools::last_full_sync)
        .first::<Option<NaiveDateTime>>(c)
        .await
        .optional())?
    .flatten())
}

