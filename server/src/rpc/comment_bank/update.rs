//! `commentBank.update`: new text, sentiment and tags for one of the caller's comments, or
//! (for the school's administrators) one of the school's.

use crate::models::comment_bank;
use crate::models::now;
use crate::rpc::comment_bank::{check_comment, not_found, BankCommentView, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct UpdateBankCommentInput {
        pub id: String,
        pub text: String,
        pub sentiment: String,
        #[serde(default)]
        pub tags: Vec<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: UpdateBankCommentInput) -> RpcResult<BankCommentView> {
    let caller = Caller::of(ctx)?;
    let mut errors = FieldErrors::default();
    let checked = check_comment(&mut errors, &input.text, &input.sentiment, &input.tags);
    errors.into_result()?;
    let Some(checked) = checked else {
        return Err(RpcError::bad_request("Please check the comment."));
    };
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let found = comment_bank::find_in_school(c, &caller.school_id, &input.id).await?;
        let Some(mut row) = found.filter(|row| caller.may_change(row)) else {
            return Err(not_found());
        };
        if row.normalised != checked.normalised {
            let existing =
                comment_bank::normalised_texts(c, &caller.school_id, row.user_id.as_deref())
                    .await?;
            if existing.contains(&checked.normalised) {
                return Err(RpcError::field(
                    "text",
                    "The same comment is already in this comment bank.",
                ));
            }
        }
        comment_bank::update(
            c,
            &row.id,
            &checked.text,
            &checked.normalised,
            checked.sentiment,
            &checked.tags,
            at,
        )
        .await?;
        row.text = checked.text.clone();
        row.normalised = checked.normalised.clone();
        row.sentiment = checked.sentiment;
        row.tags = checked.tags.clone();
        row.updated_at = at;
        Ok(BankCommentView::of(&caller, row, None))
    })
}
