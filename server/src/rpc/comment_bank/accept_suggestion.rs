//! `commentBank.acceptSuggestion`: 'Add' on a suggested phrase: it joins the caller's
//! personal bank (with the sentiment given, Neutral by default) and is not suggested again.

use crate::ids::new_id;
use crate::models::comment_bank::{self, BankComment, ACTIVE, ADDED};
use crate::models::now;
use crate::rpc::comment_bank::dismiss_suggestion::suggestion_not_found;
use crate::rpc::comment_bank::{check_comment, check_room, BankCommentView, Caller};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct AcceptSuggestionInput {
        pub id: String,
        /// `NEUTRAL` when left out.
        #[serde(default)]
        pub sentiment: Option<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: AcceptSuggestionInput) -> RpcResult<BankCommentView> {
    let caller = Caller::of(ctx)?;
    let sentiment = input.sentiment.unwrap_or_else(|| "NEUTRAL".to_owned());
    let at = now();
    let mut pooled = ctx.conn().await?;
    transaction!(&mut pooled.db(), |c| {
        let Some((sample, _)) =
            comment_bank::find_pending_phrase(c, caller.owner(), &input.id).await?
        else {
            return Err(suggestion_not_found());
        };
        let mut errors = FieldErrors::default();
        let checked = check_comment(&mut errors, &sample, &sentiment, &[]);
        errors.into_result()?;
        let Some(checked) = checked else {
            return Err(RpcError::bad_request("Please check the comment."));
        };
        let held = comment_bank::count_owned(c, &caller.school_id, Some(&caller.user_id)).await?;
        check_room(held, 1)?;
        let mine =
            comment_bank::normalised_texts(c, &caller.school_id, Some(&caller.user_id)).await?;
        let row = BankComment {
            id: new_id(),
            school_id: caller.school_id.clone(),
            user_id: Some(caller.user_id.clone()),
            proposed_by: None,
            text: checked.text,
            normalised: checked.normalised,
            sentiment: checked.sentiment,
            tags: String::new(),
            status: ACTIVE.to_owned(),
            use_count: 0,
            last_used_at: None,
            created_at: at,
            updated_at: at,
        };
        if !mine.contains(&row.normalised) {
            comment_bank::insert(c, vec![row.clone()]).await?;
        }
        comment_bank::answer_phrase(c, &input.id, ADDED, at).await?;
        Ok(BankCommentView::of(&caller, row, None))
    })
}
