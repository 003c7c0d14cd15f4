//! `commentBank.suggestions`: the three-times rule's pending suggestions for the caller —
//! phrases they wrote in feedback three times or more (counted when a mark is saved,
//! `models::comment_bank::record_phrases`), not yet in their bank or the school's, not
//! answered with Add or Not now. The client asks after marking; the Hub shows the first.

use crate::models::comment_bank;
use crate::rpc::comment_bank::Caller;
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// The most suggestions one answer carries.
const MAX_SUGGESTIONS: i64 = 5;

rpc_type! {
    pub struct PhraseSuggestionView {
        pub id: String,
        /// The phrase as the teacher first wrote it.
        pub text: String,
        /// How many marks it appeared in.
        pub count: i64,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<PhraseSuggestionView>> {
    let caller = Caller::of(ctx)?;
    let mut pooled = ctx.conn().await?;
    let pending =
        comment_bank::pending_suggestions(&mut pooled.db(), caller.owner(), MAX_SUGGESTIONS)
            .await?;
    Ok(pending
        .into_iter()
        .map(|p| PhraseSuggestionView {
            id: p.id,
            text: p.sample,
            count: p.count,
        })
        .collect())
}
