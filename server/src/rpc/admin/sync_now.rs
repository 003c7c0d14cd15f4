//! `admin.syncNow`: queues a sync of the caller's school at once ('Sync now'): a full sync,
//! or a delta when `delta` is set. Pressing it twice within a minute queues one sync; a sync
//! already running is never started twice (`mis::sync`).

use super::require_admin;
use crate::jobs::mis_sync;
use crate::mis::SyncKind;
use crate::models::mis as store;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

rpc_type! {
    pub struct SyncNow {
        pub delta: Option<bool>,
    }
}

rpc_type! {
    pub struct SyncQueued {
        /// False when the same request was already queued.
        pub queued: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: SyncNow) -> RpcResult<SyncQueued> {
    let school_id = require_admin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    if store::connected_source(&mut conn, school_id).await?.is_none() {
        return Err(RpcError::new(
            ErrorCode::PreconditionFailed,
            "Connect Wonde first: enter the school's Wonde id and token.",
        ));
    }
    let kind = if input.delta == Some(true) {
        SyncKind::Delta
    } else {
        SyncKind::Full
    };
    let queued = mis_sync::queue_now(&mut conn, school_id, kind).await?;
    Ok(SyncQueued {
        queued: queued.is_some(),
    })
}
