//! Insights (issue 29 items 4 and 5, docs/insights.md): the numbers of `insights.overview`,
//! `insights.pupils` and `insights.student` equal an independent computation over a seeded
//! data set (hand-in and on-time rates, turnaround median and 90th percentile, sentiment
//! counts, parents reached), and the scope: a teacher sees only their assignments, another
//! school nothing, a MAT user their trust with a school filter.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime};
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{class_students, classes, deliveries, notifications, schools, submissions, trusts};
use voicemark::ids::{new_id, new_token};
use voicemark::models::now;
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{pupil, query, school, staff, Staff};
use crate::support::TestApp;

const SENTIMENTS: [&str; 3] = ["POSITIVE", "NEUTRAL", "NEGATIVE"];
const PUPILS: usize = 10;
const ASSIGNMENTS: usize = 6;

/// One seeded submission, as the independent computation sees it.
#[derive(Debug, Clone)]
struct Sub {
    assignment: usize,
    pupil: usize,
    due: NaiveDateTime,
    received: Option<NaiveDateTime>,
    marked: Option<NaiveDateTime>,
    sentiment: Option<&'static str>,
}

/// Six assignments of school A, due every third day from 40 days ago: even ones sent by
/// Tess, odd ones by Colin. Pupil 9 never hands in; pupil 8's feedback is always negative;
/// otherwise a pupil hands in unless (a + p) % 3 == 0, on time when (a + p) is even (an
/// hour early) and else five hours late, is marked unless p % 4 == 3, after
/// (7a + 5p) % 50 + 1 hours, with sentiment (a + p) % 3.
fn spec(base: NaiveDateTime) -> Vec<Sub> {
    let mut out = Vec::new();
    for a in 0..ASSIGNMENTS {
        let due = base + Duration::days(3 * a as i64);
        for p in 0..PUPILS {
            let hands_in = p != 9 && (a + p) % 3 != 0;
            let received = hands_in.then(|| {
                if (a + p) % 2 == 0 { due - Duration::hours(1) } else { due + Duration::hours(5) }
            });
            let marked = received
                .filter(|_| p % 4 != 3)
                .map(|r| r + Duration::hours(((7 * a + 5 * p) % 50 + 1) as i64));
            let sentiment = marked.map(|_| if p == 8 { "NEGATIVE" } else { SENTIMENTS[(a + p) % 3] });
            out.push(Sub { assignment: a, pupil: p, due, received, marked, sentiment });
        }
    }
    out
}

fn week(at: NaiveDateTime) -> String {
    let d = at.date();
    (d - Duration::days(d.weekday().num_days_from_monday() as i64)).format("%Y-%m-%d").to_string()
}

/// Nearest rank: the value at rank ⌈p·n⌉ of the sorted list.
fn rank(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len() as f64;
    sorted[((p * n).ceil() as usize).max(1) - 1]
}

fn percent(part: usize, whole: usize) -> f64 {
    (part as f64 * 1000.0 / whole as f64).round() / 10.0
}

pub(crate) struct Seeded {
    pub(crate) a: String,
    b: String,
    pub(crate) admin: Staff,
    pub(crate) tess: Staff,
    colin: Staff,
    pub(crate) mat: Staff,
    stranger: Staff,
    pub(crate) pupils: Vec<String>,
    pub(crate) class_id: String,
    subs: Vec<Sub>,
    pub(crate) from: String,
    pub(crate) to: String,
}

async fn notification(app: &TestApp, school: &str, sender: &str, kind: &str, due: Option<NaiveDateTime>) -> String {
    let id = new_id();
    let at = now();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(notifications::table)
        .values((
            notifications::id.eq(&id),
            notifications::created_at.eq(at),
            notifications::updated_at.eq(at),
            notifications::type_.eq(kind),
            notifications::title.eq("Seeded"),
            notifications::body.eq("<p>Seeded.</p>"),
            notifications::submission_due_date.eq(due),
            notifications::send_to_parent.eq(true),
            notifications::send_to_pupil.eq(true),
            notifications::filters.eq("{}"),
            notifications::sender_id.eq(sender),
            notifications::school_id.eq(school),
        ))
        .execute(c)
        .await)
    .expect("notification");
    id
}

async fn submission(app: &TestApp, n: &str, student: &str, s: &Sub) {
    let at = now();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(submissions::table)
        .values((
            submissions::id.eq(new_id()),
            submissions::created_at.eq(at),
            submissions::updated_at.eq(at),
            submissions::token.eq(new_token()),
            submissions::notification_id.eq(n),
            submissions::student_id.eq(student),
            submissions::received_at.eq(s.received),
            submissions::marked_at.eq(s.marked),
            submissions::feedback_released_at.eq(s.marked),
            submissions::feedback.eq(s.marked.map(|_| "Seeded feedback.")),
            submissions::feedback_sentiment.eq(s.sentiment),
        ))
        .execute(c)
        .await)
    .expect("submission");
}

/// A parent delivery of pupil `p` on `n`: p % 4 = 0 sent, 1 bounced, 2 not sent (no
/// address), 3 waiting.
async fn delivery(app: &TestApp, school: &str, n: &str, student: &str, p: usize) {
    let at = now() - Duration::days(2);
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(deliveries::table)
        .values((
            deliveries::id.eq(new_id()),
            deliveries::school_id.eq(school),
            deliveries::notification_id.eq(n),
            deliveries::student_id.eq(student),
            deliveries::audience.eq("parent"),
            deliveries::address.eq((p % 4 != 2).then_some("parent@families.test")),
            deliveries::not_sent_reason.eq((p % 4 == 2).then_some("NO_ADDRESS")),
            deliveries::created_at.eq(at),
            deliveries::sent_at.eq((p % 4 < 2).then_some(at)),
            deliveries::bounced_at.eq((p % 4 == 1).then_some(at + Duration::minutes(5))),
        ))
        .execute(c)
        .await)
    .expect("delivery");
}

/// Three schools (two in a trust), staff of each role, ten pupils, a class, six assignments
/// with hand-ins, marks and parent deliveries (also `it::index_use`'s data).
pub(crate) async fn seed(app: &TestApp) -> Seeded {
    let a = school(app, "Northbridge").await;
    let b = school(app, "Southbridge").await;
    let c_school = school(app, "Elsewhere").await;
    let trust = new_id();
    {
        let at = now();
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| {
            diesel::insert_into(trusts::table)
                .values((trusts::id.eq(&trust), trusts::name.eq("Bridges Trust"), trusts::created_at.eq(at), trusts::updated_at.eq(at)))
                .execute(c)
                .await
                .expect("trust");
            diesel::update(schools::table.filter(schools::id.eq_any([&a, &b])))
                .set(schools::trust_id.eq(&trust))
                .execute(c)
                .await
        })
        .expect("trust schools");
    }
    let admin = staff(app, Some(&a), UserRole::Admin, "Ada").await;
    let tess = staff(app, Some(&a), UserRole::Teacher, "Tess").await;
    let colin = staff(app, Some(&a), UserRole::Teacher, "Colin").await;
    let mat = staff(app, Some(&a), UserRole::MatUser, "Mat").await;
    let stranger = staff(app, Some(&c_school), UserRole::Admin, "Stan").await;
    let bea = staff(app, Some(&b), UserRole::Teacher, "Bea").await;
    let mut pupils = Vec::new();
    for p in 0..PUPILS {
        pupils.push(pupil(app, &a, &format!("Pupil{p}")).await);
    }
    let class_id = new_id();
    {
        let at = now();
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| {
            diesel::insert_into(classes::table)
                .values((classes::id.eq(&class_id), classes::created_at.eq(at), classes::updated_at.eq(at),
                         classes::name.eq("7E English"), classes::school_id.eq(&a)))
                .execute(c)
                .await
                .expect("class");
            for p in &pupils[..5] {
                diesel::insert_into(class_students::table)
                    .values((class_students::class_id.eq(&class_id), class_students::student_id.eq(p)))
                    .execute(c)
                    .await
                    .expect("class pupil");
            }
            Ok::<_, diesel::result::Error>(())
        })
        .expect("class");
    }
    let today = now().date();
    let base = (today - Duration::days(40)).and_hms_opt(9, 0, 0).unwrap();
    let subs = spec(base);
    let mut ids = Vec::new();
    for a_i in 0..ASSIGNMENTS {
        let sender = if a_i % 2 == 0 { &tess.id } else { &colin.id };
        ids.push(notification(app, &a, sender, "ASSIGNMENT", Some(base + Duration::days(3 * a_i as i64))).await);
    }
    for s in &subs {
        submission(app, &ids[s.assignment], &pupils[s.pupil], s).await;
    }
    // Parents: assignment 0 (Tess's) and a GENERAL message (Colin's) to every pupil.
    let general = notification(app, &a, &colin.id, "GENERAL", None).await;
    for (p, student) in pupils.iter().enumerate() {
        delivery(app, &a, &ids[0], student, p).await;
        delivery(app, &a, &general, student, p).await;
    }
    // School B: one assignment to three pupils, all handed in on time.
    let nb = notification(app, &b, &bea.id, "ASSIGNMENT", Some(base)).await;
    for p in 0..3 {
        let student = pupil(app, &b, &format!("South{p}")).await;
        let s = Sub { assignment: 0, pupil: p, due: base, received: Some(base - Duration::hours(2)), marked: None, sentiment: None };
        submission(app, &nb, &student, &s).await;
    }
    Seeded {
        a,
        b,
        admin,
        tess,
        colin,
        mat,
        stranger,
        pupils,
        class_id,
        subs,
        from: (today - Duration::days(60)).format("%Y-%m-%d").to_string(),
        to: today.format("%Y-%m-%d").to_string(),
    }
}

/// A new assignment of school A, due yesterday, to one pupil who never hands it in: one more
/// assigned in the overview's hand-ins.
pub(crate) async fn one_more_assignment(app: &TestApp, s: &Seeded) {
    let due = (now().date() - Duration::days(1)).and_hms_opt(9, 0, 0).unwrap();
    let n = notification(app, &s.a, &s.tess.id, "ASSIGNMENT", Some(due)).await;
    let sub = Sub { assignment: 0, pupil: 0, due, received: None, marked: None, sentiment: None };
    submission(app, &n, &s.pupils[0], &sub).await;
}

/// The overview's assignments, summed over the weeks.
pub(crate) fn assigned(answer: &Value) -> i64 {
    answer["handIns"].as_array().unwrap().iter().map(|w| w["assigned"].as_i64().unwrap()).sum()
}

/// The page's filters for the seeded range, with `extra`.
pub(crate) fn filters(s: &Seeded, extra: Value) -> Value {
    let mut f = json!({"from": s.from, "to": s.to, "schoolId": null, "yearGroupId": null,
                       "formGroupId": null, "classId": null, "teacherId": null});
    for (k, v) in extra.as_object().unwrap() {
        f[k] = v.clone();
    }
    f
}

async fn overview(app: &TestApp, s: &Seeded, who: &Staff, extra: Value) -> Value {
    query(app, "insights.overview", filters(s, extra), Some(&who.cookie)).await.data().clone()
}

/// Expected hand-ins per week: (assigned, handed in, on time).
fn hand_ins(subs: &[&Sub]) -> BTreeMap<String, (usize, usize, usize)> {
    let mut out = BTreeMap::new();
    for s in subs {
        let e = out.entry(week(s.due)).or_insert((0, 0, 0));
        e.0 += 1;
        if let Some(r) = s.received {
            e.1 += 1;
            if r <= s.due {
                e.2 += 1;
            }
        }
    }
    out
}

fn check_hand_ins(answer: &Value, subs: &[&Sub]) {
    let expected = hand_ins(subs);
    let got: BTreeMap<String, (usize, usize, usize)> = answer["handIns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["assigned"].as_i64().unwrap() > 0)
        .map(|w| {
            let n = |k: &str| w[k].as_i64().unwrap() as usize;
            let (a, h, o) = (n("assigned"), n("handedIn"), n("onTime"));
            assert_eq!(w["handInRate"].as_f64().unwrap(), percent(h, a), "{w}");
            assert_eq!(w["onTimeRate"].as_f64().unwrap(), percent(o, a), "{w}");
            (w["week"].as_str().unwrap().to_owned(), (a, h, o))
        })
        .collect();
    assert_eq!(got, expected);
}

fn turnaround(subs: &[&Sub]) -> (usize, f64, f64) {
    let mut hours: Vec<f64> = subs
        .iter()
        .filter_map(|s| Some((s.marked? - s.received?).num_minutes() as f64 / 60.0))
        .collect();
    hours.sort_by(f64::total_cmp);
    (hours.len(), rank(&hours, 0.5), rank(&hours, 0.9))
}

fn row_of<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array().unwrap().iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id} in {list}"))
}

fn check_turnaround(row: &Value, subs: &[&Sub]) {
    let (n, median, p90) = turnaround(subs);
    assert_eq!(row["marks"].as_i64().unwrap() as usize, n, "{row}");
    assert_eq!(row["medianHours"].as_f64().unwrap(), median, "{row}");
    assert_eq!(row["p90Hours"].as_f64().unwrap(), p90, "{row}");
}

dual_test!(
    async fn the_numbers_equal_an_independent_computation(app: TestApp) {
        let s = seed(&app).await;
        let all: Vec<&Sub> = s.subs.iter().collect();
        let answer = overview(&app, &s, &s.admin, json!({})).await;
        assert_eq!(answer["scope"], "SCHOOL");
        check_hand_ins(&answer, &all);

        // Turnaround per teacher (Tess sent the even assignments) and per class.
        let tess: Vec<&Sub> = all.iter().copied().filter(|x| x.assignment % 2 == 0).collect();
        let colin: Vec<&Sub> = all.iter().copied().filter(|x| x.assignment % 2 == 1).collect();
        check_turnaround(row_of(&answer["turnaroundByTeacher"], &s.tess.id), &tess);
        check_turnaround(row_of(&answer["turnaroundByTeacher"], &s.colin.id), &colin);
        let class: Vec<&Sub> = all.iter().copied().filter(|x| x.pupil < 5).collect();
        let class_row = row_of(&answer["turnaroundByClass"], &s.class_id);
        assert_eq!(class_row["name"], "7E English");
        check_turnaround(class_row, &class);

        // Sentiment per week marked.
        let mut expected: BTreeMap<String, [i64; 3]> = BTreeMap::new();
        for x in &all {
            if let (Some(m), Some(sent)) = (x.marked, x.sentiment) {
                expected.entry(week(m)).or_default()[SENTIMENTS.iter().position(|v| *v == sent).unwrap()] += 1;
            }
        }
        let got: BTreeMap<String, [i64; 3]> = answer["sentiment"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| (w["week"].as_str().unwrap().to_owned(),
                      [w["positive"].as_i64().unwrap(), w["neutral"].as_i64().unwrap(), w["negative"].as_i64().unwrap()]))
            .filter(|(_, c)| c.iter().sum::<i64>() > 0)
            .collect();
        assert_eq!(got, expected);

        // Parents reached: per type, 10 pupils: 3 sent (p%4=0), 3 bounced, 2 not sent, 2
        // waiting → 3 reached of 8 decided.
        let reach = answer["reach"].as_array().unwrap();
        assert_eq!(reach.len(), 2, "{reach:?}");
        for r in reach {
            assert_eq!((r["reached"].as_i64(), r["decided"].as_i64()), (Some(3), Some(8)), "{r}");
            assert_eq!(r["share"].as_f64(), Some(37.5));
        }

        // The class filter: only its pupils' numbers.
        let by_class = overview(&app, &s, &s.admin, json!({"classId": s.class_id})).await;
        check_hand_ins(&by_class, &class);

        // The pupil's own view: hand-ins per week due and median turnaround per week marked.
        let p0: Vec<&Sub> = all.iter().copied().filter(|x| x.pupil == 0).collect();
        let mine = query(&app, "insights.student",
                         json!({"id": s.pupils[0], "from": s.from, "to": s.to}), Some(&s.tess.cookie)).await;
        let mine = mine.data();
        let expected = hand_ins(&p0);
        for w in mine["handIns"].as_array().unwrap() {
            let (a, h, o) = expected.get(w["week"].as_str().unwrap()).copied().unwrap_or_default();
            assert_eq!(w["handedIn"].as_i64().unwrap() as usize, h, "{w}");
            assert_eq!(w["onTime"].as_i64().unwrap() as usize, o, "{w}");
            assert_eq!(w["missing"].as_i64().unwrap() as usize, a - h, "{w}");
        }
        let marks: i64 = mine["turnaround"].as_array().unwrap().iter().map(|w| w["marks"].as_i64().unwrap()).sum();
        assert_eq!(marks as usize, p0.iter().filter(|x| x.marked.is_some()).count());
    }
);

/// `answer` without the time it was worked out.
fn figures(mut answer: Value) -> Value {
    answer.as_object_mut().unwrap().remove("workedOutAt");
    answer
}

dual_test!(
    async fn a_schools_overview_is_the_same_read_at_once_or_in_turn(app: TestApp) {
        let s = seed(&app).await;
        // With the pool free, its four reads go at once on connections of their own.
        let at_once = crate::support::reads_total(&app, "insights.overview", "at_once").await;
        let whole = overview(&app, &s, &s.admin, json!({})).await;
        assert!(crate::support::reads_total(&app, "insights.overview", "at_once").await > at_once);
        assert!(!whole["turnaroundByClass"].as_array().unwrap().is_empty(), "{whole}");
        // With every connection but one taken, they go in turn on the one the request holds
        // (waiting for a second would end in the pool's timeout: no answer).
        let held = crate::support::all_connections_but_one(&app, 3).await;
        let in_turn = crate::support::reads_total(&app, "insights.overview", "in_turn").await;
        let again = overview(&app, &s, &s.admin, json!({})).await;
        assert!(crate::support::reads_total(&app, "insights.overview", "in_turn").await > in_turn);
        assert_eq!(figures(again), figures(whole.clone()));
        // The class filter too, in turn, then at once.
        let by_class = overview(&app, &s, &s.admin, json!({"classId": s.class_id})).await;
        drop(held);
        assert_eq!(figures(overview(&app, &s, &s.admin, json!({"classId": s.class_id})).await), figures(by_class.clone()));
        assert_ne!(figures(by_class), figures(whole));
    }
);

/// A row of 'Pupils to look at': id, missed, negative marks, parents not reached.
type Reasons = (String, Option<i64>, Option<i64>, Option<i64>);

/// The pupils to look at, computed independently: over `subs` (the submissions the scope
/// and filters keep), for the pupils `keep` keeps, whose parents were sent `messages`
/// messages each (not reached for pupils p % 4 = 1 or 2).
fn expected_pupils(s: &Seeded, subs: &[&Sub], keep: impl Fn(usize) -> bool, messages: i64) -> Vec<Reasons> {
    let now = now();
    let mut rows = Vec::new();
    for (p, id) in s.pupils.iter().enumerate().filter(|(p, _)| keep(*p)) {
        let mut mine: Vec<&&Sub> = subs.iter().filter(|x| x.pupil == p).collect();
        mine.sort_by_key(|x| std::cmp::Reverse(x.due));
        // How many of the latest in a row were not handed in (listed from three).
        let streak = mine.iter().take_while(|x| x.received.is_none()).count() as i64;
        let recent: Vec<&&&Sub> = mine.iter().filter(|x| x.marked.is_some_and(|m| m >= now - Duration::days(28))).collect();
        let negative = !recent.is_empty() && recent.iter().all(|x| x.sentiment == Some("NEGATIVE"));
        let unreached = messages > 0 && (p % 4 == 1 || p % 4 == 2);
        if streak >= 3 || negative || unreached {
            rows.push((
                id.clone(),
                (streak >= 3).then_some(streak),
                negative.then_some(recent.len() as i64),
                unreached.then_some(messages),
            ));
        }
    }
    rows.sort();
    rows
}

/// `insights.pupils`' answer for `caller` under `more` filters, as [`Reasons`] by id.
async fn pupils_listed(app: &TestApp, s: &Seeded, caller: &Staff, more: Value) -> Vec<Reasons> {
    let answer = query(app, "insights.pupils", json!({"filters": filters(s, more), "last": 3}), Some(&caller.cookie)).await;
    let mut rows: Vec<Reasons> = answer
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["id"].as_str().unwrap().to_owned(), r["missed"].as_i64(), r["negativeMarks"].as_i64(),
             r["parentsNotReached"].as_i64())
        })
        .collect();
    rows.sort();
    rows
}

dual_test!(
    async fn pupils_to_look_at_follow_their_rules(app: TestApp) {
        let s = seed(&app).await;
        let all: Vec<&Sub> = s.subs.iter().collect();
        let whole = expected_pupils(&s, &all, |_| true, 2);
        assert!(whole.iter().any(|r| r.1.is_some()) && whole.iter().any(|r| r.3.is_some()), "{whole:?}");
        assert_eq!(pupils_listed(&app, &s, &s.admin, json!({})).await, whole);
        let answer = query(&app, "insights.pupils", json!({"filters": filters(&s, json!({})), "last": 3}),
                           Some(&s.admin.cookie)).await;
        let list = answer.data().as_array().unwrap().clone();
        assert!(list.iter().any(|r| r["name"] == "Pupil9 Pupil" && r["missed"].as_i64() >= Some(3)));
        // The class filter: its pupils only (0 to 4), each with the same reasons.
        let class = expected_pupils(&s, &all, |p| p < 5, 2);
        assert!(!class.is_empty() && class.len() < whole.len());
        assert_eq!(pupils_listed(&app, &s, &s.admin, json!({"classId": s.class_id})).await, class);
        // Tess's own view, and the teacher filter: her assignments (the even ones) and her
        // one message to parents (assignment 0), never Colin's.
        let hers: Vec<&Sub> = all.iter().copied().filter(|x| x.assignment % 2 == 0).collect();
        let tess = expected_pupils(&s, &hers, |_| true, 1);
        assert_ne!(tess, whole);
        assert_eq!(pupils_listed(&app, &s, &s.tess, json!({})).await, tess);
        assert_eq!(pupils_listed(&app, &s, &s.admin, json!({"teacherId": s.tess.id})).await, tess);
        assert_eq!(
            query(&app, "insights.pupils", json!({"filters": filters(&s, json!({})), "last": 0}), Some(&s.admin.cookie))
                .await
                .code(),
            "BAD_REQUEST"
        );
    }
);

dual_test!(
    async fn each_caller_sees_only_their_scope(app: TestApp) {
        let s = seed(&app).await;
        let all: Vec<&Sub> = s.subs.iter().collect();
        // A teacher: only the assignments they sent; a teacher filter cannot widen it.
        let tess: Vec<&Sub> = all.iter().copied().filter(|x| x.assignment % 2 == 0).collect();
        let mine = overview(&app, &s, &s.tess, json!({"teacherId": s.colin.id})).await;
        assert_eq!(mine["scope"], "OWN");
        check_hand_ins(&mine, &tess);
        let teachers = mine["turnaroundByTeacher"].as_array().unwrap();
        assert_eq!(teachers.len(), 1);
        assert_eq!(teachers[0]["id"], s.tess.id.as_str());
        // Reach: only Tess's assignment (5 reached of... 3 of 8).
        assert_eq!(mine["reach"].as_array().unwrap().len(), 1);
        assert_eq!(mine["reach"][0]["messageType"], "ASSIGNMENT");
        let pupils = query(&app, "insights.filters", Value::Null, Some(&s.tess.cookie)).await;
        assert_eq!(pupils.data()["teachers"].as_array().unwrap().len(), 1);

        // Another school: nothing.
        let other = overview(&app, &s, &s.stranger, json!({})).await;
        assert!(other["handIns"].as_array().unwrap().iter().all(|w| w["assigned"] == 0));
        assert!(other["turnaroundByTeacher"].as_array().unwrap().is_empty());
        assert!(other["reach"].as_array().unwrap().is_empty());
        let none = query(&app, "insights.pupils", json!({"filters": filters(&s, json!({})), "last": 3}),
                         Some(&s.stranger.cookie)).await;
        assert!(none.data().as_array().unwrap().is_empty());
        // Nor a pupil of school A.
        let theirs = query(&app, "insights.student", json!({"id": s.pupils[0], "from": null, "to": null}),
                           Some(&s.stranger.cookie)).await;
        assert_eq!(theirs.code(), "NOT_FOUND");

        // A MAT user: both schools of the trust, or one with the school filter.
        let trust = overview(&app, &s, &s.mat, json!({})).await;
        assert_eq!(trust["scope"], "TRUST");
        assert_eq!(assigned(&trust), (all.len() + 3) as i64);
        assert_eq!(assigned(&overview(&app, &s, &s.mat, json!({"schoolId": s.b})).await), 3);
        // A whole trust's turnaround is per school; one school's per teacher and per class.
        let rows = |v: &Value, list: &str| v[list].as_array().unwrap().clone();
        assert!(rows(&trust, "turnaroundByTeacher").is_empty() && rows(&trust, "turnaroundByClass").is_empty());
        let school_a = overview(&app, &s, &s.admin, json!({})).await;
        let marks = |list: &[Value]| list.iter().map(|t| t["marks"].as_i64().unwrap()).sum::<i64>();
        let per_school = rows(&trust, "turnaroundBySchool");
        let a_row = per_school.iter().find(|t| t["id"] == s.a.as_str()).expect("school A's row");
        assert_eq!(a_row["marks"].as_i64().unwrap(), marks(&rows(&school_a, "turnaroundByTeacher")), "{per_school:?}");
        assert!(a_row["name"].as_str().is_some_and(|n| !n.is_empty()));
        assert!(rows(&school_a, "turnaroundBySchool").is_empty());
        let chosen = overview(&app, &s, &s.mat, json!({"schoolId": s.a})).await;
        assert!(rows(&chosen, "turnaroundBySchool").is_empty());
        assert_eq!(rows(&chosen, "turnaroundByTeacher"), rows(&school_a, "turnaroundByTeacher"));
        assert_eq!(rows(&chosen, "turnaroundByClass"), rows(&school_a, "turnaroundByClass"));
        assert_eq!(assigned(&overview(&app, &s, &s.mat, json!({"schoolId": s.a})).await), all.len() as i64);
        let options = query(&app, "insights.filters", Value::Null, Some(&s.mat.cookie)).await;
        assert_eq!(options.data()["schools"].as_array().unwrap().len(), 2);
        // A trust's groups, classes and teachers are the chosen school's, none before.
        let ids = |v: &Value, list: &str| -> Vec<String> {
            v[list].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
        };
        for list in ["yearGroups", "formGroups", "classes", "teachers"] {
            assert!(ids(options.data(), list).is_empty(), "{list} before a school is chosen");
        }
        let of = |school: &str| query(&app, "insights.filters", json!({"schoolId": school}), Some(&s.mat.cookie));
        let a = of(&s.a).await;
        assert!(ids(a.data(), "classes").contains(&s.class_id), "{:?}", a.data());
        assert!(ids(a.data(), "teachers").contains(&s.tess.id));
        assert_eq!(ids(a.data(), "schools").len(), 2, "every school of the trust to choose from");
        let b = of(&s.b).await;
        assert!(!ids(b.data(), "classes").contains(&s.class_id));
        assert!(!ids(b.data(), "teachers").contains(&s.tess.id));
        assert!(ids(of("not-a-school").await.data(), "classes").is_empty(), "a school outside the trust");
        let admins = query(&app, "insights.filters", json!({"schoolId": s.b}), Some(&s.admin.cookie)).await;
        assert!(ids(admins.data(), "classes").contains(&s.class_id), "one school: its own, whatever is named");
        // An admin of school A: A alone, whatever school they name.
        assert_eq!(assigned(&overview(&app, &s, &s.admin, json!({"schoolId": s.b})).await), 0);
        // Signed out: refused.
        let out = query(&app, "insights.overview", filters(&s, json!({})), None).await;
        assert_eq!(out.code(), "UNAUTHORIZED");
        let _ = NaiveDate::MIN;
    }
);

dual_test! {
    async fn a_trusts_figures_are_kept_a_minute_and_a_schools_are_not(app: TestApp) {
        let s = seed(&app).await;
        let first = overview(&app, &s, &s.mat, json!({})).await;
        let trust_before = assigned(&first);
        let school_before = assigned(&overview(&app, &s, &s.admin, json!({})).await);
        one_more_assignment(&app, &s).await;

        // The trust's answer is the one kept; the school's is worked out again.
        let kept = overview(&app, &s, &s.mat, json!({})).await;
        assert_eq!(assigned(&kept), trust_before, "the trust's, kept");
        assert!(first["workedOutAt"].is_string(), "{first}");
        assert_eq!(kept["workedOutAt"], first["workedOutAt"], "worked out once");
        assert_eq!(assigned(&overview(&app, &s, &s.admin, json!({})).await), school_before + 1, "the school's, afresh");
        // Other filters are another question, worked out now.
        assert_eq!(
            assigned(&overview(&app, &s, &s.mat, json!({"schoolId": s.a})).await),
            school_before + 1,
            "the trust's with a school filter, first asked after the change"
        );
    }
}

dual_test! {
    async fn a_trusts_pupils_are_kept_encoded_and_sent_as_they_are(app: TestApp) {
        use axum::body::Body;
        use axum::http::{header, Request, StatusCode};
        use std::io::Read;

        let s = seed(&app).await;
        let input = json!({"json": {"filters": filters(&s, json!({})), "last": 3}}).to_string();
        let path = format!("/api/trpc/insights.pupils?input={}", url::form_urlencoded::byte_serialize(input.as_bytes()).collect::<String>());
        let ask = |cookie: &str, headers: &[(header::HeaderName, &str)]| {
            let mut request = Request::get(&path).header(header::COOKIE, cookie);
            for (name, value) in headers {
                request = request.header(name, *value);
            }
            app.request(request.body(Body::empty()).expect("request"))
        };

        // The trust's list: school B's pupils all handed in, so school A's, as its admin sees it.
        let first = ask(&s.mat.cookie, &[]).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.text());
        let whole = pupils_listed(&app, &s, &s.admin, json!({})).await;
        assert!(!whole.is_empty());
        assert_eq!(pupils_listed(&app, &s, &s.mat, json!({})).await, whole);
        let etag = first.header("etag").expect("a kept answer's ETag").to_owned();
        assert!(etag.starts_with("W/\""), "{etag}");

        // Kept as its text: the same bytes again, 304 for a browser that has them, and the
        // gzip form decodes to them.
        let again = ask(&s.mat.cookie, &[]).await;
        assert_eq!(again.body, first.body);
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        let held = ask(&s.mat.cookie, &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(held.status, StatusCode::NOT_MODIFIED);
        assert!(held.body.is_empty());
        let zipped = ask(&s.mat.cookie, &[(header::ACCEPT_ENCODING, "gzip")]).await;
        assert_eq!(zipped.header("content-encoding"), Some("gzip"));
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&zipped.body[..]).read_to_end(&mut plain).expect("gzip");
        assert_eq!(plain, first.body);

        // A school's list is worked out for each request, and its ETag is its content's:
        // another school's admin with the trust's ETag gets their own (empty) list.
        let theirs = ask(&s.stranger.cookie, &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(theirs.status, StatusCode::OK);
        assert_eq!(theirs.json()["result"]["data"]["json"], json!([]));
    }
}
