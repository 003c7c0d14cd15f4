//! The comment bank (`bank_comments`: personal comments and a school's shared bank) and the
//! three-times rule's phrase counts (`phrase_counts`). Who may see or change which row is
//! decided here by [`BankOwner`]: every query is scoped to the caller's school.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use core_wasm::comment_bank::{countable_phrases, SUGGEST_AFTER_USES};
use core_wasm::FeedbackSentiment;
use diesel::dsl::not;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{bank_comments, phrase_counts, users};
use crate::db::{lower, DbConn};
use crate::ids::new_id;
use crate::{batch_insert, with_conn};

/// A comment in use: personal, or approved for the school's bank.
pub const ACTIVE: &str = "ACTIVE";
/// A school comment a teacher proposed, waiting for an admin.
pub const PROPOSED: &str = "PROPOSED";

/// A phrase still being counted (or suggested, once counted often enough).
pub const COUNTING: &str = "COUNTING";
/// A suggested phrase the teacher added to their bank.
pub const ADDED: &str = "ADDED";
/// A suggested phrase the teacher turned down ('Not now'): never suggested again.
pub const DISMISSED: &str = "DISMISSED";

/// A bank comment as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = bank_comments)]
pub struct BankComment {
    pub id: String,
    pub school_id: String,
    /// The owner of a personal comment; `None` for the school's bank.
    pub user_id: Option<String>,
    /// Who proposed a school comment.
    pub proposed_by: Option<String>,
    pub text: String,
    pub normalised: String,
    pub sentiment: FeedbackSentiment,
    /// Written form: "English; Year 7".
    pub tags: String,
    pub status: String,
    pub use_count: i64,
    pub last_used_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// Columns of [`BankComment`], for batch inserts.
const COLUMNS: usize = 13;

/// The caller as the bank sees them: their school and themselves.
#[derive(Debug, Clone, Copy)]
pub struct BankOwner<'a> {
    pub school_id: &'a str,
    pub user_id: &'a str,
}

/// Which rows a listing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    /// The caller's personal comments.
    Mine,
    /// The school's approved comments.
    School,
    /// The school's proposals waiting for review.
    Proposed,
}

/// A listing's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Most used first (then most recently used).
    Use,
    /// Newest first.
    Newest,
}

/// Rows the caller may use: their own, and their school's approved ones.
macro_rules! usable {
    ($owner:expr) => {
        bank_comments::table
            .filter(bank_comments::school_id.eq($owner.school_id))
            .filter(
                bank_comments::user_id
                    .eq($owner.user_id)
                    .or(bank_comments::user_id
                        .is_null()
                        .and(bank_comments::status.eq(ACTIVE))),
            )
    };
}

/// Rows of one shelf.
macro_rules! shelf {
    ($owner:expr, $shelf:expr) => {{
        let query = bank_comments::table
            .filter(bank_comments::school_id.eq($owner.school_id))
            .into_boxed();
        match $shelf {
            Shelf::Mine => query.filter(bank_comments::user_id.eq($owner.user_id)),
            Shelf::School => query
                .filter(bank_comments::user_id.is_null())
                .filter(bank_comments::status.eq(ACTIVE)),
            Shelf::Proposed => query
                .filter(bank_comments::user_id.is_null())
                .filter(bank_comments::status.eq(PROPOSED)),
        }
    }};
}

/// One shelf, optionally only comments whose text or tags contain `pattern` (a
/// [`like_pattern`](crate::db::like_pattern)), in `order`, at most `limit`; and how many
/// match in all.
pub async fn list(
    conn: &mut DbConn<'_>,
    owner: BankOwner<'_>,
    shelf: Shelf,
    pattern: Option<&str>,
    order: Order,
    limit: i64,
) -> QueryResult<(Vec<BankComment>, i64)> {
    macro_rules! filtered {
        () => {{
            let mut query = shelf!(owner, shelf);
            if let Some(p) = pattern {
                query = query.filter(
                    lower(bank_comments::text)
                        .like(p.to_owned())
                        .escape('\\')
                        .or(lower(bank_comments::tags).like(p.to_owned()).escape('\\')),
                );
            }
            query
        }};
    }
    let total: i64 = with_conn!(conn, |c| filtered!().count().get_result(c).await)?;
    let rows = match order {
        Order::Use => with_conn!(conn, |c| filtered!()
            .order((
                bank_comments::use_count.desc(),
                bank_comments::last_used_at.desc(),
                bank_comments::id.desc()
            ))
            .limit(limit)
            .select(BankComment::as_select())
            .load(c)
            .await)?,
        Order::Newest => with_conn!(conn, |c| filtered!()
            .order((bank_comments::created_at.desc(), bank_comments::id.desc()))
            .limit(limit)
            .select(BankComment::as_select())
            .load(c)
            .await)?,
    };
    Ok((rows, total))
}

/// How many comments wait for review in the school.
pub async fn proposed_count(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<i64> {
    with_conn!(conn, |c| bank_comments::table
        .filter(bank_comments::school_id.eq(school_id))
        .filter(bank_comments::user_id.is_null())
        .filter(bank_comments::status.eq(PROPOSED))
        .count()
        .get_result(c)
        .await)
}

/// The usable comments whose text contains `pattern` (a LIKE pattern over the lower-cased
/// text), most used first, at most `limit`: the typeahead ranks these.
pub async fn search_candidates(
    conn: &mut DbConn<'_>,
    owner: BankOwner<'_>,
    pattern: &str,
    limit: i64,
) -> QueryResult<Vec<BankComment>> {
    with_conn!(conn, |c| usable!(owner)
        .filter(lower(bank_comments::text).like(pattern).escape('\\'))
        .order((
            bank_comments::use_count.desc(),
            bank_comments::last_used_at.desc(),
            bank_comments::id.desc()
        ))
        .limit(limit)
        .select(BankComment::as_select())
        .load(c)
        .await)
}

/// The comment `id` if the caller may use it (their own, or the school's approved).
pub async fn find_usable(
    conn: &mut DbConn<'_>,
    owner: BankOwner<'_>,
    id: &str,
) -> QueryResult<Option<BankComment>> {
    with_conn!(conn, |c| usable!(owner)
        .filter(bank_comments::id.eq(id))
        .select(BankComment::as_select())
        .first(c)
        .await
        .optional())
}

/// The comment `id` of school `school_id` (any owner, any status), for an admin's review.
pub async fn find_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<BankComment>> {
    with_conn!(conn, |c| bank_comments::table
        .filter(bank_comments::school_id.eq(school_id))
        .filter(bank_comments::id.eq(id))
        .select(BankComment::as_select())
        .first(c)
        .await
        .optional())
}

/// Writes new comments; answers how many.
pub async fn insert(conn: &mut DbConn<'_>, rows: Vec<BankComment>) -> QueryResult<usize> {
    batch_insert!(conn, bank_comments::table, rows, columns = COLUMNS)
}

/// Changes a comment's text, sentiment and tags.
pub async fn update(
    conn: &mut DbConn<'_>,
    id: &str,
    text: &str,
    normalised: &str,
    sentiment: FeedbackSentiment,
    tags: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(bank_comments::table.find(id))
        .set((
            bank_comments::text.eq(text),
            bank_comments::normalised.eq(normalised),
            bank_comments::sentiment.eq(sentiment),
            bank_comments::tags.eq(tags),
            bank_comments::updated_at.eq(at),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// Removes a comment.
pub async fn delete(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(bank_comments::table.find(id))
        .execute(c)
        .await)?;
    Ok(())
}

/// Counts one use of comment `id` (it was inserted into feedback).
pub async fn record_use(conn: &mut DbConn<'_>, id: &str, at: NaiveDateTime) -> QueryResult<i64> {
    with_conn!(conn, |c| diesel::update(bank_comments::table.find(id))
        .set((
            bank_comments::use_count.eq(bank_comments::use_count + 1),
            bank_comments::last_used_at.eq(Some(at)),
        ))
        .returning(bank_comments::use_count)
        .get_result(c)
        .await)
}

/// Approves a proposal (status ACTIVE).
pub async fn approve(conn: &mut DbConn<'_>, id: &str, at: NaiveDateTime) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(bank_comments::table.find(id))
        .set((
            bank_comments::status.eq(ACTIVE),
            bank_comments::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// How many comments a shelf holds: the caller's personal bank (`Some(user)`) or the
/// school's (approved and proposed).
pub async fn count_owned(
    conn: &mut DbConn<'_>,
    school_id: &str,
    user_id: Option<&str>,
) -> QueryResult<i64> {
    with_conn!(conn, |c| {
        let query = bank_comments::table
            .filter(bank_comments::school_id.eq(school_id))
            .into_boxed();
        let query = match user_id {
            Some(user) => query.filter(bank_comments::user_id.eq(user.to_owned())),
            None => query.filter(bank_comments::user_id.is_null()),
        };
        query.count().get_result(c).await
    })
}

/// The normalised texts already in a shelf (the caller's personal bank, or the school's,
/// approved and proposed): a comment is not added twice.
pub async fn normalised_texts(
    conn: &mut DbConn<'_>,
    school_id: &str,
    user_id: Option<&str>,
) -> QueryResult<HashSet<String>> {
    let texts: Vec<String> = with_conn!(conn, |c| {
        let query = bank_comments::table
            .filter(bank_comments::school_id.eq(school_id))
            .into_boxed();
        let query = match user_id {
            Some(user) => query.filter(bank_comments::user_id.eq(user.to_owned())),
            None => query.filter(bank_comments::user_id.is_null()),
        };
        query.select(bank_comments::normalised).load(c).await
    })?;
    Ok(texts.into_iter().collect())
}

/// Names ("Forename Surname") of users by id, for the proposals' authors.
pub async fn author_names(
    conn: &mut DbConn<'_>,
    school_id: &str,
    ids: &[String],
) -> QueryResult<Vec<(String, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(String, String, String)> = with_conn!(conn, |c| users::table
        .filter(users::id.eq_any(ids))
        .filter(users::school_id.eq(school_id))
        .select((users::id, users::forename, users::surname))
        .load(c)
        .await)?;
    Ok(rows
        .into_iter()
        .map(|(id, forename, surname)| (id, format!("{forename} {surname}")))
        .collect())
}

/// Counts the phrases of `feedback` the teacher `user_id` just saved (the three-times rule;
/// core-wasm's `countable_phrases`): one more for each, however often it repeats in this
/// feedback. Runs inside the mark's transaction.
pub async fn record_phrases(
    conn: &mut DbConn<'_>,
    school_id: &str,
    user_id: &str,
    feedback: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    for (normalised, sample) in countable_phrases(feedback) {
        with_conn!(conn, |c| diesel::insert_into(phrase_counts::table)
            .values((
                phrase_counts::id.eq(new_id()),
                phrase_counts::school_id.eq(school_id),
                phrase_counts::user_id.eq(user_id),
                phrase_counts::normalised.eq(&normalised),
                phrase_counts::sample.eq(&sample),
                phrase_counts::count.eq(1_i64),
                phrase_counts::state.eq(COUNTING),
                phrase_counts::created_at.eq(at),
                phrase_counts::updated_at.eq(at),
            ))
            .on_conflict((phrase_counts::user_id, phrase_counts::normalised))
            .do_update()
            .set((
                phrase_counts::count.eq(phrase_counts::count + 1),
                phrase_counts::updated_at.eq(at),
            ))
            .execute(c)
            .await)?;
    }
    Ok(())
}

/// Forgets the phrases counted from `feedbacks` (an erased pupil's feedback) at `school_id`,
/// for every teacher: a phrase's kept wording may name the pupil, and no count can say which
/// pupils it came from, so the whole count goes (it starts again from the next use).
pub async fn forget_phrases(
    conn: &mut DbConn<'_>,
    school_id: &str,
    feedbacks: &[String],
) -> QueryResult<()> {
    let phrases: Vec<String> = feedbacks
        .iter()
        .flat_map(|feedback| countable_phrases(feedback))
        .map(|(normalised, _)| normalised)
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    for chunk in phrases.chunks(500) {
        with_conn!(conn, |c| diesel::delete(
            phrase_counts::table
                .filter(phrase_counts::school_id.eq(school_id))
                .filter(phrase_counts::normalised.eq_any(chunk))
        )
        .execute(c)
        .await)?;
    }
    Ok(())
}

/// A phrase written often enough to suggest.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct PhraseSuggestion {
    pub id: String,
    pub sample: String,
    pub count: i64,
}

/// The caller's pending suggestions, most written first: phrases written at least
/// [`SUGGEST_AFTER_USES`] times, neither added nor dismissed, and not already in their
/// bank or the school's.
pub async fn pending_suggestions(
    conn: &mut DbConn<'_>,
    owner: BankOwner<'_>,
    limit: i64,
) -> QueryResult<Vec<PhraseSuggestion>> {
    with_conn!(conn, |c| phrase_counts::table
        .filter(phrase_counts::school_id.eq(owner.school_id))
        .filter(phrase_counts::user_id.eq(owner.user_id))
        .filter(phrase_counts::state.eq(COUNTING))
        .filter(phrase_counts::count.ge(SUGGEST_AFTER_USES))
        .filter(not(phrase_counts::normalised.eq_any(
            bank_comments::table
                .filter(bank_comments::school_id.eq(owner.school_id))
                .filter(
                    bank_comments::user_id
                        .eq(owner.user_id)
                        .or(bank_comments::user_id.is_null())
                )
                .select(bank_comments::normalised)
        )))
        .order((
            phrase_counts::count.desc(),
            phrase_counts::updated_at.desc()
        ))
        .limit(limit)
        .select((
            phrase_counts::id,
            phrase_counts::sample,
            phrase_counts::count
        ))
        .load(c)
        .await)
}

/// The caller's phrase `id` still waiting for an answer: (sample, normalised).
pub async fn find_pending_phrase(
    conn: &mut DbConn<'_>,
    owner: BankOwner<'_>,
    id: &str,
) -> QueryResult<Option<(String, String)>> {
    with_conn!(conn, |c| phrase_counts::table
        .filter(phrase_counts::id.eq(id))
        .filter(phrase_counts::school_id.eq(owner.school_id))
        .filter(phrase_counts::user_id.eq(owner.user_id))
        .filter(phrase_counts::state.eq(COUNTING))
        .select((phrase_counts::sample, phrase_counts::normalised))
        .first(c)
        .await
        .optional())
}

/// Records the teacher's answer to a suggestion ([`ADDED`] or [`DISMISSED`]).
pub async fn answer_phrase(
    conn: &mut DbConn<'_>,
    id: &str,
    state: &'static str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(phrase_counts::table.find(id))
        .set((
            phrase_counts::state.eq(state),
            phrase_counts::updated_at.eq(at)
        ))
        .execute(c)
        .await)?;
    Ok(())
}
