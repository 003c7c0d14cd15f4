//! `task.templateChoices`: the templates the caller may start a task from (visible to them,
//! not archived), newest first, with their number of questions.

use super::caller;
use crate::models::templates::{self, Viewer};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// A template one may start a task from.
    pub struct TemplateChoice {
        pub id: String,
        pub title: String,
        pub question_count: i32,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<TemplateChoice>> {
    let (user, school_id) = caller(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let viewer = Viewer::of(&mut conn, &user.id, school_id).await?;
    let mut choices = Vec::new();
    for template in templates::visible_templates(&mut conn, &viewer).await? {
        if template.archived_at.is_some() {
            continue;
        }
        let questions = templates::questions_of(&mut conn, &template.id).await?;
        choices.push(TemplateChoice {
            id: template.id,
            title: template.title,
            question_count: i32::try_from(questions.len()).unwrap_or(i32::MAX),
        });
    }
    Ok(choices)
}
