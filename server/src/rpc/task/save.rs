//! `task.save`: "Save as draft" (and every save after): the title and tags when given, and
//! the changed answers, in one transaction. Each answer is a compare-and-set on its
//! version: one someone else changed since `baseVersion` (0: there was no answer) is not
//! written and comes back in `conflicts` with their text, so nobody's work is lost silently;
//! saving again with `theirVersion` as the base keeps the caller's text. Saving a submitted
//! task keeps it submitted.

use std::collections::HashSet;

use serde::Deserialize;

use super::get::{answer_views, AnswerView};
use super::{check_tags, check_title, require_task};
use crate::models::task_submissions::{self, SetAnswer};
use crate::models::{now, templates};
use crate::rpc::idempotent::{IdempotencyKey, Once};
use crate::rpc::input::check_length;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// Longest answer, in characters.
pub const MAX_ANSWER_CHARS: usize = core_wasm::limits::MAX_ANSWER_CHARS;

rpc_type! {
    /// One answer to store, over the version it was edited from.
    pub struct AnswerInput {
        pub question_id: String,
        pub answer: String,
        pub base_version: i32,
    }
}

/// `{id, title?, tags?, answers}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveTaskInput {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    #[serde(default)]
    pub answers: Vec<AnswerInput>,
    /// The outbox's key: a replay answers as the first call did.
    #[serde(default)]
    pub idempotency_key: IdempotencyKey,
}

impl Ts for SaveTaskInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("SaveTaskInput", |gen| {
            vec![
                ("id".into(), String::ts(gen)),
                ("title?".into(), Option::<String>::ts(gen)),
                ("tags?".into(), Option::<Vec<String>>::ts(gen)),
                ("answers".into(), Vec::<AnswerInput>::ts(gen)),
                ("idempotencyKey?".into(), IdempotencyKey::ts(gen)),
            ]
        });
        "SaveTaskInput".into()
    }
}

rpc_type! {
    /// An answer that was not saved: someone else changed it first.
    pub struct AnswerConflict {
        pub question_id: String,
        pub their_answer: String,
        pub their_version: i32,
        pub updated_by_name: Option<String>,
    }
}

rpc_type! {
    /// Every answer as stored now, and the ones not saved.
    pub struct SaveTaskResult {
        pub answers: Vec<AnswerView>,
        pub conflicts: Vec<AnswerConflict>,
        pub updated_at: JsDate,
    }
}

pub async fn handler(ctx: &Ctx, input: SaveTaskInput) -> RpcResult<SaveTaskResult> {
    let user = ctx.require_user()?;
    let once = Once::new(ctx, &input.idempotency_key)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if let Some(first) = once.replay(&mut conn).await? {
        return Ok(first);
    }
    let mut errors = FieldErrors::default();
    let title = input.title.as_deref().map(|t| check_title(&mut errors, t));
    let tags = input.tags.as_deref().map(|t| check_tags(&mut errors, t));
    let mut seen = HashSet::new();
    for answer in &input.answers {
        let field = format!("answers.{}", answer.question_id);
        check_length(&mut errors, &field, &answer.answer, MAX_ANSWER_CHARS);
        if answer.base_version < 0 {
            errors.add(&field, "The answer's version is not valid.");
        }
        if !seen.insert(answer.question_id.as_str()) {
            errors.add(&field, "This question is answered twice.");
        }
    }
    errors.into_result()?;
    let (_, task) = require_task(ctx, &mut conn, &input.id).await?;
    let questions = templates::questions_of(&mut conn, &task.task_id).await?;
    let mut errors = FieldErrors::default();
    for answer in &input.answers {
        if !questions.iter().any(|q| q.id == answer.question_id) {
            errors.add(
                &format!("answers.{}", answer.question_id),
                "This question is not part of the task.",
            );
        }
    }
    errors.into_result()?;
    let at = now();
    transaction!(&mut conn, |c| {
        if let Some(first) = once.claim(c).await? {
            return Ok(first);
        }
        task_submissions::update_details(c, &task.id, title.as_deref(), tags.as_deref(), at)
            .await?;
        let mut conflicted = Vec::new();
        for answer in &input.answers {
            let outcome = task_submissions::set_answer(
                c,
                &task.id,
                &answer.question_id,
                &answer.answer,
                answer.base_version,
                &user.id,
                at,
            )
            .await?;
            if outcome == SetAnswer::Conflict {
                conflicted.push(answer.question_id.clone());
            }
        }
        let answers = answer_views(c, &task.id).await?;
        let conflicts = conflicted
            .into_iter()
            .filter_map(|question_id| {
                let theirs = answers.iter().find(|a| a.question_id == question_id)?;
                Some(AnswerConflict {
                    their_answer: theirs.answer.clone(),
                    their_version: theirs.version,
                    updated_by_name: theirs.updated_by_name.clone(),
                    question_id,
                })
            })
            .collect();
        let saved = SaveTaskResult {
            answers,
            conflicts,
            updated_at: JsDate::from(at),
        };
        once.store(c, &saved).await?;
        Ok::<_, RpcError>(saved)
    })
}
