//! `template.duplicate`: a copy of a template the caller may see ("Copy of <title>", the
//! same tags and questions), owned by the caller in their school and PERSONAL: the copy is
//! the caller's draft until they choose to share it. ADMIN and ORG_ADMIN only.

use core_wasm::limits::MAX_TITLE_CHARS;

use super::{not_found, require_editor, viewer, TemplateId};
use crate::models::templates::{self, QuestionInput, TemplateFields};
use crate::rpc::{Ctx, RpcResult};
use crate::transaction;

use super::save::SavedTemplate;

/// "Copy of <title>", cut to the title limit.
pub fn copy_title(title: &str) -> String {
    format!("Copy of {title}")
        .chars()
        .take(MAX_TITLE_CHARS)
        .collect::<String>()
        .trim_end()
        .to_owned()
}

pub async fn handler(ctx: &Ctx, input: TemplateId) -> RpcResult<SavedTemplate> {
    let user = require_editor(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (_, viewer) = viewer(ctx, &mut conn).await?;
    let row = templates::find_visible(&mut conn, &viewer, &input.id)
        .await?
        .ok_or_else(not_found)?;
    let questions: Vec<QuestionInput> = templates::questions_of(&mut conn, &row.id)
        .await?
        .into_iter()
        .map(|q| QuestionInput {
            id: None,
            text: q.text,
            required: q.required,
        })
        .collect();
    let fields = TemplateFields {
        title: copy_title(&row.title),
        tags: row.tags.clone(),
        visibility: "PERSONAL".into(),
    };
    let id = transaction!(&mut conn, |c| {
        templates::insert_template(c, &user.id, &viewer.school_id, &fields, &questions).await
    })?;
    Ok(SavedTemplate { id })
}

#[cfg(test)]
mod tests {
    use super::copy_title;

    #[test]
    fn the_copy_title_fits_the_limit() {
        assert_eq!(copy_title("Review"), "Copy of Review");
        assert_eq!(copy_title(&"x".repeat(200)).chars().count(), 200);
    }
}
