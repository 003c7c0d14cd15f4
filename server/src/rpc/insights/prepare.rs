//! A trust's Insights prepared before the day starts (docs/insights.md "Prepared before the
//! day starts"). A trust's first question of the day would wait 2-3 s for its reading at a
//! thousand schools: the default range ends today, so yesterday's kept answers answer
//! another question. Each night the `insights.prepare` job (`jobs::insights_prepare`) works
//! out, for every trust a MAT user used in the last [`USED_WITHIN`] days, what its MAT users'
//! page asks first: the overview and the pupils to look at, for all their schools, with no
//! filter and the default range and "last N". Each answer is kept in the database like a
//! reading's (`insight_answers`), so every process gives it at once ([`super::STORED_FOR`])
//! and works out newer figures in the background.
//!
//! It lives here, beside the readings it repeats, rather than in the job: the key must be the
//! very one a MAT user's request makes ([`trust_key`] of [`check`]ed default input).

use chrono::{Duration, NaiveDateTime};
use core_wasm::UserRole;

use crate::db::Db;
use crate::models::{now, organisations};
use crate::rpc::insights::{check, keep, overview, pupils, trust_key, trust_reading, trust_scope, InsightsInput};
use crate::rpc::RpcResult;

/// A trust is prepared when one of its MAT users used a session within this many days.
pub const USED_WITHIN: Duration = Duration::days(14);

/// What one night's preparation did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Prepared {
    /// Distinct sets of schools (a trust, as its MAT users see it) worked out.
    pub trusts: usize,
    /// Answers kept (two a trust).
    pub answers: usize,
}

/// Works out and keeps, at `at`, the first answers of every trust in use.
pub async fn prepare_trusts(db: &Db, at: NaiveDateTime) -> RpcResult<Prepared> {
    let users = organisations::active_mat_users(&mut db.conn().await?.db(), at - USED_WITHIN).await?;
    let mut done: Vec<Vec<String>> = Vec::new();
    let mut prepared = Prepared::default();
    for (user_id, home) in users {
        let Some(home) = home else { continue };
        let scope = trust_scope(&mut db.conn().await?.db(), &user_id, Some(&home), home.clone()).await?;
        if done.contains(&scope.school_ids) {
            continue;
        }
        done.push(scope.school_ids.clone());
        let unfiltered = InsightsInput {
            from: None,
            to: None,
            school_id: None,
            year_group_id: None,
            form_group_id: None,
            class_id: None,
            teacher_id: None,
        };
        let c = check(&unfiltered, scope)?;
        let (Some(overview_key), Some(pupils_key)) = (
            trust_key(&c, UserRole::MatUser, ""),
            trust_key(&c, UserRole::MatUser, &pupils::DEFAULT_LAST.to_string()),
        ) else {
            continue;
        };
        let worked_out_at = now();
        let answer = trust_reading(overview::overview(db, &c, UserRole::MatUser)).await?;
        keep(db, &overview_key, &answer, worked_out_at).await?;
        let worked_out_at = now();
        let answer = trust_reading(async { pupils::pupils(&mut db.conn().await?.db(), &c, pupils::DEFAULT_LAST).await }).await?;
        keep(db, &pupils_key, &answer, worked_out_at).await?;
        prepared.trusts += 1;
        prepared.answers += 2;
    }
    Ok(prepared)
}
