//! A trust's Insights prepared before the day starts (docs/insights.md "Prepared before the
//! day starts"): the night's `insights.prepare` run works out, for each trust a MAT user
//! used lately, the overview and the pupils to look at as the page first asks for them, and
//! keeps them for every process. A MAT user's first view is then given the prepared answer
//! at once (a process that holds none), marked as being worked out again, and the newer
//! figures follow. A MAT user with no session used in two weeks has nothing prepared; the
//! run queues the next day's.

use std::time::Duration as StdDuration;

use chrono::Duration;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{jobs, sessions};
use voicemark::db::Backend;
use voicemark::jobs::insights_prepare::{next_run, schedule, KIND};
use voicemark::models::now;
use voicemark::rpc::insights::prepare::{prepare_trusts, Prepared};
use voicemark::with_conn;

use crate::dual_test;
use crate::insights::{seed, Seeded};
use crate::submissions::query;
use crate::support::TestApp;

/// The page's first question: no filter, the default range.
fn first_filters() -> Value {
    json!({"from": null, "to": null, "schoolId": null, "yearGroupId": null,
           "formGroupId": null, "classId": null, "teacherId": null})
}

async fn first_overview(app: &TestApp, s: &Seeded) -> Value {
    query(app, "insights.overview", first_filters(), Some(&s.mat.cookie)).await.data().clone()
}

async fn first_pupils(app: &TestApp, s: &Seeded) -> String {
    let answer = query(app, "insights.pupils", json!({"filters": first_filters(), "last": 3}), Some(&s.mat.cookie)).await;
    answer.data().to_string()
}

#[derive(diesel::QueryableByName)]
struct Kept {
    #[diesel(sql_type = diesel::sql_types::Text)]
    key_hash: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    body: String,
    #[diesel(sql_type = diesel::sql_types::Timestamp)]
    worked_out_at: chrono::NaiveDateTime,
}

/// Makes the kept answers three hours old (worked out before the day started: the row's
/// time and the overview's own `workedOutAt`) and renames the pupils in them, so an answer
/// given from them is told from one worked out now. Answers how many there were.
async fn age_the_kept_answers(app: &TestApp) -> usize {
    let mut pooled = app.db.conn().await.expect("connection");
    let rows: Vec<Kept> = with_conn!(pooled.db(), |c| diesel::sql_query(
        "SELECT key_hash, body, worked_out_at FROM insight_answers"
    )
    .load(c)
    .await)
    .expect("kept answers");
    let update = match app.backend() {
        Backend::Postgres => "UPDATE insight_answers SET body = $1, worked_out_at = $2 WHERE key_hash = $3",
        Backend::Sqlite => "UPDATE insight_answers SET body = ?, worked_out_at = ? WHERE key_hash = ?",
    };
    for row in &rows {
        let mut body: Value = serde_json::from_str(&row.body).expect("an answer");
        if let Some(at) = body.get("workedOutAt").and_then(Value::as_str) {
            // Kept with the process's date marker before the ISO text; plain ISO reads too.
            let iso = at.split_once(":Date:").map_or(at, |(_, iso)| iso);
            let at: chrono::DateTime<chrono::Utc> = iso.parse().expect("a time");
            body["workedOutAt"] = json!((at - Duration::hours(3)).to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
        }
        let body = body.to_string().replace("Pupil", "Prepared");
        with_conn!(pooled.db(), |c| diesel::sql_query(update)
            .bind::<diesel::sql_types::Text, _>(body.clone())
            .bind::<diesel::sql_types::Timestamp, _>(row.worked_out_at - Duration::hours(3))
            .bind::<diesel::sql_types::Text, _>(row.key_hash.clone())
            .execute(c)
            .await)
        .expect("aged");
    }
    rows.len()
}

dual_test! {
    async fn a_trusts_first_answers_are_prepared_before_the_day_and_given_at_once(app: TestApp) {
        let s = seed(&app).await;
        // Nothing has been asked, so nothing is kept.
        assert_eq!(age_the_kept_answers(&app).await, 0);
        let prepared = prepare_trusts(&app.db, now()).await.expect("prepared");
        assert_eq!(prepared, Prepared { trusts: 1, answers: 2 }, "the one trust a MAT user uses");
        assert_eq!(age_the_kept_answers(&app).await, 2);

        // The first view is the prepared answer, given at once and being worked out again.
        let before_the_day = chrono::Utc::now() - Duration::minutes(170);
        let first = first_overview(&app, &s).await;
        let worked_out_at: chrono::DateTime<chrono::Utc> =
            first["workedOutAt"].as_str().expect("workedOutAt").parse().expect("a time");
        assert!(worked_out_at < before_the_day, "prepared three hours ago: {first}");
        assert_eq!(first["refreshing"], true, "{first}");
        assert!(crate::insights::assigned(&first) > 0, "the trust's figures: {first}");
        let pupils = first_pupils(&app, &s).await;
        assert!(pupils.contains("Prepared") && !pupils.contains("Pupil"), "the prepared pupils: {pupils}");

        // Newer figures follow by themselves, the same as the prepared ones (nothing changed).
        let mut fresh = first.clone();
        for _ in 0..100 {
            fresh = first_overview(&app, &s).await;
            if fresh["refreshing"] == false {
                break;
            }
            tokio::time::sleep(StdDuration::from_millis(100)).await;
        }
        assert_eq!(fresh["refreshing"], false, "{fresh}");
        assert_ne!(fresh["workedOutAt"], first["workedOutAt"]);
        assert_eq!(fresh["handIns"], first["handIns"], "the same figures, worked out again");
        let mut pupils = String::new();
        for _ in 0..100 {
            pupils = first_pupils(&app, &s).await;
            if pupils.contains("Pupil") {
                break;
            }
            tokio::time::sleep(StdDuration::from_millis(100)).await;
        }
        assert!(pupils.contains("Pupil") && !pupils.contains("Prepared"), "worked out again: {pupils}");

        // A MAT user whose sessions were last used over two weeks ago has nothing prepared.
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::update(sessions::table.filter(sessions::user_id.eq(&s.mat.id)))
                .set(sessions::last_seen_at.eq(now() - Duration::days(15)))
                .execute(c)
                .await)
            .expect("sessions aged");
        }
        assert_eq!(prepare_trusts(&app.db, now()).await.expect("prepared"), Prepared::default());
    }
}

dual_test! {
    async fn the_nightly_run_is_queued_once_a_day_and_queues_the_next(app: TestApp) {
        let s = seed(&app).await;
        let count = |key: String| {
            let db = app.db.clone();
            async move {
                let mut pooled = db.conn().await.expect("connection");
                with_conn!(pooled.db(), |c| jobs::table
                    .filter(jobs::idempotency_key.eq(&key))
                    .filter(jobs::status.eq("QUEUED"))
                    .count()
                    .get_result::<i64>(c)
                    .await)
                .expect("count")
            }
        };
        let key_of = |at: chrono::NaiveDateTime| format!("{KIND}:{}", next_run(at).format("%Y-%m-%d"));
        // Queued twice (two processes starting): one job. A day ago's run is due now.
        let yesterday = now() - Duration::days(1);
        for _ in 0..2 {
            let mut pooled = app.db.conn().await.expect("connection");
            schedule(&mut pooled.db(), yesterday).await.expect("queued");
        }
        assert_eq!(count(key_of(yesterday)).await, 1);
        assert!(next_run(yesterday) <= now());

        // The workers run it: the trust's answers are kept, and tomorrow's run is queued.
        assert!(crate::sending::drain(&app.state).await >= 1);
        assert_eq!(count(key_of(yesterday)).await, 0, "ran");
        let asked = chrono::Utc::now();
        let first = first_overview(&app, &s).await;
        assert_eq!(first["refreshing"], false, "prepared moments ago, within its minute: {first}");
        let worked_out_at: chrono::DateTime<chrono::Utc> =
            first["workedOutAt"].as_str().expect("workedOutAt").parse().expect("a time");
        assert!(worked_out_at < asked, "the prepared answer, not one worked out for the request: {first}");
        assert_eq!(count(key_of(now())).await, 1, "the next day's run");
    }
}
