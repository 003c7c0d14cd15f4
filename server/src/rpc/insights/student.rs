//! `insights.student`: one pupil's view on their profile: per week of the due date, the
//! assignments handed in, on time and missing; per week marked, the median hours from
//! hand-in to mark and the sentiment counts. Every assignment of the school, like the
//! profile's timeline (any member of staff of the school may read the profile).

use std::collections::BTreeMap;

use crate::models::insights;
use crate::rpc::insights::overview::{sentiment_weeks, SentimentWeek};
use crate::rpc::insights::{hours, range, weeks};
use crate::rpc::student::require_student;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct StudentInsightsInput {
        pub id: String,
        pub from: Option<String>,
        pub to: Option<String>,
    }
}

rpc_type! {
    pub struct StudentHandInWeek {
        pub week: String,
        pub handed_in: i64,
        pub on_time: i64,
        pub missing: i64,
    }
}

rpc_type! {
    pub struct StudentTurnaroundWeek {
        pub week: String,
        pub marks: i64,
        /// Null without marks that week.
        pub median_hours: Option<f64>,
    }
}

rpc_type! {
    pub struct StudentInsights {
        pub from: String,
        pub to: String,
        pub hand_ins: Vec<StudentHandInWeek>,
        pub turnaround: Vec<StudentTurnaroundWeek>,
        pub sentiment: Vec<SentimentWeek>,
    }
}

/// Without a range: the 12 weeks up to today and the next this many days (open assignments).
pub const UPCOMING_DAYS: i64 = 14;

fn key(day: &chrono::NaiveDateTime) -> Option<String> {
    crate::rpc::insights::week_of(&day.format("%Y-%m-%d").to_string()).map(|w| w.format("%Y-%m-%d").to_string())
}

/// The nearest-rank median of `values` (sorted here).
pub fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    (n > 0).then(|| values[n.div_ceil(2) - 1])
}

pub async fn handler(ctx: &Ctx, input: StudentInsightsInput) -> RpcResult<StudentInsights> {
    let (from, to) = if input.from.is_none() && input.to.is_none() {
        let (from, today) = range(None, None)?;
        (from, today + chrono::Duration::days(UPCOMING_DAYS))
    } else {
        range(input.from.as_deref(), input.to.as_deref())?
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let school_id = require_student(ctx, &mut conn, &input.id).await?;
    let start = from.and_hms_opt(0, 0, 0).expect("midnight");
    let end = (to + chrono::Duration::days(1)).and_hms_opt(0, 0, 0).expect("midnight");
    let rows = insights::pupil_assignments(&mut conn, &school_id, &input.id, start, end).await?;
    let all = weeks(from, to);
    let mut hand: BTreeMap<String, StudentHandInWeek> = all
        .iter()
        .map(|w| (w.clone(), StudentHandInWeek { week: w.clone(), handed_in: 0, on_time: 0, missing: 0 }))
        .collect();
    let mut durations: BTreeMap<String, Vec<f64>> = all.iter().map(|w| (w.clone(), Vec::new())).collect();
    let mut sentiments = Vec::new();
    for row in &rows {
        if let Some(entry) = row.due.as_ref().and_then(key).and_then(|k| hand.get_mut(&k)) {
            match row.received_at {
                Some(at) => {
                    entry.handed_in += 1;
                    if row.due.is_some_and(|due| at <= due) {
                        entry.on_time += 1;
                    }
                }
                None => entry.missing += 1,
            }
        }
        if let (Some(received), Some(marked)) = (row.received_at, row.marked_at) {
            if let Some(list) = key(&marked).and_then(|k| durations.get_mut(&k)) {
                list.push((marked - received).num_seconds() as f64 / 3600.0);
            }
        }
        // Held feedback stays out, as on the profile's timeline.
        if let (Some(marked), Some(_), Some(sentiment)) = (row.marked_at, row.released_at, &row.sentiment) {
            sentiments.push((marked.format("%Y-%m-%d").to_string(), sentiment.clone(), 1));
        }
    }
    Ok(StudentInsights {
        from: from.format("%Y-%m-%d").to_string(),
        to: to.format("%Y-%m-%d").to_string(),
        hand_ins: hand.into_values().collect(),
        turnaround: durations
            .into_iter()
            .map(|(week, mut list)| StudentTurnaroundWeek {
                week,
                marks: list.len() as i64,
                median_hours: median(&mut list).map(hours),
            })
            .collect(),
        sentiment: sentiment_weeks(&all, &sentiments),
    })
}
