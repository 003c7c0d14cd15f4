//! Sign-in sessions (`sessions`) and single-use link tokens (`verification_tokens`). Both
//! store only hashes of the tokens; hashing, lifetimes and cookies are `auth/`'s business.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{sessions, users, verification_tokens};
use crate::db::DbConn;
use crate::models::users::User;
use crate::with_conn;
use crate::db::changes::{self, Change};

/// A new session row.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = sessions)]
pub struct NewSession<'a> {
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub ip_address: Option<&'a str>,
    pub user_agent: Option<&'a str>,
}

pub async fn insert_session(conn: &mut DbConn<'_>, session: &NewSession<'_>) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(sessions::table)
        .values(session.clone())
        .execute(c)
        .await)?;
    Ok(())
}

/// Ends one session (sign-out).
pub async fn delete_session(conn: &mut DbConn<'_>, token_hash: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(sessions::table.find(token_hash))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Sessions).await?;
    Ok(())
}

/// Ends every session of a user.
pub async fn delete_user_sessions(conn: &mut DbConn<'_>, user_id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        sessions::table.filter(sessions::user_id.eq(user_id))
    )
    .execute(c)
    .await)?;
    changes::publish(conn, Change::Sessions).await?;
    Ok(())
}

/// Ends every session of a user except `keep_token_hash` (the caller's own).
pub async fn delete_other_sessions(
    conn: &mut DbConn<'_>,
    user_id: &str,
    keep_token_hash: &str,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(
        sessions::table
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::token_hash.ne(keep_token_hash))
    )
    .execute(c)
    .await)?;
    changes::publish(conn, Change::Sessions).await?;
    Ok(())
}

/// Moves a session's expiry to `expires_at`, seen at `at`.
pub async fn set_session_expiry(
    conn: &mut DbConn<'_>,
    token_hash: &str,
    expires_at: NaiveDateTime,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(sessions::table.find(token_hash))
        .set((
            sessions::expires_at.eq(expires_at),
            sessions::last_seen_at.eq(at)
        ))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Sessions).await?;
    Ok(())
}

/// The user of the session `token_hash` if it is unexpired at `at`, with its expiry and
/// the school the session chose to act in (not yet checked: `auth::session` decides).
pub async fn find_session_user(
    conn: &mut DbConn<'_>,
    token_hash: &str,
    at: NaiveDateTime,
) -> QueryResult<Option<(User, NaiveDateTime, Option<String>)>> {
    with_conn!(conn, |c| sessions::table
        .inner_join(users::table)
        .filter(sessions::token_hash.eq(token_hash))
        .filter(sessions::expires_at.gt(at))
        .select((
            User::as_select(),
            sessions::expires_at,
            sessions::active_school_id
        ))
        .first(c)
        .await
        .optional())
}

/// Sets (or with `None` clears) the school session `token_hash` acts in.
pub async fn set_active_school(
    conn: &mut DbConn<'_>,
    token_hash: &str,
    school_id: Option<&str>,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(sessions::table.find(token_hash))
        .set(sessions::active_school_id.eq(school_id))
        .execute(c)
        .await)?;
    changes::publish(conn, Change::Sessions).await?;
    Ok(())
}

/// A new link token row (`purpose` as stored: `VERIFY_EMAIL`, `RESET_PASSWORD`, `SIGN_IN`).
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = verification_tokens)]
pub struct NewVerificationToken<'a> {
    pub token_hash: &'a str,
    pub identifier: &'a str,
    pub purpose: &'a str,
    pub user_id: Option<&'a str>,
    pub expires_at: NaiveDateTime,
    pub created_at: NaiveDateTime,
}

pub async fn insert_token(
    conn: &mut DbConn<'_>,
    token: &NewVerificationToken<'_>,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(verification_tokens::table)
        .values(token.clone())
        .execute(c)
        .await)?;
    Ok(())
}

/// A token that was valid and is now used.
#[derive(Debug, Clone, Queryable)]
pub struct UsedToken {
    pub identifier: String,
    pub user_id: Option<String>,
}

/// Marks the token `token_hash` used at `at` if it is for `purpose`, unused and unexpired
/// (and, when given, belongs to `identifier`), in one statement, so two clicks cannot both
/// succeed. Returns it when it was.
pub async fn consume_token(
    conn: &mut DbConn<'_>,
    purpose: &str,
    token_hash: &str,
    identifier: Option<&str>,
    at: NaiveDateTime,
) -> QueryResult<Option<UsedToken>> {
    with_conn!(conn, |c| {
        let mut query = diesel::update(verification_tokens::table)
            .filter(verification_tokens::token_hash.eq(token_hash))
            .filter(verification_tokens::purpose.eq(purpose))
            .filter(verification_tokens::used_at.is_null())
            .filter(verification_tokens::expires_at.gt(at))
            .into_boxed();
        if let Some(identifier) = identifier {
            query = query.filter(verification_tokens::identifier.eq(identifier.to_owned()));
        }
        query
            .set(verification_tokens::used_at.eq(at))
            .returning((
                verification_tokens::identifier,
                verification_tokens::user_id,
            ))
            .get_result(c)
            .await
            .optional()
    })
}

/// The token `token_hash` if it is for `purpose`, unused and unexpired at `at`, without
/// using it (a flow checks the link before doing slow work; [`consume_token`] still decides).
pub async fn find_usable_token(
    conn: &mut DbConn<'_>,
    purpose: &str,
    token_hash: &str,
    at: NaiveDateTime,
) -> QueryResult<Option<UsedToken>> {
    with_conn!(conn, |c| verification_tokens::table
        .filter(verification_tokens::token_hash.eq(token_hash))
        .filter(verification_tokens::purpose.eq(purpose))
        .filter(verification_tokens::used_at.is_null())
        .filter(verification_tokens::expires_at.gt(at))
        .select((
            verification_tokens::identifier,
            verification_tokens::user_id,
        ))
        .first(c)
        .await
        .optional())
}

/// Marks every unused token of `user_id` for `purpose` used at `at`.
pub async fn spend_user_tokens(
    conn: &mut DbConn<'_>,
    purpose: &str,
    user_id: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(verification_tokens::table)
        .filter(verification_tokens::user_id.eq(user_id))
        .filter(verification_tokens::purpose.eq(purpose))
        .filter(verification_tokens::used_at.is_null())
        .set(verification_tokens::used_at.eq(at))
        .execute(c)
        .await)?;
    Ok(())
}
