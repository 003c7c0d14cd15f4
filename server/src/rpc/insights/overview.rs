//! `insights.overview`: the Insights page's charts for a range and filters: hand-in and
//! on-time rates per week (the week of the due date), marking turnaround per teacher and
//! per class (median and 90th percentile hours), sentiment per week (the week marked) and
//! parents reached per message type (docs/insights.md).

use std::collections::{BTreeMap, HashMap};

use crate::models::insights;
use std::sync::LazyLock;
use std::time::Duration;

use core_wasm::UserRole;

use crate::cache::{CacheKind, ProcessCache};
use crate::db::DbConn;
use crate::rpc::insights::{
    check, hours, percent, scope_name, scope_of, trust_key, weeks, Checked, InsightsInput, TRUST_TTL,
};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct HandInWeek {
        /// The Monday, `yyyy-MM-dd`.
        pub week: String,
        pub assigned: i64,
        pub handed_in: i64,
        pub on_time: i64,
        /// Percent, one decimal; null without assignments that week.
        pub hand_in_rate: Option<f64>,
        pub on_time_rate: Option<f64>,
    }
}

rpc_type! {
    pub struct SentimentWeek {
        pub week: String,
        pub positive: i64,
        pub neutral: i64,
        pub negative: i64,
    }
}

rpc_type! {
    pub struct TurnaroundRow {
        pub id: String,
        pub name: String,
        pub marks: i64,
        pub median_hours: f64,
        pub p90_hours: f64,
    }
}

rpc_type! {
    pub struct ReachRow {
        /// GENERAL or ASSIGNMENT.
        pub message_type: String,
        pub reached: i64,
        /// Parent deliveries no longer waiting.
        pub decided: i64,
        pub share: Option<f64>,
    }
}

rpc_type! {
    pub struct InsightsOverview {
        /// `yyyy-MM-dd`, both included.
        pub from: String,
        pub to: String,
        /// SCHOOL, TRUST or OWN.
        pub scope: String,
        pub hand_ins: Vec<HandInWeek>,
        pub turnaround_by_teacher: Vec<TurnaroundRow>,
        pub turnaround_by_class: Vec<TurnaroundRow>,
        pub sentiment: Vec<SentimentWeek>,
        pub reach: Vec<ReachRow>,
    }
}

/// Sentiment counts per week of `rows`, every week of the range present.
pub fn sentiment_weeks(all: &[String], rows: &[(String, String, i64)]) -> Vec<SentimentWeek> {
    let mut by: BTreeMap<String, SentimentWeek> = all
        .iter()
        .map(|w| {
            (w.clone(), SentimentWeek { week: w.clone(), positive: 0, neutral: 0, negative: 0 })
        })
        .collect();
    for (day, sentiment, n) in rows {
        let Some(week) = crate::rpc::insights::week_of(day) else { continue };
        let Some(entry) = by.get_mut(&week.format("%Y-%m-%d").to_string()) else { continue };
        match sentiment.as_str() {
            "POSITIVE" => entry.positive += n,
            "NEGATIVE" => entry.negative += n,
            _ => entry.neutral += n,
        }
    }
    by.into_values().collect()
}

fn rows(list: Vec<insights::Turnaround>) -> Vec<TurnaroundRow> {
    list.into_iter()
        .map(|t| TurnaroundRow {
            id: t.id,
            name: t.name,
            marks: t.marks,
            median_hours: hours(t.median_hours),
            p90_hours: hours(t.p90_hours),
        })
        .collect()
}

/// Trust-wide answers, kept a minute (`insights::trust_key`).
static TRUST: LazyLock<ProcessCache<String, InsightsOverview>> = LazyLock::new(|| {
    ProcessCache::new(CacheKind::TrustInsights, TRUST_TTL, Duration::ZERO, 200)
});

pub async fn handler(ctx: &Ctx, input: InsightsInput) -> RpcResult<InsightsOverview> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (scope, role) = scope_of(ctx, &mut conn).await?;
    let c = check(&input, scope)?;
    match trust_key(&c, role, "") {
        Some(key) => TRUST.get_or_fill(key.as_str(), || overview(&mut conn, &c, role)).await,
        None => overview(&mut conn, &c, role).await,
    }
}

/// The overview of `c`, from the database.
async fn overview(conn: &mut DbConn<'_>, c: &Checked, role: UserRole) -> RpcResult<InsightsOverview> {
    let (start, end) = (c.start(), c.end());
    let all = weeks(c.from, c.to);

    let mut hand: BTreeMap<String, (i64, i64, i64)> = all.iter().map(|w| (w.clone(), (0, 0, 0))).collect();
    for day in insights::hand_ins(conn, &c.scope, &c.filter, start, end).await? {
        let Some(week) = crate::rpc::insights::week_of(&day.due.format("%Y-%m-%d").to_string()) else { continue };
        if let Some(e) = hand.get_mut(&week.format("%Y-%m-%d").to_string()) {
            e.0 += day.assigned;
            e.1 += day.handed_in;
            e.2 += day.on_time;
        }
    }
    let hand_ins = hand
        .into_iter()
        .map(|(week, (assigned, handed_in, on_time))| HandInWeek {
            week,
            assigned,
            handed_in,
            on_time,
            hand_in_rate: percent(handed_in, assigned),
            on_time_rate: percent(on_time, assigned),
        })
        .collect();

    // Sentiment and both turnarounds from one read of the marks (docs/performance.md),
    // grouped as the rows arrive: a trust's million marks are never held as rows.
    let mut per_day: BTreeMap<(i64, &'static str), i64> = BTreeMap::new();
    let mut by_teacher = Groups::default();
    let mut by_pupil = Groups::default();
    insights::marks(conn, &c.scope, &c.filter, start, end, |m| {
        if let Some(sentiment) = &m.sentiment {
            *per_day.entry((m.day, sentiment_name(sentiment))).or_default() += 1;
        }
        if let Some(tenths) = m.tenths {
            let tenths = i32::try_from(tenths).unwrap_or(i32::MAX);
            by_teacher.add(&m.sender_id, &[tenths]);
            by_pupil.add(&m.student_id, &[tenths]);
        }
    })
    .await?;
    let sentiment_rows: Vec<(String, String, i64)> = per_day
        .into_iter()
        .map(|((day, sentiment), n)| {
            (insights::date_of_day(day).format("%Y-%m-%d").to_string(), sentiment.to_owned(), n)
        })
        .collect();
    // Per class: each mark counts for every class the pupil is in.
    let mut by_class = Groups::default();
    if !by_pupil.is_empty() {
        insights::memberships(conn, &c.scope.school_ids, |m| {
            if let Some(tenths) = by_pupil.get(&m.student_id) {
                by_class.add(&m.class_id, tenths);
            }
        })
        .await?;
    }
    drop(by_pupil);
    let teacher_names = insights::names(conn, false, &by_teacher.ids()).await?;
    let class_names = insights::names(conn, true, &by_class.ids()).await?;
    let by_teacher = insights::turnarounds(by_teacher.into_pairs(), &teacher_names);
    let by_class = insights::turnarounds(by_class.into_pairs(), &class_names);
    let reach = insights::reach(conn, &c.scope, &c.filter, start, end)
        .await?
        .into_iter()
        .map(|r| ReachRow {
            share: percent(r.reached, r.decided),
            message_type: r.kind,
            reached: r.reached,
            decided: r.decided,
        })
        .collect();
    Ok(InsightsOverview {
        from: c.from.format("%Y-%m-%d").to_string(),
        to: c.to.format("%Y-%m-%d").to_string(),
        scope: scope_name(&c.scope, role).to_owned(),
        hand_ins,
        turnaround_by_teacher: rows(by_teacher),
        turnaround_by_class: rows(by_class),
        sentiment: sentiment_weeks(&all, &sentiment_rows),
        reach,
    })
}

/// The sentiment as counted (anything but POSITIVE and NEGATIVE counts as NEUTRAL).
fn sentiment_name(sentiment: &str) -> &'static str {
    match sentiment {
        "POSITIVE" => "POSITIVE",
        "NEGATIVE" => "NEGATIVE",
        _ => "NEUTRAL",
    }
}

/// Tenths of an hour per group id (a teacher, a pupil, a class), each id kept once.
#[derive(Debug, Default)]
struct Groups {
    index: HashMap<String, usize>,
    groups: Vec<(String, Vec<i32>)>,
}

impl Groups {
    fn add(&mut self, id: &str, tenths: &[i32]) {
        let at = match self.index.get(id) {
            Some(at) => *at,
            None => {
                self.index.insert(id.to_owned(), self.groups.len());
                self.groups.push((id.to_owned(), Vec::new()));
                self.groups.len() - 1
            }
        };
        self.groups[at].1.extend_from_slice(tenths);
    }

    fn get(&self, id: &str) -> Option<&[i32]> {
        self.index.get(id).map(|at| self.groups[*at].1.as_slice())
    }

    fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    fn ids(&self) -> Vec<String> {
        self.groups.iter().map(|(id, _)| id.clone()).collect()
    }

    fn into_pairs(self) -> Vec<(String, Vec<i32>)> {
        self.groups
    }
}
