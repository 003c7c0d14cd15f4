//! `template.*`: the leaders' task templates (the `tasks` table; docs/leaders.md, "Templates").
//! Every read goes through `models::templates` (`visible_templates`, `find_visible`), so a
//! template the caller may not see is NOT_FOUND. `list` and `get` answer every signed-in
//! user with a school (task creation picks a template with them); `save`, `duplicate`,
//! `delete` and `restore` are for ADMIN and ORG_ADMIN (superadmins pass every role check).

pub mod delete;
pub mod duplicate;
pub mod get;
pub mod list;
pub mod restore;
pub mod save;

use core_wasm::roles::has_role;
use core_wasm::UserRole;
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::models::templates::{self, TemplateRow, Viewer};
use crate::models::users::User;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "template.delete" => delete),
        procedure!(Mutation "template.duplicate" => duplicate),
        procedure!(Query "template.get" => get),
        procedure!(Query "template.list" => list),
        procedure!(Mutation "template.restore" => restore),
        procedure!(Mutation "template.save" => save),
    ]
}

/// The roles that manage templates.
pub const EDITORS: &[UserRole] = &[UserRole::Admin, UserRole::OrgAdmin];

/// Who sees a template (spec: TemplateVisibility).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TemplateVisibility {
    /// Its owner only.
    Personal,
    /// Every user of its school.
    School,
    /// Every user of every school of its school's trust.
    Mat,
}

impl TemplateVisibility {
    pub const ALL: [TemplateVisibility; 3] = [
        TemplateVisibility::Personal,
        TemplateVisibility::School,
        TemplateVisibility::Mat,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TemplateVisibility::Personal => "PERSONAL",
            TemplateVisibility::School => "SCHOOL",
            TemplateVisibility::Mat => "MAT",
        }
    }

    /// The column's text; an unknown value reads as the narrowest, PERSONAL.
    pub fn parse(text: &str) -> TemplateVisibility {
        TemplateVisibility::ALL
            .into_iter()
            .find(|v| v.as_str() == text)
            .unwrap_or(TemplateVisibility::Personal)
    }
}

impl Ts for TemplateVisibility {
    fn ts(_: &mut TsGen) -> String {
        TemplateVisibility::ALL
            .iter()
            .map(|v| format!("'{}'", v.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// The `{id}` input of `get`, `duplicate`, `delete` and `restore`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TemplateId {
    pub id: String,
}

impl Ts for TemplateId {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("TemplateIdInput", |gen| {
            vec![("id".into(), String::ts(gen))]
        });
        "TemplateIdInput".into()
    }
}

/// The signed-in caller with a school, and how the visibility rule sees them.
pub async fn viewer<'a>(ctx: &'a Ctx, conn: &mut DbConn<'_>) -> RpcResult<(&'a User, Viewer)> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let viewer = Viewer::of(conn, &user.id, school_id).await?;
    Ok((user, viewer))
}

/// The caller, when they may manage templates; FORBIDDEN with a sentence otherwise.
pub fn require_editor(ctx: &Ctx) -> RpcResult<&User> {
    match ctx.require_role(EDITORS) {
        Err(err) if err.code == ErrorCode::Forbidden => Err(RpcError::forbidden(
            "Only admins and organisation admins can manage templates.",
        )),
        other => other,
    }
}

/// Whether `user` may edit, delete or restore `row` (which they can see): an editor role,
/// the template of their own school, and a personal template only of their own.
pub fn can_edit(user: &User, viewer: &Viewer, row: &TemplateRow) -> bool {
    has_role(user.role, EDITORS)
        && row.school_id == viewer.school_id
        && (row.visibility != "PERSONAL" || row.user_id == viewer.user_id)
}

/// NOT_FOUND for a template the caller cannot see (or that does not exist).
pub fn not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Template not found.")
}

/// The template `id` the caller may change: NOT_FOUND when they cannot see it, FORBIDDEN
/// (with a sentence) when they see it but may not edit it.
pub async fn editable(
    ctx: &Ctx,
    conn: &mut DbConn<'_>,
    id: &str,
) -> RpcResult<(TemplateRow, Viewer)> {
    let user = require_editor(ctx)?;
    let (_, viewer) = viewer(ctx, conn).await?;
    let row = templates::find_visible(conn, &viewer, id)
        .await?
        .ok_or_else(not_found)?;
    if !can_edit(user, &viewer, &row) {
        return Err(RpcError::forbidden(
            "This template belongs to another school of your trust, so you cannot change it. Duplicate it to make your own copy.",
        ));
    }
    Ok((row, viewer))
}

/// The tags of a template row (a JSON array of strings; anything else reads as none).
pub fn tags_of(row: &TemplateRow) -> Vec<String> {
    serde_json::from_str(&row.tags).unwrap_or_default()
}
