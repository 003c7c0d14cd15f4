//! `commentBank.propose`: the caller proposes one of their personal comments for the
//! school's bank. A copy waits as PROPOSED until an administrator approves or rejects it
//! (`commentBank.review`); the personal comment stays as it is.

use crate::ids::new_id;
use crate::models::comment_bank::{self, BankComment, PROPOSED};
use crate::models::now;
use crate::rpc::comment_bank::{check_room, not_found, BankCommentView, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct ProposeBankCommentInput {
        /// One of the caller's personal comments.
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: ProposeBankCommentInput) -> RpcResult<BankCommentView> {
    let caller = Caller::of(ctx)?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let found = comment_bank::find_in_school(c, &caller.school_id, &input.id).await?;
        let Some(personal) =
            found.filter(|row| row.user_id.as_deref() == Some(caller.user_id.as_str()))
        else {
            return Err(not_found());
        };
        let school = comment_bank::normalised_texts(c, &caller.school_id, None).await?;
        if school.contains(&personal.normalised) {
            return Err(RpcError::bad_request(
                "This comment is already in the school's comment bank or waiting for review.",
            ));
        }
        let held = comment_bank::count_owned(c, &caller.school_id, None).await?;
        check_room(held, 1)?;
        let row = BankComment {
            id: new_id(),
            user_id: None,
            proposed_by: Some(caller.user_id.clone()),
            status: PROPOSED.to_owned(),
            use_count: 0,
            last_used_at: None,
            created_at: at,
            updated_at: at,
            ..personal
        };
        comment_bank::insert(c, vec![row.clone()]).await?;
        Ok(BankCommentView::of(&caller, row, None))
    })
}
