//! `insights.overview`: the Insights page's charts for a range and filters: hand-in and
//! on-time rates per week (the week of the due date), marking turnaround per teacher and
//! per class (median and 90th percentile hours), sentiment per week (the week marked) and
//! parents reached per message type (docs/insights.md).

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use core_wasm::UserRole;
use diesel::result::QueryResult;

use crate::cache::ProcessCache;
use crate::db::{Db, DbConn};
use crate::models::insights::{self, Named};
use crate::rpc::insights::{
    checked, hours, percent, scope_name, trust_answer, trust_cache, trust_key, weeks, Checked, InsightsInput, TRUST_TTL,
};
use crate::rpc::superjson::JsDate;
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
        /// Per teacher and per class: for one school (empty for a whole trust).
        pub turnaround_by_teacher: Vec<TurnaroundRow>,
        pub turnaround_by_class: Vec<TurnaroundRow>,
        /// Per school: for a whole trust, before one school is chosen (else empty).
        pub turnaround_by_school: Vec<TurnaroundRow>,
        pub sentiment: Vec<SentimentWeek>,
        pub reach: Vec<ReachRow>,
        /// When these figures were worked out: now for a school or a teacher, up to a few
        /// minutes ago for a trust (`insights::TRUST_STALE`).
        pub worked_out_at: JsDate,
        /// For a trust: these figures are older than a minute and newer ones are being
        /// worked out; the page asks again in a few seconds. Always false for a school.
        pub refreshing: bool,
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

/// Trust-wide answers (`insights::trust_cache`).
static TRUST: LazyLock<ProcessCache<String, InsightsOverview>> = LazyLock::new(trust_cache);

pub async fn handler(ctx: &Ctx, input: InsightsInput) -> RpcResult<InsightsOverview> {
    let (c, role) = checked(ctx, &input).await?;
    match trust_key(&c, role, "") {
        Some(key) => {
            let mut answer = trust_answer(ctx, &TRUST, key.clone(), Ok, move |db| async move {
                overview(&db, &c, role).await
            })
            .await?;
            // Older than its minute, and a newer answer is being worked out (`get_or_refresh`
            // started it, in the background).
            let old = (chrono::Utc::now() - answer.worked_out_at.0).to_std().is_ok_and(|age| age > TRUST_TTL);
            answer.refreshing = old && TRUST.reading(&key);
            Ok(answer)
        }
        None => overview(&ctx.state.db, &c, role).await,
    }
}

/// The overview of `c`, from the database. One school's four reads (hand-ins, marks, class
/// memberships, parents reached) go at once on connections that are free now
/// ([`Db::conn_if_free`]), else one after another; a trust's go one after another, so its
/// marks are grouped as they arrive and a reading holds one connection (docs/scaling.md).
pub(super) async fn overview(db: &Db, c: &Checked, role: UserRole) -> RpcResult<InsightsOverview> {
    let (start, end) = (c.start(), c.end());
    let all = weeks(c.from, c.to);
    let one_school = c.scope.school_ids.len() == 1;
    let mut first = db.conn().await?;
    let mut more = Vec::new();
    if one_school {
        more = db.conns_if_free(3).await.unwrap_or_default();
        crate::metrics::reads("insights.overview", more.len() == 3);
    }
    let (hand_in_rows, marks, memberships, reach) = if let [a, b, d] = &mut more[..] {
        let (mut a, mut b, mut d, mut m) = (a.db(), b.db(), d.db(), first.db());
        tokio::try_join!(
            insights::hand_ins(&mut a, &c.scope, &c.filter, start, end),
            read_marks(&mut m, c),
            read_memberships(&mut b, c),
            insights::reach(&mut d, &c.scope, &c.filter, start, end),
        )?
    } else {
        let conn = &mut first.db();
        (
            insights::hand_ins(conn, &c.scope, &c.filter, start, end).await?,
            read_marks(conn, c).await?,
            read_memberships(conn, c).await?,
            insights::reach(conn, &c.scope, &c.filter, start, end).await?,
        )
    };
    drop(more);

    let mut hand: BTreeMap<String, (i64, i64, i64)> = all.iter().map(|w| (w.clone(), (0, 0, 0))).collect();
    for day in hand_in_rows {
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

    let MarkGroups { per_day, by_school, by_teacher, by_pupil } = marks;
    let sentiment_rows: Vec<(String, String, i64)> = per_day
        .into_iter()
        .map(|((day, sentiment), n)| {
            (insights::date_of_day(day).format("%Y-%m-%d").to_string(), sentiment.to_owned(), n)
        })
        .collect();
    // Per class: each mark counts for every class the pupil is in.
    let mut by_class = Groups::default();
    for m in &memberships {
        if let Some(tenths) = by_pupil.get(&m.student_id) {
            by_class.add(&m.class_id, tenths);
        }
    }
    drop((by_pupil, memberships));
    let conn = &mut first.db();
    let teacher_names = insights::names(conn, Named::Users, &by_teacher.ids()).await?;
    let class_names = insights::names(conn, Named::Classes, &by_class.ids()).await?;
    let school_names = insights::names(conn, Named::Schools, &by_school.ids()).await?;
    let by_teacher = insights::turnarounds(by_teacher.into_pairs(), &teacher_names);
    let by_class = insights::turnarounds(by_class.into_pairs(), &class_names);
    let by_school = insights::turnarounds(by_school.into_pairs(), &school_names);
    let reach = reach
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
        turnaround_by_school: rows(by_school),
        sentiment: sentiment_weeks(&all, &sentiment_rows),
        reach,
        worked_out_at: JsDate::from(chrono::Utc::now()),
        refreshing: false,
    })
}

/// What one read of the marks gives, grouped as the rows arrived ([`read_marks`]).
#[derive(Default)]
struct MarkGroups {
    per_day: BTreeMap<(i64, &'static str), i64>,
    /// A whole trust's turnaround is per school: 50 schools' 5,000 teachers and 10,000
    /// classes would be one chart of 15,000 bars (docs/insights.md).
    by_school: Groups,
    /// One school's is per teacher and per class (through the pupils' classes).
    by_teacher: Groups,
    by_pupil: Groups,
}

/// Sentiment and both turnarounds from one read of the marks (docs/performance.md),
/// grouped as the rows arrive: a trust's million marks are never held as rows.
async fn read_marks(conn: &mut DbConn<'_>, c: &Checked) -> QueryResult<MarkGroups> {
    let per_school = c.scope.school_ids.len() > 1;
    let mut groups = MarkGroups::default();
    insights::marks(conn, &c.scope, &c.filter, c.start(), c.end(), |m| {
        if let Some(sentiment) = &m.sentiment {
            *groups.per_day.entry((m.day, sentiment_name(sentiment))).or_default() += 1;
        }
        if let Some(tenths) = m.tenths {
            let tenths = i32::try_from(tenths).unwrap_or(i32::MAX);
            if per_school {
                groups.by_school.add(&m.school_id, &[tenths]);
            } else {
                groups.by_teacher.add(&m.sender_id, &[tenths]);
                groups.by_pupil.add(&m.student_id, &[tenths]);
            }
        }
    })
    .await?;
    Ok(groups)
}

/// One school's class memberships, for its turnaround per class (a trust's is per school
/// and needs none). Read whether or not there are marks, so it can go beside them.
async fn read_memberships(conn: &mut DbConn<'_>, c: &Checked) -> QueryResult<Vec<insights::Membership>> {
    let mut rows = Vec::new();
    if c.scope.school_ids.len() == 1 {
        insights::memberships(conn, &c.scope.school_ids, |m| rows.push(m)).await?;
    }
    Ok(rows)
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

    fn ids(&self) -> Vec<String> {
        self.groups.iter().map(|(id, _)| id.clone()).collect()
    }

    fn into_pairs(self) -> Vec<(String, Vec<i32>)> {
        self.groups
    }
}
