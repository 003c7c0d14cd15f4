//! `commentBank.dismissSuggestion`: 'Not now' on a suggested phrase. It is never suggested
//! again, however often it is written.

use crate::models::comment_bank::{self, DISMISSED};
use crate::models::now;
use crate::rpc::comment_bank::Caller;
use crate::rpc::registry::True;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct SuggestionInput {
        pub id: String,
    }
}

pub fn suggestion_not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Suggestion not found.")
}

pub async fn handler(ctx: &Ctx, input: SuggestionInput) -> RpcResult<True> {
    let caller = Caller::of(ctx)?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        if comment_bank::find_pending_phrase(c, caller.owner(), &input.id)
            .await?
            .is_none()
        {
            return Err(suggestion_not_found());
        }
        comment_bank::answer_phrase(c, &input.id, DISMISSED, at).await?;
        Ok(True)
    })
}
