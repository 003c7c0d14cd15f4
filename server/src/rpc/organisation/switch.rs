//! `organisation.switch`: the session acts in school `schoolId` from now on (every tenant
//! query follows it). Refused NOT_FOUND where the caller may not act
//! (`organisations::may_act_in`): a MAT user outside their trust learns nothing about the
//! school. Each switch writes an audit row (entity `session.activeSchool`).

use super::SWITCHERS;
use crate::models::audit::{self, AuditAction};
use crate::models::{organisations, sessions};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

rpc_type! {
    pub struct SwitchInput {
        pub school_id: String,
    }
}

rpc_type! {
    pub struct SwitchAnswer {
        pub school_id: String,
        pub name: String,
    }
}

pub async fn handler(ctx: &Ctx, input: SwitchInput) -> RpcResult<SwitchAnswer> {
    let user = ctx.require_role(SWITCHERS)?;
    let token_hash = ctx
        .session_token_hash()
        .ok_or_else(RpcError::unauthorized)?
        .to_owned();
    let home = ctx.home_school_id().map(str::to_owned);
    let target = input.school_id.trim().to_owned();
    let not_found = || RpcError::new(ErrorCode::NotFound, "Organisation not found.");
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let user_id = user.id.clone();
    let role = user.role;
    transaction!(&mut conn, |c| {
        let allowed =
            organisations::may_act_in(c, &user_id, role, home.as_deref(), &target).await?;
        if !allowed {
            return Err(not_found());
        }
        let name = organisations::school_name(c, &target)
            .await?
            .ok_or_else(not_found)?;
        // Back home is stored as no active school: the session follows the user's own school.
        let stored = (home.as_deref() != Some(target.as_str())).then_some(target.as_str());
        sessions::set_active_school(c, &token_hash, stored).await?;
        audit::record(
            c,
            &user_id,
            Some(&target),
            AuditAction::Update,
            "session.activeSchool",
            &target,
        )
        .await?;
        Ok(SwitchAnswer {
            school_id: target.clone(),
            name,
        })
    })
}
