//! `commentBank.list`: one part of the bank for the Comment bank page (the caller's own,
//! the school's approved, or the proposals waiting for review), optionally searched by
//! text or tag, most used or newest first. Capped at [`MAX_LISTED`] comments; `total`
//! says how many match, so the page can ask for a narrower search.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::db::like_pattern;
use crate::models::comment_bank::{self, Order};
use crate::rpc::comment_bank::{BankCommentView, Caller, ShelfName};
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

/// The most comments one listing returns.
pub const MAX_LISTED: i64 = 200;

/// A listing's order: `'USE' | 'NEWEST'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SortName {
    #[default]
    Use,
    Newest,
}

impl Ts for SortName {
    fn ts(_: &mut TsGen) -> String {
        "'USE' | 'NEWEST'".to_owned()
    }
}

rpc_type! {
    pub struct ListBankInput {
        pub shelf: ShelfName,
        #[serde(default)]
        pub search: String,
        #[serde(default)]
        pub sort: SortName,
    }
}

rpc_type! {
    pub struct BankListing {
        pub items: Vec<BankCommentView>,
        /// How many match in all (the items stop at 200).
        pub total: i64,
        /// Whether the caller reviews proposals and edits the school's bank.
        pub can_review: bool,
        /// Proposals waiting for review (0 for a caller who does not review).
        pub proposed_count: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: ListBankInput) -> RpcResult<BankListing> {
    let caller = Caller::of(ctx)?;
    if input.shelf == ShelfName::Proposed {
        caller.require_curator()?;
    }
    let pattern = Some(input.search.trim())
        .filter(|s| !s.is_empty())
        .map(like_pattern);
    let order = match input.sort {
        SortName::Use => Order::Use,
        SortName::Newest => Order::Newest,
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (rows, total) = comment_bank::list(
        &mut conn,
        caller.owner(),
        input.shelf.into(),
        pattern.as_deref(),
        order,
        MAX_LISTED,
    )
    .await?;
    let proposers: Vec<String> = rows.iter().filter_map(|r| r.proposed_by.clone()).collect();
    let names: HashMap<String, String> =
        comment_bank::author_names(&mut conn, &caller.school_id, &proposers)
            .await?
            .into_iter()
            .collect();
    let proposed_count = if caller.curator {
        comment_bank::proposed_count(&mut conn, &caller.school_id).await?
    } else {
        0
    };
    let items = rows
        .into_iter()
        .map(|row| {
            let by = row
                .proposed_by
                .as_ref()
                .and_then(|id| names.get(id).cloned());
            BankCommentView::of(&caller, row, by)
        })
        .collect();
    Ok(BankListing {
        items,
        total,
        can_review: caller.curator,
        proposed_count,
    })
}
