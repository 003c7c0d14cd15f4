//! `organisation.trusts`: every trust (superadmin), for the trust picker of `/schools`.

use super::require_superadmin;
use crate::models::organisations;
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct TrustItem {
        pub id: String,
        pub name: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<TrustItem>> {
    require_superadmin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let trusts = organisations::list_trusts(&mut pooled.db()).await?;
    Ok(trusts
        .into_iter()
        .map(|(id, name)| TrustItem { id, name })
        .collect())
}
