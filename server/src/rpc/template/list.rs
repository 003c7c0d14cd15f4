//! `template.list`: the templates the caller may see, newest change first, with a search
//! (title or a tag, ignoring case), a visibility filter and the archived ones on request
//! (`archived: true` lists only archived templates; otherwise they are left out).

use serde::Deserialize;

use super::{can_edit, tags_of, viewer, TemplateVisibility};
use crate::models::templates;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTemplatesInput {
    #[serde(default)]
    pub search: Option<String>,
    #[serde(default)]
    pub visibility: Option<TemplateVisibility>,
    #[serde(default)]
    pub archived: Option<bool>,
}

impl Ts for ListTemplatesInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("ListTemplatesInput", |gen| {
            vec![
                ("search?".into(), Option::<String>::ts(gen)),
                ("visibility?".into(), Option::<TemplateVisibility>::ts(gen)),
                ("archived?".into(), Option::<bool>::ts(gen)),
            ]
        });
        "ListTemplatesInput".into()
    }
}

rpc_type! {
    /// One template of the list.
    pub struct TemplateListItem {
        pub id: String,
        pub title: String,
        pub tags: Vec<String>,
        pub visibility: TemplateVisibility,
        pub owner_name: String,
        pub question_count: i64,
        pub task_count: i64,
        pub archived: bool,
        pub updated_at: JsDate,
        pub can_edit: bool,
    }
}

/// Whether `title` or one of `tags` holds `needle` (already lower case).
fn matches(title: &str, tags: &[String], needle: &str) -> bool {
    needle.is_empty()
        || title.to_lowercase().contains(needle)
        || tags.iter().any(|t| t.to_lowercase().contains(needle))
}

pub async fn handler(ctx: &Ctx, input: ListTemplatesInput) -> RpcResult<Vec<TemplateListItem>> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (user, viewer) = viewer(ctx, &mut conn).await?;
    let needle = input
        .search
        .as_deref()
        .map(|s| s.trim().to_lowercase())
        .unwrap_or_default();
    let archived = input.archived.unwrap_or(false);
    let rows: Vec<_> = templates::visible_templates(&mut conn, &viewer)
        .await?
        .into_iter()
        .filter(|row| row.archived_at.is_some() == archived)
        .filter(|row| {
            input
                .visibility
                .is_none_or(|v| v.as_str() == row.visibility)
        })
        .filter(|row| matches(&row.title, &tags_of(row), &needle))
        .collect();
    let summaries = templates::summarise(&mut conn, rows).await?;
    Ok(summaries
        .into_iter()
        .map(|s| TemplateListItem {
            can_edit: can_edit(user, &viewer, &s.row),
            tags: tags_of(&s.row),
            visibility: TemplateVisibility::parse(&s.row.visibility),
            archived: s.row.archived_at.is_some(),
            updated_at: s.row.updated_at.into(),
            owner_name: s.owner_name,
            question_count: s.question_count,
            task_count: s.task_count,
            id: s.row.id,
            title: s.row.title,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn search_reads_the_title_and_the_tags_ignoring_case() {
        let tags = vec!["Year 7".to_owned()];
        assert!(matches("Lesson review", &tags, "review"));
        assert!(matches("Lesson review", &tags, "year 7"));
        assert!(matches("Lesson review", &tags, ""));
        assert!(!matches("Lesson review", &tags, "maths"));
    }
}
