//! `user.markTutorialComplete`: the caller has seen the tutorial; it is not shown again.

use serde::Deserialize;

use crate::models::users;
use crate::rpc::registry::{Done, True};
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

/// The spec's payload is "a true flag" (section 7): the bare `true`, or `{complete: true}`
/// as this server first named it. Both mean the same; anything else is BAD_REQUEST.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum MarkTutorialCompleteInput {
    Flag(True),
    Fields { complete: True },
}

impl Ts for MarkTutorialCompleteInput {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("MarkTutorialCompleteFields", |gen| {
            vec![("complete".into(), True::ts(gen))]
        });
        "true | MarkTutorialCompleteFields".into()
    }
}

pub async fn handler(ctx: &Ctx, _input: MarkTutorialCompleteInput) -> RpcResult<Done> {
    let user = ctx.require_user()?;
    let mut pooled = ctx.conn().await?;
    users::mark_tutorial_complete(&mut pooled.db(), &user.id).await?;
    Ok(Done::OK)
}
