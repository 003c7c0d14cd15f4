//! `feedback.*`: the Feedback Hub — submissions waiting for marking and marked ones — marking,
//! and when feedback reaches pupils (held marks: withdraw, release; docs/feedback-release.md).
//!
//! Who sees and marks what (`models::submissions::MarkerScope`): a teacher, the
//! submissions on notifications they sent; an admin, those on every notification of their
//! school. Anything outside the caller's scope is NOT_FOUND, so another school's work can
//! be neither read nor marked.

pub mod list;
pub mod list_more;
pub mod mark;
pub mod release;
pub mod withdraw;

use core_wasm::FeedbackSentiment;
use serde::{Deserialize, Serialize};

use crate::models::submissions::MarkerScope;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, RpcError, RpcResult};

/// A sentiment on the wire: `'NEUTRAL' | 'POSITIVE' | 'NEGATIVE'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SentimentName(pub FeedbackSentiment);

impl Ts for SentimentName {
    fn ts(_: &mut TsGen) -> String {
        FeedbackSentiment::ALL
            .iter()
            .map(|s| format!("'{}'", s.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// The caller's marking scope; staff without a school (superadmins) have none.
pub(crate) fn scope(ctx: &Ctx) -> RpcResult<MarkerScope> {
    let user = ctx.require_user()?;
    // Through the tenant helper, so the school always comes from the session.
    let _school = ctx.school_id()?;
    MarkerScope::for_user(user)
        .ok_or_else(|| RpcError::forbidden(crate::rpc::context::no_school_message(user.role)))
}
