//! `template.save`: creates a template (no `id`) or edits one, with its questions in the
//! given order. ADMIN and ORG_ADMIN only. Limits (docs/leaders.md, "Templates"): a title
//! of 1 to 200 characters, at most 10 tags of at most 50 characters, 1 to 50 questions of
//! 1 to 2,000 characters. Editing updates listed questions, inserts new ones and deletes
//! left-out ones, but refuses to delete a question that already has answers in tasks.

use std::collections::HashSet;

use core_wasm::limits::MAX_TITLE_CHARS;
use serde::Deserialize;

use super::{editable, require_editor, viewer, TemplateVisibility};
use crate::models::templates::{self, QuestionInput, TemplateFields, UpdateRefusal};
use crate::rpc::input::check_length;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// Most questions in one template.
pub const MAX_QUESTIONS: usize = 50;
/// Longest question text.
pub const MAX_QUESTION_CHARS: usize = core_wasm::limits::MAX_QUESTION_CHARS;
/// Most tags on one template.
pub const MAX_TAGS: usize = 10;
/// Longest tag.
pub const MAX_TAG_CHARS: usize = core_wasm::limits::MAX_TEMPLATE_TAG_CHARS;

/// Shown when an edit leaves out a question that tasks have already answered.
pub const ANSWERED_QUESTION_REMOVED: &str = "A question you removed already has answers in tasks, so it cannot be removed. Put it back, or duplicate the template and change the copy.";

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveQuestionInput {
    #[serde(default)]
    pub id: Option<String>,
    pub text: String,
    #[serde(default)]
    pub required: bool,
}

impl Ts for SaveQuestionInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("SaveTemplateQuestionInput", |gen| {
            vec![
                ("id?".into(), Option::<String>::ts(gen)),
                ("text".into(), String::ts(gen)),
                ("required".into(), bool::ts(gen)),
            ]
        });
        "SaveTemplateQuestionInput".into()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveTemplateInput {
    #[serde(default)]
    pub id: Option<String>,
    pub title: String,
    #[serde(default)]
    pub tags: Vec<String>,
    pub visibility: TemplateVisibility,
    pub questions: Vec<SaveQuestionInput>,
}

impl Ts for SaveTemplateInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("SaveTemplateInput", |gen| {
            vec![
                ("id?".into(), Option::<String>::ts(gen)),
                ("title".into(), String::ts(gen)),
                ("tags".into(), Vec::<String>::ts(gen)),
                ("visibility".into(), TemplateVisibility::ts(gen)),
                ("questions".into(), Vec::<SaveQuestionInput>::ts(gen)),
            ]
        });
        "SaveTemplateInput".into()
    }
}

rpc_type! {
    /// The saved template's id.
    pub struct SavedTemplate {
        pub id: String,
    }
}

/// The tags trimmed, blanks dropped, repeats (ignoring case) dropped, checked.
pub fn clean_tags(tags: &[String], errors: &mut FieldErrors) -> Vec<String> {
    let mut seen = HashSet::new();
    let cleaned: Vec<String> = tags
        .iter()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty() && seen.insert(t.to_lowercase()))
        .collect();
    if cleaned.len() > MAX_TAGS {
        errors.add("tags", format!("Use at most {MAX_TAGS} tags."));
    }
    for tag in &cleaned {
        if tag.chars().count() > MAX_TAG_CHARS {
            errors.add(
                "tags",
                core_wasm::limits::tag_too_long_message(MAX_TAG_CHARS),
            );
            break;
        }
    }
    cleaned
}

/// The checked fields and questions, or BAD_REQUEST with every field's problem.
pub fn validate(input: &SaveTemplateInput) -> RpcResult<(TemplateFields, Vec<QuestionInput>)> {
    let mut errors = FieldErrors::default();
    let title = input.title.trim();
    if title.is_empty() {
        errors.add("title", "Enter a title.");
    }
    check_length(&mut errors, "title", title, MAX_TITLE_CHARS);
    let tags = clean_tags(&input.tags, &mut errors);
    if input.questions.is_empty() {
        errors.add("questions", "Add at least one question.");
    }
    if input.questions.len() > MAX_QUESTIONS {
        errors.add(
            "questions",
            format!("Use at most {MAX_QUESTIONS} questions."),
        );
    }
    let mut ids = HashSet::new();
    let mut questions = Vec::with_capacity(input.questions.len());
    for (index, question) in input.questions.iter().enumerate() {
        let text = question.text.trim();
        let field = format!("questions[{index}].text");
        if text.is_empty() {
            errors.add(&field, "Enter the question.");
        }
        check_length(&mut errors, &field, text, MAX_QUESTION_CHARS);
        let id = question.id.clone().filter(|id| !id.is_empty());
        if let Some(id) = &id {
            if !ids.insert(id.clone()) {
                errors.add(
                    &format!("questions[{index}].id"),
                    "This question is listed twice.",
                );
            }
        }
        questions.push(QuestionInput {
            id,
            text: text.to_owned(),
            required: question.required,
        });
    }
    errors.into_result()?;
    let fields = TemplateFields {
        title: title.to_owned(),
        tags: serde_json::to_string(&tags)
            .map_err(|e| RpcError::internal(format!("encoding tags: {e}")))?,
        visibility: input.visibility.as_str().to_owned(),
    };
    Ok((fields, questions))
}

pub async fn handler(ctx: &Ctx, input: SaveTemplateInput) -> RpcResult<SavedTemplate> {
    let user = require_editor(ctx)?;
    let (fields, questions) = validate(&input)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let Some(id) = input.id.filter(|id| !id.is_empty()) else {
        let (_, viewer) = viewer(ctx, &mut conn).await?;
        let id = transaction!(&mut conn, |c| {
            templates::insert_template(c, &user.id, &viewer.school_id, &fields, &questions).await
        })?;
        return Ok(SavedTemplate { id });
    };
    editable(ctx, &mut conn, &id).await?;
    transaction!(&mut conn, |c| {
        match templates::update_template(c, &id, &fields, &questions).await? {
            Ok(()) => Ok(()),
            Err(UpdateRefusal::UnknownQuestion(index)) => Err(RpcError::field(
                &format!("questions[{index}].id"),
                "This question is no longer part of the template. Reload the page and try again.",
            )),
            Err(UpdateRefusal::AnsweredQuestionRemoved) => {
                Err(RpcError::field("questions", ANSWERED_QUESTION_REMOVED))
            }
        }
    })?;
    Ok(SavedTemplate { id })
}
