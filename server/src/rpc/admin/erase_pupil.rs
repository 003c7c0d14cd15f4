//! `admin.erasePupil`: erases one pupil of the caller's school (a UK GDPR erasure request;
//! docs/privacy.md says what happens to each table). One transaction removes or anonymises
//! every row and records the audit row (DELETE, detail `erase`, the pupil's id replaced by
//! a tombstone so the log keeps who erased and when, not whom); the pupil's files are
//! deleted from the store after the commit (a file already gone is fine; a store failure
//! is logged, and the file expiry job never sees it again because its row is gone).

use crate::models::audit::{self, AuditAction};
use crate::models::privacy;
use crate::rpc::admin::{not_found, require_admin};
use crate::rpc::registry::Done;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::storage::FileStore;
use crate::transaction;

rpc_type! {
    pub struct ErasePupil {
        pub id: String,
    }
}

pub async fn handler(ctx: &Ctx, input: ErasePupil) -> RpcResult<Done> {
    let school_id = require_admin(ctx)?.to_owned();
    let user_id = ctx.require_user()?.id.clone();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let tombstone = format!("erased-{}", crate::ids::new_id());
    let erased = transaction!(&mut conn, |c| {
        let Some(pupil) = privacy::pupil_in_school(c, &school_id, &input.id).await? else {
            return Err(not_found("Pupil"));
        };
        let erased = privacy::erase(c, &school_id, &pupil.id, &tombstone).await?;
        audit::record_detail(
            c,
            Some(&user_id),
            Some(&school_id),
            AuditAction::Delete,
            "student",
            &tombstone,
            audit::DETAIL_ERASE,
        )
        .await?;
        Ok::<_, RpcError>(erased)
    })?;
    for key in &erased.keys {
        if let Err(err) = ctx.state.storage.delete(key).await {
            tracing::warn!(%key, error = %err, "an erased pupil's file could not be deleted from the store");
        }
    }
    Ok(Done::OK)
}
