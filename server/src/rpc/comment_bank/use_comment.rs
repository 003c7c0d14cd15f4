//! `commentBank.use`: a comment was inserted into feedback; counts the use (the bank and
//! the typeahead rank by it).

use crate::models::comment_bank;
use crate::models::now;
use crate::rpc::comment_bank::{not_found, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct UseBankCommentInput {
        pub id: String,
    }
}

rpc_type! {
    pub struct UsedBankComment {
        pub id: String,
        pub use_count: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: UseBankCommentInput) -> RpcResult<UsedBankComment> {
    let caller = Caller::of(ctx)?;
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        if comment_bank::find_usable(c, caller.owner(), &input.id)
            .await?
            .is_none()
        {
            return Err(not_found());
        }
        let use_count = comment_bank::record_use(c, &input.id, at).await?;
        Ok(UsedBankComment {
            id: input.id.clone(),
            use_count,
        })
    })
}
