//! `report.sources`: what a report can be written from, for the picker. Tasks the caller
//! may access (their own and those shared with them), filtered by a search on the title,
//! a date range (`from`/`to`, `yyyy-MM-dd`, both included; a task's date is when it was
//! submitted, else when it last changed) and a tag; every tag of those tasks; and the
//! caller's voice notes, each saying whether it has a transcript (one without cannot be
//! chosen yet).

use chrono::NaiveDate;
use core_wasm::limits::{text_error, MAX_TITLE_CHARS};
use serde::Deserialize;

use crate::models::reports::{self, SourceFilter};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, FieldErrors, RpcResult};

/// `{search?, from?, to?, tag?}`; `undefined` lists everything.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportSourcesInput {
    pub search: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub tag: Option<String>,
}

impl Ts for ReportSourcesInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ReportSourcesInput", |gen| {
            vec![
                ("search?".into(), Option::<String>::ts(gen)),
                ("from?".into(), Option::<String>::ts(gen)),
                ("to?".into(), Option::<String>::ts(gen)),
                ("tag?".into(), Option::<String>::ts(gen)),
            ]
        });
        "ReportSourcesInput".into()
    }
}

rpc_type! {
    pub struct SourceTask {
        pub id: String,
        pub title: String,
        pub tags: Vec<String>,
        pub draft: bool,
        /// When it was submitted, else when it last changed.
        pub date: JsDate,
    }
}

rpc_type! {
    pub struct SourceVoiceNote {
        pub id: String,
        pub filename: String,
        pub created_at: JsDate,
        pub has_transcript: bool,
        /// The first words of the transcript.
        pub preview: Option<String>,
    }
}

rpc_type! {
    pub struct ReportSources {
        pub tasks: Vec<SourceTask>,
        pub tags: Vec<String>,
        pub voice_notes: Vec<SourceVoiceNote>,
    }
}

/// The tags of a task (its JSON text; anything else reads as none).
pub fn tags_of(json: &str) -> Vec<String> {
    serde_json::from_str(json).unwrap_or_default()
}

fn date(fields: &mut FieldErrors, name: &str, value: Option<&str>) -> Option<NaiveDate> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    match NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        Ok(date) => Some(date),
        Err(_) => {
            fields.add(name, "Enter a date.");
            None
        }
    }
}

pub async fn handler(ctx: &Ctx, input: Option<ReportSourcesInput>) -> RpcResult<ReportSources> {
    let author = super::author(ctx)?;
    let input = input.unwrap_or_default();
    let mut fields = FieldErrors::default();
    let from = date(&mut fields, "from", input.from.as_deref());
    let to = date(&mut fields, "to", input.to.as_deref());
    if let (Some(from), Some(to)) = (from, to) {
        if to < from {
            fields.add("to", "The end date must not be before the start date.");
        }
    }
    for (name, value) in [("search", &input.search), ("tag", &input.tag)] {
        if let Some(message) = value
            .as_deref()
            .and_then(|v| text_error(v, MAX_TITLE_CHARS))
        {
            fields.add(name, message);
        }
    }
    fields.into_result()?;
    let filter = SourceFilter {
        search: input.search.as_deref(),
        from: from.and_then(|d| d.and_hms_opt(0, 0, 0)),
        until: to
            .and_then(|d| d.succ_opt())
            .and_then(|d| d.and_hms_opt(0, 0, 0)),
        tag: input.tag.as_deref(),
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let tasks = reports::report_sources(&mut conn, author, &filter).await?;
    let mut tags: Vec<String> = reports::source_tags(&mut conn, author)
        .await?
        .iter()
        .flat_map(|json| tags_of(json))
        .collect();
    tags.sort_by_key(|t| t.to_lowercase());
    tags.dedup();
    let notes = reports::voice_note_texts(&mut conn, author, None).await?;
    Ok(ReportSources {
        tasks: tasks
            .into_iter()
            .map(|t| SourceTask {
                tags: tags_of(&t.tags),
                date: t.submitted_at.unwrap_or(t.updated_at).into(),
                id: t.id,
                title: t.title,
                draft: t.draft,
            })
            .collect(),
        tags,
        voice_notes: notes
            .into_iter()
            .map(|n| SourceVoiceNote {
                has_transcript: n.transcript.is_some(),
                preview: n.transcript.map(|t| preview(&t)),
                id: n.id,
                filename: n.filename,
                created_at: n.created_at.into(),
            })
            .collect(),
    })
}

/// The first 160 characters of `text`, with an ellipsis when there is more.
fn preview(text: &str) -> String {
    let text = text.trim();
    let mut out: String = text.chars().take(160).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}
