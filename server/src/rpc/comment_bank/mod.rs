//! `commentBank.*`: the comment bank (docs/comment-bank.md). Each member of staff has a
//! personal bank; their school has a shared one that its admins (ADMIN, ORG_ADMIN) curate
//! and teachers propose to. A caller sees their own comments and their school's approved
//! ones; anything else (another teacher's, another school's) is NOT_FOUND.

pub mod accept_suggestion;
pub mod add;
pub mod delete;
pub mod dismiss_suggestion;
pub mod export_csv;
pub mod import_csv;
pub mod list;
pub mod propose;
pub mod review;
pub mod search;
pub mod suggestions;
pub mod update;
pub mod use_comment;

use core_wasm::comment_bank::{
    normalise_phrase, parse_tags, MAX_BANK_COMMENTS, MAX_BANK_COMMENT_CHARS,
};
use core_wasm::roles::has_role;
use core_wasm::{FeedbackSentiment, UserRole};
use serde::{Deserialize, Serialize};

use crate::models::comment_bank::{self, BankComment, BankOwner, ACTIVE};
use crate::rpc::feedback::SentimentName;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "commentBank.acceptSuggestion" => accept_suggestion),
        procedure!(Mutation "commentBank.add" => add),
        procedure!(Mutation "commentBank.delete" => delete),
        procedure!(Mutation "commentBank.dismissSuggestion" => dismiss_suggestion),
        procedure!(Query "commentBank.exportCsv" => export_csv),
        procedure!(Mutation "commentBank.importCsv" => import_csv),
        procedure!(Query "commentBank.list" => list),
        procedure!(Mutation "commentBank.propose" => propose),
        procedure!(Mutation "commentBank.review" => review),
        procedure!(Query "commentBank.search" => search),
        procedure!(Query "commentBank.suggestions" => suggestions),
        procedure!(Mutation "commentBank.update" => update),
        procedure!(Mutation "commentBank.use" => use_comment),
    ]
}

/// The roles that curate a school's bank.
pub const CURATORS: &[UserRole] = &[UserRole::Admin, UserRole::OrgAdmin];

/// The caller in the bank: their school, themselves, and whether they curate the school's
/// bank. Staff without a school (a superadmin who chose none) are refused.
pub struct Caller {
    pub school_id: String,
    pub user_id: String,
    pub curator: bool,
}

impl Caller {
    pub fn of(ctx: &Ctx) -> RpcResult<Caller> {
        let user = ctx.require_user()?;
        let school_id = ctx.school_id()?.to_owned();
        Ok(Caller {
            school_id,
            user_id: user.id.clone(),
            curator: has_role(user.role, CURATORS),
        })
    }

    pub fn owner(&self) -> BankOwner<'_> {
        BankOwner {
            school_id: &self.school_id,
            user_id: &self.user_id,
        }
    }

    /// Refuses a caller who does not curate the school's bank.
    pub fn require_curator(&self) -> RpcResult<()> {
        if self.curator {
            Ok(())
        } else {
            Err(RpcError::forbidden(
                "Only your school's administrators can change the school's comment bank.",
            ))
        }
    }

    /// Whether the caller may edit or delete `comment`: their own, or (for curators) the
    /// school's.
    pub fn may_change(&self, comment: &BankComment) -> bool {
        match &comment.user_id {
            Some(owner) => *owner == self.user_id,
            None => self.curator,
        }
    }
}

pub fn not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Comment not found.")
}

/// Which part of the bank: `'MINE' | 'SCHOOL' | 'PROPOSED'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ShelfName {
    Mine,
    School,
    Proposed,
}

impl Ts for ShelfName {
    fn ts(_: &mut TsGen) -> String {
        "'MINE' | 'SCHOOL' | 'PROPOSED'".to_owned()
    }
}

impl From<ShelfName> for comment_bank::Shelf {
    fn from(name: ShelfName) -> Self {
        match name {
            ShelfName::Mine => comment_bank::Shelf::Mine,
            ShelfName::School => comment_bank::Shelf::School,
            ShelfName::Proposed => comment_bank::Shelf::Proposed,
        }
    }
}

rpc_type! {
    /// A bank comment as the page and the typeahead show it.
    pub struct BankCommentView {
        pub id: String,
        pub text: String,
        pub sentiment: SentimentName,
        pub tags: Vec<String>,
        pub use_count: i64,
        pub last_used_at: Option<JsDate>,
        pub created_at: JsDate,
        /// `MINE` for a personal comment, `SCHOOL` for the school's, `PROPOSED` for a
        /// proposal waiting for review.
        pub shelf: ShelfName,
        /// Who proposed a school comment.
        pub proposed_by: Option<String>,
        /// Whether the caller may edit and delete it.
        pub can_change: bool,
    }
}

impl BankCommentView {
    pub fn of(caller: &Caller, comment: BankComment, proposed_by: Option<String>) -> Self {
        let shelf = match (&comment.user_id, comment.status.as_str()) {
            (Some(_), _) => ShelfName::Mine,
            (None, ACTIVE) => ShelfName::School,
            (None, _) => ShelfName::Proposed,
        };
        let can_change = caller.may_change(&comment);
        let tags = split_stored_tags(&comment.tags);
        BankCommentView {
            id: comment.id,
            text: comment.text,
            sentiment: SentimentName(comment.sentiment),
            tags,
            use_count: comment.use_count,
            last_used_at: comment.last_used_at.map(Into::into),
            created_at: comment.created_at.into(),
            shelf,
            proposed_by,
            can_change,
        }
    }
}

/// Stored tags ("English; Year 7") as a list.
pub fn split_stored_tags(stored: &str) -> Vec<String> {
    stored
        .split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A comment's checked fields: (text, normalised, sentiment, stored tags).
pub struct CheckedComment {
    pub text: String,
    pub normalised: String,
    pub sentiment: FeedbackSentiment,
    pub tags: String,
}

/// Checks a comment's text, sentiment and tags, adding each problem to `errors` under its
/// field; `None` when any was refused.
pub fn check_comment(
    errors: &mut FieldErrors,
    text: &str,
    sentiment: &str,
    tags: &[String],
) -> Option<CheckedComment> {
    let text = text.trim();
    if text.is_empty() {
        errors.add("text", "Write the comment.");
    } else if text.chars().count() > MAX_BANK_COMMENT_CHARS {
        errors.add(
            "text",
            core_wasm::limits::too_long_message(MAX_BANK_COMMENT_CHARS),
        );
    }
    let sentiment = sentiment.parse::<FeedbackSentiment>().ok();
    if sentiment.is_none() {
        errors.add("sentiment", "Choose Neutral, Positive or Negative.");
    }
    let tags = match parse_tags(&tags.join(";")) {
        Ok(tags) => Some(tags),
        Err(message) => {
            errors.add("tags", message);
            None
        }
    };
    if !errors.is_empty() {
        return None;
    }
    Some(CheckedComment {
        text: text.to_owned(),
        normalised: normalise_phrase(text),
        sentiment: sentiment?,
        tags: core_wasm::comment_bank::join_tags(&tags?),
    })
}

/// Refuses a new comment when its shelf is full.
pub fn check_room(held: i64, adding: usize) -> RpcResult<()> {
    let held = usize::try_from(held).unwrap_or(usize::MAX);
    if held.saturating_add(adding) > MAX_BANK_COMMENTS {
        return Err(RpcError::bad_request(format!(
            "A comment bank holds at most {} comments. Delete some you no longer use first.",
            group_thousands(MAX_BANK_COMMENTS)
        )));
    }
    Ok(())
}

/// 5000 as "5,000".
pub fn group_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
