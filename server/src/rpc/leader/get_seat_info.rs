//! `leader.getSeatInfo` (spec section 7): the caller's school's seats — bought (the
//! subscription's quantity; null without one), used (active users), pending (invited) and
//! available (null: no limit). Basic allows one user (its first admin).

use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::user::manager;
use crate::rpc::{Ctx, RpcResult};
use crate::staffing;

rpc_type! {
    pub struct SeatInfo {
        pub seats: Option<i64>,
        pub used: i64,
        pub pending: i64,
        pub available: Option<i64>,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<SeatInfo> {
    manager(ctx)?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let seats = staffing::seats(&mut pooled.db(), &ctx.state.config, school_id).await?;
    Ok(SeatInfo {
        seats: seats.bought,
        used: seats.used,
        pending: seats.pending,
        available: seats.available(),
    })
}
