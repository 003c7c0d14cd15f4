//! `submission.getDeepgramKey`: a short-lived credential for live dictation. The server keeps
//! the Deepgram API key and asks Deepgram for a token the browser uses to open the live
//! socket (`new WebSocket(listenUrl + '?…', [scheme, key])`). Any signed-in user; minting is
//! rate-limited per user.

use chrono::{Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::auth::rate_limit::WINDOW;
use crate::providers::speech::TOKEN_TTL_SECONDS;
use crate::providers::ProviderError;
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// Shown when live dictation is not configured.
pub const NOT_CONFIGURED: &str =
    "Live dictation is not switched on for your school yet. Ask your administrator.";
/// Credentials one user may mint within the limiter's window (15 minutes): far more than
/// dictation needs (one per session, at most 15 minutes each), few enough to stop a loop.
pub const MINT_LIMIT: usize = 120;

/// How the browser presents the key: the WebSocket subprotocol pair `[scheme, key]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyScheme {
    /// A temporary token from `/v1/auth/grant`.
    Bearer,
    /// A (temporary) API key.
    Token,
}

impl Ts for KeyScheme {
    fn ts(_: &mut TsGen) -> String {
        "'bearer' | 'token'".into()
    }
}

rpc_type! {
    pub struct DeepgramKey {
        pub key: String,
        pub scheme: KeyScheme,
        /// `wss://…/v1/listen`: the browser adds the query parameters.
        pub listen_url: String,
        /// The key cannot open a socket after this (an open one keeps going).
        pub expires_at: JsDate,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<DeepgramKey> {
    let user_id = ctx.require_user()?.id.clone();
    let speech = ctx
        .state
        .providers
        .speech
        .clone()
        .ok_or_else(|| RpcError::new(ErrorCode::PreconditionFailed, NOT_CONFIGURED))?;
    let limiter = &ctx.state.auth.limiter;
    if !limiter.try_acquire(&format!("dictation:{user_id}"), MINT_LIMIT).await {
        return Err(RpcError::new(
            ErrorCode::TooManyRequests,
            format!(
                "Too many dictation sessions were started. Please wait {} minutes and try again.",
                WINDOW.as_secs() / 60
            ),
        ));
    }
    let grant = speech.grant(TOKEN_TTL_SECONDS).await.map_err(user_error)?;
    Ok(DeepgramKey {
        key: grant.access_token,
        scheme: KeyScheme::Bearer,
        listen_url: speech.listen_url(),
        expires_at: JsDate(Utc::now() + Duration::milliseconds((grant.expires_in * 1000.0) as i64)),
    })
}

/// A provider failure as the teacher reads it; the specifics go to the log.
fn user_error(err: ProviderError) -> RpcError {
    let message = match &err {
        ProviderError::Answered { message, .. } | ProviderError::Declined(message) => {
            format!("The speech service answered: {message}")
        }
        ProviderError::Unreachable(_) => {
            "Could not reach the speech service. Please try again later.".to_owned()
        }
        ProviderError::TimedOut => {
            "The speech service took too long to answer. Please try again.".to_owned()
        }
        ProviderError::Malformed(_) => {
            "The speech service sent an answer Voicemark could not read.".to_owned()
        }
    };
    RpcError {
        code: ErrorCode::InternalServerError,
        message,
        fields: None,
        detail: Some(format!("speech: {err}")),
    }
}
