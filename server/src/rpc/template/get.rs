//! `template.get`: one template the caller may see, with its questions in order.

use serde::{Deserialize, Serialize};

use super::{can_edit, not_found, tags_of, viewer, TemplateId, TemplateVisibility};
use crate::models::templates;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

/// A question of a template, in its place (`position`, from 0). `type` is always
/// `TEXTAREA` for now (the only question type the spec names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateQuestion {
    pub id: String,
    pub text: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub required: bool,
    pub position: i32,
}

impl Ts for TemplateQuestion {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("TemplateQuestion", |gen| {
            vec![
                ("id".into(), String::ts(gen)),
                ("text".into(), String::ts(gen)),
                ("type".into(), "'TEXTAREA'".into()),
                ("required".into(), bool::ts(gen)),
                ("position".into(), i32::ts(gen)),
            ]
        });
        "TemplateQuestion".into()
    }
}

rpc_type! {
    /// A template with its questions.
    pub struct TemplateDetail {
        pub id: String,
        pub title: String,
        pub tags: Vec<String>,
        pub visibility: TemplateVisibility,
        pub owner_name: String,
        pub archived: bool,
        pub can_edit: bool,
        pub task_count: i64,
        pub updated_at: JsDate,
        pub questions: Vec<TemplateQuestion>,
    }
}

pub async fn handler(ctx: &Ctx, input: TemplateId) -> RpcResult<TemplateDetail> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (user, viewer) = viewer(ctx, &mut conn).await?;
    let row = templates::find_visible(&mut conn, &viewer, &input.id)
        .await?
        .ok_or_else(not_found)?;
    let questions = templates::questions_of(&mut conn, &row.id).await?;
    let editable = can_edit(user, &viewer, &row);
    let summary = templates::summarise(&mut conn, vec![row])
        .await?
        .pop()
        .ok_or_else(not_found)?;
    Ok(TemplateDetail {
        tags: tags_of(&summary.row),
        visibility: TemplateVisibility::parse(&summary.row.visibility),
        archived: summary.row.archived_at.is_some(),
        can_edit: editable,
        task_count: summary.task_count,
        updated_at: summary.row.updated_at.into(),
        owner_name: summary.owner_name,
        id: summary.row.id,
        title: summary.row.title,
        questions: questions
            .into_iter()
            .map(|q| TemplateQuestion {
                id: q.id,
                text: q.text,
                kind: q.kind,
                required: q.required,
                position: q.position,
            })
            .collect(),
    })
}
