//! `report.save`: keeps a report (new without `id`, else rewrites the caller's report
//! `id`): its title, the instructions it was written with, its Markdown body (as edited)
//! and the tasks and voice notes it was written from (each one the caller may use, else
//! NOT_FOUND: no other school's or user's id is ever stored). Answers its id.

use core_wasm::limits::text_error;
use serde::Deserialize;

use super::get::ReportIdInput;
use super::MAX_BODY_CHARS;
use crate::ids::new_id;
use crate::models::now;
use crate::models::reports::{self, ReportFields};
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};

/// `{id?, title, instructions?, body, taskIds?, voiceNoteIds?}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SaveReportInput {
    #[serde(default)]
    pub id: Option<String>,
    pub title: String,
    #[serde(default)]
    pub instructions: String,
    pub body: String,
    #[serde(default)]
    pub task_ids: Vec<String>,
    #[serde(default)]
    pub voice_note_ids: Vec<String>,
}

impl Ts for SaveReportInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("SaveReportInput", |gen| {
            vec![
                ("id?".into(), Option::<String>::ts(gen)),
                ("title".into(), String::ts(gen)),
                ("instructions?".into(), String::ts(gen)),
                ("body".into(), String::ts(gen)),
                ("taskIds?".into(), Vec::<String>::ts(gen)),
                ("voiceNoteIds?".into(), Vec::<String>::ts(gen)),
            ]
        });
        "SaveReportInput".into()
    }
}

pub async fn handler(ctx: &Ctx, input: SaveReportInput) -> RpcResult<ReportIdInput> {
    let author = super::author(ctx)?;
    let mut fields = FieldErrors::default();
    let checked = super::check(
        &input.title,
        &input.instructions,
        &input.task_ids,
        &input.voice_note_ids,
        true,
        0,
        &mut fields,
    );
    if input.body.trim().is_empty() {
        fields.add("body", "The report is empty: generate or write it first.");
    } else if let Some(message) = text_error(&input.body, MAX_BODY_CHARS) {
        fields.add("body", message);
    }
    fields.into_result()?;
    let mut pooled = ctx.conn().await?;
    // Every stored id must be one the caller may use, checked now, not only when used.
    let (tasks_ok, notes_ok) = reports::sources_in_scope(
        &mut pooled.db(),
        author,
        &checked.task_ids,
        &checked.voice_note_ids,
    )
    .await?;
    if !tasks_ok {
        return Err(RpcError::new(ErrorCode::NotFound, "Task not found."));
    }
    if !notes_ok {
        return Err(RpcError::new(ErrorCode::NotFound, "Voice note not found."));
    }
    let task_ids = serde_json::Value::from(checked.task_ids).to_string();
    let voice_note_ids = serde_json::Value::from(checked.voice_note_ids).to_string();
    let values = ReportFields {
        title: &checked.title,
        instructions: &checked.instructions,
        body: &input.body,
        task_ids: &task_ids,
        voice_note_ids: &voice_note_ids,
    };
    let at = now();
    match input
        .id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty())
    {
        Some(id) => {
            if !reports::update(&mut pooled.db(), author, id, &values, at).await? {
                return Err(super::not_found());
            }
            Ok(ReportIdInput { id: id.to_owned() })
        }
        None => {
            let id = new_id();
            reports::insert(&mut pooled.db(), author, &id, &values, at).await?;
            Ok(ReportIdInput { id })
        }
    }
}
