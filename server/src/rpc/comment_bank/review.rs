//! `commentBank.review`: a school administrator (ADMIN, ORG_ADMIN) approves a proposed
//! comment into the school's bank, or rejects it (the proposal is removed; the teacher's
//! personal comment stays).

use crate::models::comment_bank::{self, PROPOSED};
use crate::models::now;
use crate::rpc::comment_bank::{not_found, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct ReviewBankCommentInput {
        pub id: String,
        /// `true` approves, `false` rejects.
        pub approve: bool,
    }
}

rpc_type! {
    pub struct ReviewedBankComment {
        pub id: String,
        pub approved: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: ReviewBankCommentInput) -> RpcResult<ReviewedBankComment> {
    let caller = Caller::of(ctx)?;
    caller.require_curator()?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let found = comment_bank::find_in_school(c, &caller.school_id, &input.id).await?;
        if !found.is_some_and(|row| row.user_id.is_none() && row.status == PROPOSED) {
            return Err(not_found());
        }
        if input.approve {
            comment_bank::approve(c, &input.id, at).await?;
        } else {
            comment_bank::delete(c, &input.id).await?;
        }
        Ok(ReviewedBankComment {
            id: input.id.clone(),
            approved: input.approve,
        })
    })
}
