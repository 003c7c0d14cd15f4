//! `commentBank.add`: a new comment in the caller's personal bank (the page's 'Add
//! comment', and 'Save to comment bank' under any feedback), or, for the school's
//! administrators with `school`, straight into the school's bank.

use crate::ids::new_id;
use crate::models::comment_bank::{self, BankComment, ACTIVE};
use crate::models::now;
use crate::rpc::comment_bank::{check_comment, check_room, BankCommentView, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct AddBankCommentInput {
        pub text: String,
        pub sentiment: String,
        #[serde(default)]
        pub tags: Vec<String>,
        /// Into the school's bank (administrators only).
        #[serde(default)]
        pub school: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: AddBankCommentInput) -> RpcResult<BankCommentView> {
    let caller = Caller::of(ctx)?;
    if input.school {
        caller.require_curator()?;
    }
    let mut errors = FieldErrors::default();
    let checked = check_comment(&mut errors, &input.text, &input.sentiment, &input.tags);
    errors.into_result()?;
    let Some(checked) = checked else {
        return Err(RpcError::bad_request("Please check the comment."));
    };
    let owner = (!input.school).then(|| caller.user_id.clone());
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let held = comment_bank::count_owned(c, &caller.school_id, owner.as_deref()).await?;
        check_room(held, 1)?;
        let existing =
            comment_bank::normalised_texts(c, &caller.school_id, owner.as_deref()).await?;
        if existing.contains(&checked.normalised) {
            return Err(RpcError::field(
                "text",
                if input.school {
                    "This comment is already in the school's comment bank."
                } else {
                    "This comment is already in your comment bank."
                },
            ));
        }
        let row = BankComment {
            id: new_id(),
            school_id: caller.school_id.clone(),
            user_id: owner.clone(),
            proposed_by: None,
            text: checked.text.clone(),
            normalised: checked.normalised.clone(),
            sentiment: checked.sentiment,
            tags: checked.tags.clone(),
            status: ACTIVE.to_owned(),
            use_count: 0,
            last_used_at: None,
            created_at: at,
            updated_at: at,
        };
        comment_bank::insert(c, vec![row.clone()]).await?;
        Ok(BankCommentView::of(&caller, row, None))
    })
}
