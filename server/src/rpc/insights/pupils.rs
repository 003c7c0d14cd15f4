//! `insights.pupils`: the pupils to look at, under the page's filters (the date range does
//! not apply: each reason has its own window): no hand-in in their last `last` assignments
//! that are due (default 3), only negative feedback in the last four weeks, a parent not
//! reached in the last month (a parent delivery not sent, or bounced).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use crate::cache::ProcessCache;
use crate::db::DbConn;
use crate::models::insights;
use crate::rpc::encoded::Cached;
use crate::rpc::insights::{checked, encoded, trust_answer, trust_cache, trust_key, Checked, InsightsInput};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcResult};

/// The most assignments "the last N" may count.
pub const MAX_LAST: i64 = 20;

/// "Last N" when the page does not say.
pub const DEFAULT_LAST: i64 = 3;

rpc_type! {
    pub struct InsightsPupilsInput {
        pub filters: InsightsInput,
        /// N of "no hand-in in the last N assignments"; default 3.
        pub last: Option<i64>,
    }
}

rpc_type! {
    pub struct PupilToLookAt {
        pub id: String,
        pub name: String,
        pub form_group: Option<String>,
        /// Set when none of their last N assignments was handed in: N.
        pub missed: Option<i64>,
        /// Set when all their marks of the last four weeks were negative: how many.
        pub negative_marks: Option<i64>,
        /// Set when a parent was not reached in the last month: how many messages.
        pub parents_not_reached: Option<i64>,
    }
}

#[derive(Default)]
struct Reasons {
    missed: Option<i64>,
    negative: Option<i64>,
    unreached: Option<i64>,
}

pub async fn handler(ctx: &Ctx, input: InsightsPupilsInput) -> RpcResult<Cached<Vec<PupilToLookAt>>> {
    let last = input.last.unwrap_or(DEFAULT_LAST);
    if !(1..=MAX_LAST).contains(&last) {
        let mut fields = FieldErrors::default();
        fields.add("last", format!("Choose between 1 and {MAX_LAST} assignments."));
        fields.into_result()?;
    }
    let (c, role) = checked(ctx, &input.filters).await?;
    match trust_key(&c, role, &last.to_string()) {
        Some(key) => {
            let kept = |list| encoded(list, true);
            trust_answer(ctx, &TRUST, key, kept, move |db| async move { pupils(&mut db.conn().await?.db(), &c, last).await })
                .await
        }
        None => encoded(pupils(&mut ctx.conn().await?.db(), &c, last).await?, false),
    }
}

/// Trust-wide answers (`insights::trust_cache`), kept encoded: the same for every MAT user of
/// the trust, so each request sends the text (or its gzip) as it is.
static TRUST: LazyLock<ProcessCache<String, Cached<Vec<PupilToLookAt>>>> = LazyLock::new(trust_cache);

/// The pupils to look at under `c`, from the database.
pub(super) async fn pupils(conn: &mut DbConn<'_>, c: &Checked, last: i64) -> RpcResult<Vec<PupilToLookAt>> {
    let now = crate::models::now();
    let mut by: BTreeMap<String, Reasons> = BTreeMap::new();
    for (id, n) in insights::no_hand_ins(conn, &c.scope, &c.filter, last, now).await? {
        by.entry(id).or_default().missed = Some(n);
    }
    let four_weeks = now - chrono::Duration::days(28);
    for (id, n) in insights::only_negative(conn, &c.scope, &c.filter, four_weeks).await? {
        by.entry(id).or_default().negative = Some(n);
    }
    let month = now - chrono::Duration::days(30);
    for (id, n) in insights::parents_not_reached(conn, &c.scope, &c.filter, month).await? {
        by.entry(id).or_default().unreached = Some(n);
    }
    let ids: Vec<String> = by.keys().cloned().collect();
    let names = insights::pupil_names(conn, &c.scope.school_ids, &ids).await?;
    Ok(names
        .into_iter()
        .map(|p| {
            let reasons = by.remove(&p.id).unwrap_or_default();
            PupilToLookAt {
                name: format!("{} {}", p.forename, p.surname),
                id: p.id,
                form_group: p.form_group,
                missed: reasons.missed,
                negative_marks: reasons.negative,
                parents_not_reached: reasons.unreached,
            }
        })
        .collect())
}
