//! `template.delete`: deletes a template nobody has used, or archives it when a task was
//! started from it (its tasks keep their questions and answers). `template.restore` brings
//! an archived one back.

use serde::Serialize;

use super::{editable, TemplateId};
use crate::models::templates::{self, Removal};
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};
use crate::transaction;

/// What `template.delete` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RemovalOutcome {
    Deleted,
    Archived,
}

impl Ts for RemovalOutcome {
    fn ts(_: &mut TsGen) -> String {
        "'DELETED' | 'ARCHIVED'".into()
    }
}

rpc_type! {
    /// Whether the template was deleted or, being in use, archived.
    pub struct DeletedTemplate {
        pub outcome: RemovalOutcome,
    }
}

pub async fn handler(ctx: &Ctx, input: TemplateId) -> RpcResult<DeletedTemplate> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (row, _) = editable(ctx, &mut conn, &input.id).await?;
    let removal = transaction!(&mut conn, |c| templates::delete_or_archive(c, &row.id)
        .await)?;
    Ok(DeletedTemplate {
        outcome: match removal {
            Removal::Deleted => RemovalOutcome::Deleted,
            Removal::Archived => RemovalOutcome::Archived,
        },
    })
}
