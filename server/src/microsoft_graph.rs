//! A staff member's connection to Microsoft 365 for a task's content (issue 13 point 5):
//! the delegated Graph tokens from 'Connect Microsoft account', kept sealed in `accounts`
//! (`crypto::SecretBox`), refreshed before they expire, and forgotten on disconnect. The
//! connect and callback routes are in `auth/routes/microsoft_connect.rs`; Graph itself is
//! `providers::msgraph`.

use chrono::Utc;

use crate::models::accounts::{self, SealedTokens};
use crate::models::now;
use crate::providers::microsoft::{MicrosoftError, TokenAnswer, GRAPH_SCOPE};
use crate::state::AppState;

/// The provider id the link is kept under (the same as Sign in with Microsoft's).
pub const PROVIDER: &str = "azure-ad";
/// An access token this close to expiry is refreshed first.
pub const REFRESH_MARGIN_SECONDS: i64 = 120;

/// Why no access token can be had for a user.
#[derive(Debug, thiserror::Error)]
pub enum GraphAccess {
    /// Microsoft 365 is not configured on this server.
    #[error("Microsoft 365 is not set up on this server")]
    NotConfigured,
    /// The user has not connected an account (or disconnected it).
    #[error("no Microsoft account is connected")]
    NotConnected,
    /// The refresh token was refused (revoked, expired, consent withdrawn): connect again.
    #[error("the Microsoft connection has expired: {0}")]
    Expired(String),
    /// Microsoft could not be reached or answered oddly: try again later.
    #[error("Microsoft could not be reached: {0}")]
    Unavailable(String),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
    #[error(transparent)]
    Pool(#[from] crate::db::DbError),
}

impl GraphAccess {
    /// The sentence a user reads.
    pub fn message(&self) -> &'static str {
        match self {
            GraphAccess::NotConfigured => MICROSOFT_NOT_SET_UP,
            GraphAccess::NotConnected => "Connect your Microsoft account first.",
            GraphAccess::Expired(_) => {
                "Your Microsoft connection has expired. Connect your Microsoft account again."
            }
            GraphAccess::Unavailable(_) => "Microsoft could not be reached. Try again later.",
            GraphAccess::Db(_) | GraphAccess::Pool(_) => "Something went wrong. Try again.",
        }
    }
}

/// What the content step says when the server has no Microsoft app registration.
pub const MICROSOFT_NOT_SET_UP: &str =
    "Microsoft 365 is not switched on for your school yet. Ask your administrator.";

/// The tokens of a token answer, sealed, with their expiry in unix seconds. A refresh
/// answer without a new refresh token keeps `previous_refresh`.
pub fn seal(
    state: &AppState,
    provider_account_id: &str,
    answer: &TokenAnswer,
    previous_refresh: Option<&str>,
) -> SealedTokens {
    let now = Utc::now().timestamp();
    SealedTokens {
        provider_account_id: provider_account_id.to_owned(),
        access_token: answer
            .access_token
            .as_deref()
            .map(|t| state.secrets.seal(t)),
        refresh_token: answer
            .refresh_token
            .as_deref()
            .map(|t| state.secrets.seal(t))
            .or_else(|| previous_refresh.map(str::to_owned)),
        expires_at: answer.expires_in.map(|s| now + s.clamp(0, 24 * 3600)),
    }
}

/// Whether `user_id` has connected a Microsoft account with Graph tokens.
pub async fn is_connected(state: &AppState, user_id: &str) -> Result<bool, GraphAccess> {
    let mut pooled = state.db.conn().await?;
    let tokens = accounts::sealed_tokens(&mut pooled.db(), user_id, PROVIDER).await?;
    Ok(tokens.is_some_and(|t| t.refresh_token.is_some() || t.access_token.is_some()))
}

/// A Graph access token for `user_id`, refreshed first when it expires within
/// [`REFRESH_MARGIN_SECONDS`] (the new tokens are stored sealed).
pub async fn access_token(state: &AppState, user_id: &str) -> Result<String, GraphAccess> {
    let Some(client) = state.providers.microsoft.as_ref() else {
        return Err(GraphAccess::NotConfigured);
    };
    let tokens = {
        let mut pooled = state.db.conn().await?;
        accounts::sealed_tokens(&mut pooled.db(), user_id, PROVIDER).await?
    };
    let Some(tokens) = tokens else {
        return Err(GraphAccess::NotConnected);
    };
    let open = |sealed: &Option<String>| sealed.as_deref().and_then(|s| state.secrets.open(s).ok());
    let fresh = tokens
        .expires_at
        .is_some_and(|at| at - Utc::now().timestamp() > REFRESH_MARGIN_SECONDS);
    if fresh {
        if let Some(access) = open(&tokens.access_token) {
            return Ok(access);
        }
    }
    let Some(refresh) = open(&tokens.refresh_token) else {
        return Err(GraphAccess::NotConnected);
    };
    let metadata = client.metadata().await.map_err(unavailable)?;
    let answer = client
        .refresh(&metadata, &refresh, GRAPH_SCOPE)
        .await
        .map_err(|err| match err {
            // `invalid_grant`: the refresh token was revoked or expired (AADSTS700082...).
            MicrosoftError::Answered { status: 400, ref error, .. } if error == "invalid_grant" => {
                GraphAccess::Expired(err.to_string())
            }
            other => unavailable(other),
        })?;
    let Some(access) = answer.access_token.clone() else {
        return Err(GraphAccess::Unavailable("the refresh answer has no access token".into()));
    };
    let sealed = seal(
        state,
        &tokens.provider_account_id,
        &answer,
        tokens.refresh_token.as_deref(),
    );
    let mut pooled = state.db.conn().await?;
    accounts::store_tokens(&mut pooled.db(), PROVIDER, &tokens.provider_account_id, &sealed, now())
        .await?;
    Ok(access)
}

fn unavailable(err: MicrosoftError) -> GraphAccess {
    GraphAccess::Unavailable(err.to_string())
}

/// Forgets `user_id`'s Graph tokens. Returns whether there were any.
pub async fn disconnect(state: &AppState, user_id: &str) -> Result<bool, GraphAccess> {
    let mut pooled = state.db.conn().await?;
    Ok(accounts::clear_tokens(&mut pooled.db(), user_id, PROVIDER).await? > 0)
}
