//! `commentBank.search`: the Feedback box's typeahead. The comments the caller may use
//! (their own and their school's approved) that match what they are typing, best first:
//! by how they match (core-wasm `match_rank`: the comment starts with it, then a word
//! starts with it, then every typed word starts a word, then anywhere), then by use. At
//! most 8. Fewer than 3 letters typed answers nothing.

use core_wasm::comment_bank::{
    longest_query_word, match_rank, MAX_SEARCH_RESULTS, MIN_SEARCH_LETTERS,
};

use crate::db::like_pattern;
use crate::models::comment_bank;
use crate::rpc::comment_bank::{BankCommentView, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// The most candidates read from the database before ranking (most used first).
const MAX_CANDIDATES: i64 = 500;
/// Longest query looked at, in characters: a typed fragment, not a document.
const MAX_QUERY_CHARS: usize = 200;

rpc_type! {
    pub struct SearchBankInput {
        pub query: String,
    }
}

pub async fn handler(ctx: &Ctx, input: SearchBankInput) -> RpcResult<Vec<BankCommentView>> {
    let caller = Caller::of(ctx)?;
    let query: String = input.query.chars().take(MAX_QUERY_CHARS).collect();
    let letters = query.chars().filter(|c| c.is_alphanumeric()).count();
    let word = longest_query_word(&query);
    if letters < MIN_SEARCH_LETTERS || word.is_empty() {
        return Ok(Vec::new());
    }
    let mut pooled = ctx.conn().await?;
    let candidates = comment_bank::search_candidates(
        &mut pooled.db(),
        caller.owner(),
        &like_pattern(&word),
        MAX_CANDIDATES,
    )
    .await?;
    // Candidates come most used first; a stable sort by rank keeps that order within a rank.
    let mut ranked: Vec<(u8, comment_bank::BankComment)> = candidates
        .into_iter()
        .filter_map(|c| match_rank(&c.text, &query).map(|rank| (rank, c)))
        .collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    Ok(ranked
        .into_iter()
        .take(MAX_SEARCH_RESULTS)
        .map(|(_, c)| BankCommentView::of(&caller, c, None))
        .collect())
}
