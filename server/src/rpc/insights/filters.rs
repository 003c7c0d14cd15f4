//! `insights.filters`: what the Insights filters offer the caller: their scope (SCHOOL,
//! TRUST or OWN), the schools (more than one for a MAT user), year groups, form groups,
//! classes and teachers (those who sent an assignment; a teacher sees only themselves).
//! A trust's year groups, form groups, classes and teachers are those of the school chosen
//! in its School filter, and none before one is chosen: 50 schools' 10,000 classes would be
//! one list of the same names fifty times over (docs/insights.md).

use crate::models::insights::{self, Choice};
use crate::rpc::insights::{scope_name, scope_of};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct InsightsChoice {
        pub id: String,
        pub name: String,
    }
}

rpc_type! {
    pub struct InsightsFiltersInput {
        /// The school chosen in a trust's School filter (ignored for one school).
        pub school_id: Option<String>,
    }
}

rpc_type! {
    pub struct InsightsFilters {
        pub scope: String,
        pub schools: Vec<InsightsChoice>,
        pub year_groups: Vec<InsightsChoice>,
        pub form_groups: Vec<InsightsChoice>,
        pub classes: Vec<InsightsChoice>,
        pub teachers: Vec<InsightsChoice>,
    }
}

fn list(rows: Vec<Choice>) -> Vec<InsightsChoice> {
    rows.into_iter().map(|c| InsightsChoice { id: c.id, name: c.name }).collect()
}

pub async fn handler(ctx: &Ctx, input: Option<InsightsFiltersInput>) -> RpcResult<InsightsFilters> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (scope, role) = scope_of(ctx, &mut conn).await?;
    let chosen = input.and_then(|i| i.school_id).map(|id| id.trim().to_owned()).filter(|id| !id.is_empty());
    // The groups and teachers of one school: the caller's own, or the trust's chosen one (a
    // school outside the trust has none).
    let ids: Vec<String> = match (&chosen, scope.school_ids.len()) {
        (_, 0 | 1) => scope.school_ids.clone(),
        (Some(id), _) => scope.school_ids.iter().filter(|s| *s == id).cloned().collect(),
        (None, _) => Vec::new(),
    };
    let ids = &ids;
    let teachers = match &scope.sender_id {
        Some(me) => {
            let user = ctx.require_user()?;
            vec![InsightsChoice { id: me.clone(), name: format!("{} {}", user.forename, user.surname) }]
        }
        None => list(insights::choices(&mut conn, ids, "teachers").await?),
    };
    Ok(InsightsFilters {
        scope: scope_name(&scope, role).to_owned(),
        schools: list(insights::choices(&mut conn, &scope.school_ids, "schools").await?),
        year_groups: list(insights::choices(&mut conn, ids, "year_groups").await?),
        form_groups: list(insights::choices(&mut conn, ids, "form_groups").await?),
        classes: list(insights::choices(&mut conn, ids, "classes").await?),
        teachers,
    })
}
