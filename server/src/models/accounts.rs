//! External sign-in links (`accounts`, the spec's Account entity): which Microsoft account
//! (provider `azure-ad`, its object id) belongs to which user. Sign in with Microsoft
//! stores no access or refresh token (docs/microsoft-signin.md); the token columns stay
//! empty until the Graph connection fills them, encrypted.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::accounts;
use crate::db::DbConn;
use crate::with_conn;

/// A link as sign-in reads it (no token columns).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = accounts)]
pub struct Account {
    pub user_id: String,
    pub type_: String,
    pub provider: String,
    pub provider_account_id: String,
    pub ext_expires_in: Option<i32>,
    pub token_type: Option<String>,
    pub scope: Option<String>,
    pub session_state: Option<String>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A new link; the token columns are left NULL.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = accounts)]
pub struct NewAccount<'a> {
    pub user_id: &'a str,
    pub type_: &'a str,
    pub provider: &'a str,
    pub provider_account_id: &'a str,
    pub ext_expires_in: Option<i32>,
    pub token_type: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub session_state: Option<&'a str>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// The link of `provider`'s account `provider_account_id`, whoever it belongs to.
pub async fn find_account(
    conn: &mut DbConn<'_>,
    provider: &str,
    provider_account_id: &str,
) -> QueryResult<Option<Account>> {
    with_conn!(conn, |c| accounts::table
        .find((provider, provider_account_id))
        .select(Account::as_select())
        .first(c)
        .await
        .optional())
}

/// The user's links with `provider`, oldest first.
pub async fn user_accounts(
    conn: &mut DbConn<'_>,
    user_id: &str,
    provider: &str,
) -> QueryResult<Vec<Account>> {
    with_conn!(conn, |c| accounts::table
        .filter(accounts::user_id.eq(user_id))
        .filter(accounts::provider.eq(provider))
        .order((accounts::created_at.asc(), accounts::provider_account_id.asc()))
        .select(Account::as_select())
        .load(c)
        .await)
}

/// Stores a new link.
pub async fn insert_account(conn: &mut DbConn<'_>, account: &NewAccount<'_>) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(accounts::table)
        .values(account.clone())
        .execute(c)
        .await)?;
    Ok(())
}

/// Refreshes an existing link's token details (never its owner).
pub async fn update_account_details(
    conn: &mut DbConn<'_>,
    account: &NewAccount<'_>,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(
        accounts::table.find((account.provider, account.provider_account_id))
    )
    .set((
        accounts::ext_expires_in.eq(account.ext_expires_in),
        accounts::token_type.eq(account.token_type),
        accounts::scope.eq(account.scope),
        accounts::session_state.eq(account.session_state),
        accounts::updated_at.eq(account.updated_at),
    ))
    .execute(c)
    .await)?;
    Ok(())
}

/// A user's Microsoft link with its Graph tokens, sealed (`crypto::SecretBox`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedTokens {
    pub provider_account_id: String,
    pub access_token: Option<String>,
    pub refresh_token: Option<String>,
    /// Unix seconds when the access token expires.
    pub expires_at: Option<i64>,
}

/// The Graph tokens of `user_id`'s link with `provider`, if they have one.
pub async fn sealed_tokens(
    conn: &mut DbConn<'_>,
    user_id: &str,
    provider: &str,
) -> QueryResult<Option<SealedTokens>> {
    let row: Option<(String, Option<String>, Option<String>, Option<i64>)> =
        with_conn!(conn, |c| accounts::table
            .filter(accounts::user_id.eq(user_id))
            .filter(accounts::provider.eq(provider))
            .order(accounts::updated_at.desc())
            .select((
                accounts::provider_account_id,
                accounts::access_token,
                accounts::refresh_token,
                accounts::expires_at,
            ))
            .first(c)
            .await
            .optional())?;
    Ok(row.map(|(id, access, refresh, expires_at)| SealedTokens {
        provider_account_id: id,
        access_token: access,
        refresh_token: refresh,
        expires_at,
    }))
}

/// Stores sealed Graph tokens on the link `(provider, provider_account_id)`.
pub async fn store_tokens(
    conn: &mut DbConn<'_>,
    provider: &str,
    provider_account_id: &str,
    tokens: &SealedTokens,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(
        accounts::table.find((provider, provider_account_id))
    )
    .set((
        accounts::access_token.eq(&tokens.access_token),
        accounts::refresh_token.eq(&tokens.refresh_token),
        accounts::expires_at.eq(tokens.expires_at),
        accounts::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(())
}

/// Forgets `user_id`'s Graph tokens (disconnect); the sign-in link stays.
pub async fn clear_tokens(conn: &mut DbConn<'_>, user_id: &str, provider: &str) -> QueryResult<usize> {
    with_conn!(conn, |c| diesel::update(
        accounts::table
            .filter(accounts::user_id.eq(user_id))
            .filter(accounts::provider.eq(provider))
    )
    .set((
        accounts::access_token.eq(None::<String>),
        accounts::refresh_token.eq(None::<String>),
        accounts::expires_at.eq(None::<i64>),
    ))
    .execute(c)
    .await)
}

/// Removes `user_id`'s links with `provider` other than `keep` (connecting another
/// Microsoft account replaces the old one).
pub async fn delete_other_links(
    conn: &mut DbConn<'_>,
    user_id: &str,
    provider: &str,
    keep: &str,
) -> QueryResult<usize> {
    with_conn!(conn, |c| diesel::delete(
        accounts::table
            .filter(accounts::user_id.eq(user_id))
            .filter(accounts::provider.eq(provider))
            .filter(accounts::provider_account_id.ne(keep))
    )
    .execute(c)
    .await)
}
