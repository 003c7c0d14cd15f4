//! `commentBank.delete`: removes one of the caller's comments, or (for the school's
//! administrators) one of the school's.

use crate::models::comment_bank;
use crate::rpc::comment_bank::{not_found, Caller};
use crate::rpc::registry::True;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct DeleteBankCommentInput {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: DeleteBankCommentInput) -> RpcResult<True> {
    let caller = Caller::of(ctx)?;
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let found = comment_bank::find_in_school(c, &caller.school_id, &input.id).await?;
        if !found.is_some_and(|row| caller.may_change(&row)) {
            return Err(not_found());
        }
        comment_bank::delete(c, &input.id).await?;
        Ok(True)
    })
}
