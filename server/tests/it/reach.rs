//! Reach (issue 29, docs/reach.md): the send records a delivery for every pupil and parent
//! it is about, the ones it could not send with why (no address, opted out, refused); the
//! SMTP server's accept makes it Sent; the signed link in the e-mail makes it Opened (a
//! forged one changes nothing), the pupil's submission link too; a hand-in makes it Handed
//! in; 'Not reached' counts not sent, bounced and not opened after the days chosen; the
//! office's CSV and PDF lists; and the scope (the sender and admins only).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use core_wasm::{NotificationFrequency, NotificationType, UserRole};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::deliveries;
use voicemark::ids::new_token;
use voicemark::models::email_preferences::{self, NewEmailPreference};
use voicemark::models::recipients::Filters;
use voicemark::models::{address_refusals, now};
use voicemark::with_conn;

use crate::dual_test;
use crate::sending::smtp::SmtpSink;
use crate::sending::{
    drain, make_form_group, make_notification, make_pupil, queue_send, smtp_state,
    NotificationSpec, PupilSpec,
};
use crate::submissions::{hand_in, query, staff};
use crate::support::{make_school, TestApp};

fn spec<'a>(forename: &'a str, parent: bool, form: &str) -> PupilSpec<'a> {
    PupilSpec {
        forename,
        surname: "Reach",
        email: true,
        parent,
        year_group_id: None,
        form_group_id: Some(form.to_owned()),
    }
}

/// The entry of `forename`'s `audience` in a reach answer.
fn entry<'a>(reach: &'a Value, forename: &str, audience: &str) -> &'a Value {
    reach["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["forename"] == forename && e["audience"] == audience)
        .unwrap_or_else(|| panic!("no {audience} entry for {forename}: {reach}"))
}

fn count(reach: &Value, state: &str) -> i64 {
    reach["counts"]
        .as_array()
        .expect("counts")
        .iter()
        .find(|c| c["state"] == state)
        .and_then(|c| c["count"].as_i64())
        .expect("count")
}

/// The Reach tab of notification `id` as the holder of `cookie` sees it.
async fn reach_tab(app: &TestApp, id: &str, cookie: &str) -> crate::submissions::Answer {
    query(app, "notification.reach", json!({"id": id}), Some(cookie)).await
}

async fn get_with(app: &TestApp, path: &str, cookie: Option<&str>) -> crate::support::TestResponse {
    let mut request = Request::get(path);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    app.request(request.body(Body::empty()).expect("request"))
        .await
}

dual_test!(
    async fn each_reach_state_comes_from_the_event_that_causes_it(app: TestApp) {
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let school = make_school(&app, "Reach Academy").await;
        let other = make_school(&app, "Elsewhere").await;
        let teacher = staff(&app, Some(&school), UserRole::Teacher, "Tess").await;
        let colleague = staff(&app, Some(&school), UserRole::Teacher, "Colin").await;
        let admin = staff(&app, Some(&school), UserRole::Admin, "Ada").await;
        let stranger = staff(&app, Some(&other), UserRole::Admin, "Stan").await;

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let form = make_form_group(&mut conn, &school, "7R").await;
        let ada = make_pupil(&mut conn, &school, spec("Ada", true, &form)).await;
        let ben = make_pupil(&mut conn, &school, spec("Ben", false, &form)).await;
        let cal = make_pupil(&mut conn, &school, spec("Cal", true, &form)).await;
        let dan = make_pupil(&mut conn, &school, spec("Dan", true, &form)).await;
        // Cal's parent's address was refused before; Dan's parent turned assignments off.
        address_refusals::refuse(
            &mut conn,
            "parent.cal@families.test",
            "550 5.1.1 User unknown",
            now(),
        )
        .await
        .expect("refuse");
        let at = now();
        email_preferences::insert(
            &mut conn,
            &NewEmailPreference {
                email: "parent.dan@families.test".into(),
                language: "en".into(),
                general: true,
                assignment: false,
                frequency: NotificationFrequency::Immediately,
                token: new_token(),
                created_at: at,
                updated_at: at,
            },
        )
        .await
        .expect("preference");
        let notification = make_notification(
            &mut conn,
            &school,
            &teacher.id,
            NotificationSpec {
                kind: NotificationType::Assignment,
                filters: Filters {
                    students: vec![ada.clone(), ben.clone(), cal.clone(), dan.clone()],
                    ..Default::default()
                },
                to_pupil: true,
                to_parent: true,
                send_date: None,
            },
        )
        .await;
        queue_send(&mut conn, &notification, "1").await;
        drop(pooled);
        drain(&state).await;

        // Four pupils and three parents were e-mailed; nothing to Cal's refused parent.
        let to: Vec<Vec<String>> = sink.messages().into_iter().map(|m| m.to).collect();
        assert_eq!(
            sink.count(),
            5,
            "4 pupils, Ada's parent and no other parent: {to:?}"
        );
        assert!(sink.to("parent.cal@families.test").is_empty());
        assert!(sink.to("parent.dan@families.test").is_empty());

        let reach = reach_tab(&app, &notification, &teacher.cookie).await;
        let reach = reach.data().clone();
        assert_eq!(reach["recorded"], true);
        assert_eq!(reach["entries"].as_array().map(Vec::len), Some(8));
        assert_eq!(count(&reach, "SENT"), 5);
        assert_eq!(count(&reach, "NOT_SENT"), 3);
        assert_eq!(
            entry(&reach, "Ben", "parent")["reason"],
            "No e-mail address"
        );
        assert_eq!(entry(&reach, "Cal", "parent")["reason"], "Address refused");
        assert_eq!(
            entry(&reach, "Dan", "parent")["reason"],
            "Turned off e-mails of this kind"
        );
        assert_eq!(entry(&reach, "Ada", "parent")["state"], "SENT");
        assert_eq!(entry(&reach, "Ada", "parent")["formGroup"], "7R");
        assert_eq!(reach["notReached"], 3);
        assert_eq!(reach["days"], 3);

        // Ada's parent follows the signed link in their e-mail: Opened, and the message.
        let mail = sink.to("parent.ada@families.test");
        let text = mail[0].text();
        let link = text
            .split_whitespace()
            .find(|w| w.starts_with("https://voicemark.test/api/reach/open/"))
            .unwrap_or_else(|| panic!("no tracked link in: {text}"));
        let token = link.rsplit('/').next().expect("token").to_owned();
        let forged = format!("{}x", token);
        let refused = app.get(&format!("/api/reach/open/{forged}")).await;
        assert_eq!(refused.status, StatusCode::SEE_OTHER);
        let reach_now = reach_tab(&app, &notification, &teacher.cookie).await;
        assert_eq!(
            entry(reach_now.data(), "Ada", "parent")["state"],
            "SENT",
            "a forged link counts nothing"
        );
        let opened = app.get(&format!("/api/reach/open/{token}")).await;
        assert_eq!(opened.status, StatusCode::SEE_OTHER);
        assert_eq!(
            opened.header("location"),
            Some(format!("/messages/{token}").as_str())
        );
        let message = query(
            &app,
            "notification.publicMessage",
            json!({"token": token}),
            None,
        )
        .await;
        assert_eq!(message.data()["title"], "Volcano project");
        assert_eq!(message.data()["about"], "Ada Reach");
        assert_eq!(message.data()["school"], "Reach Academy");
        let bad = query(
            &app,
            "notification.publicMessage",
            json!({"token": forged}),
            None,
        )
        .await;
        assert_eq!(bad.code(), "NOT_FOUND");

        // Ada opens her submission page from her e-mail; Ben hands in.
        let ada_link = submission_row_of(&app, &notification, &ada).await;
        let page = query(
            &app,
            "submission.public",
            json!({"id": ada_link.0, "token": ada_link.1}),
            None,
        )
        .await;
        assert_eq!(page.status, StatusCode::OK);
        let ben_link = submission_row_of(&app, &notification, &ben).await;
        hand_in(&app, &ben_link, "My volcano").await.data();

        // Cal's own message went out five days ago and was never opened.
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::update(
            deliveries::table
                .filter(deliveries::notification_id.eq(&notification))
                .filter(deliveries::student_id.eq(&cal))
                .filter(deliveries::audience.eq("pupil"))
        )
        .set(deliveries::sent_at.eq(now() - Duration::days(5)))
        .execute(c)
        .await)
        .expect("backdate");
        drop(pooled);

        let reach = reach_tab(&app, &notification, &teacher.cookie).await;
        let reach = reach.data().clone();
        assert_eq!(entry(&reach, "Ada", "parent")["state"], "OPENED");
        assert_eq!(entry(&reach, "Ada", "pupil")["state"], "OPENED");
        assert_eq!(entry(&reach, "Ben", "pupil")["state"], "HANDED_IN");
        assert_eq!(
            entry(&reach, "Ben", "parent")["state"],
            "HANDED_IN",
            "the work arrived: nobody to chase"
        );
        let cal_pupil = entry(&reach, "Cal", "pupil");
        assert_eq!(cal_pupil["state"], "SENT");
        assert_eq!(cal_pupil["notReached"], true);
        assert_eq!(cal_pupil["reason"], "Not opened after 3 days");
        assert_eq!(
            entry(&reach, "Dan", "pupil")["notReached"],
            false,
            "sent today"
        );
        // Cal's parent (refused), Dan's parent (opted out), Cal (not opened).
        assert_eq!(reach["notReached"], 3);
        let week = query(
            &app,
            "notification.reach",
            json!({"id": notification, "days": 7}),
            Some(&teacher.cookie),
        )
        .await;
        assert_eq!(week.data()["notReached"], 2);
        // The list of one state, or of those not reached.
        let missed = query(&app, "notification.reach", json!({"id": notification, "show": "NOT_REACHED"}), Some(&teacher.cookie)).await;
        let missed = missed.data();
        assert_eq!((missed["total"].as_i64(), missed["shown"].as_i64()), (Some(8), Some(3)));
        let names: Vec<String> = missed["entries"].as_array().expect("entries").iter()
            .map(|e| format!("{} {}", e["forename"].as_str().unwrap_or(""), e["audience"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(names, ["Cal pupil", "Cal parent", "Dan parent"]);
        let opened = query(&app, "notification.reach", json!({"id": notification, "show": "OPENED"}), Some(&teacher.cookie)).await;
        assert_eq!(opened.data()["entries"].as_array().map(Vec::len), Some(2));

        // The office's lists.
        let csv = get_with(
            &app,
            &format!("/api/reach/{notification}/not-reached?format=csv&days=3"),
            Some(&teacher.cookie),
        )
        .await;
        assert_eq!(csv.status, StatusCode::OK);
        assert!(csv
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/csv")));
        let text = csv.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Pupil,Form group,Who,Address,Reason");
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            text.contains("Cal Reach,7R,Parent,parent.cal@families.test,Address refused"),
            "{text}"
        );
        assert!(
            text.contains(
                "Dan Reach,7R,Parent,parent.dan@families.test,Turned off e-mails of this kind"
            ),
            "{text}"
        );
        assert!(
            text.contains("Cal Reach,7R,Pupil,cal@pupils.test,Not opened after 3 days"),
            "{text}"
        );
        let pdf = get_with(
            &app,
            &format!("/api/reach/{notification}/not-reached?format=pdf"),
            Some(&admin.cookie),
        )
        .await;
        assert_eq!(pdf.status, StatusCode::OK);
        assert_eq!(pdf.header("content-type"), Some("application/pdf"));
        assert!(pdf.body.starts_with(b"%PDF"));
        // The words drawn, in order (each word is its own `(…) Tj`).
        let body = String::from_utf8_lossy(&pdf.body);
        let words: Vec<&str> = body
            .split(") Tj")
            .filter_map(|part| part.rsplit_once(" Td (").map(|(_, word)| word))
            .collect();
        let drawn = words.join(" ");
        assert!(
            drawn
                .contains("Cal Reach \\(7R\\): Parent, parent.cal@families.test. Address refused."),
            "{drawn}"
        );
        assert!(drawn.contains("Dan Reach \\(7R\\): Parent"), "{drawn}");
        assert!(!drawn.contains("Ada Reach"), "Ada was reached: {drawn}");

        // Only the sender and the school's admins see it.
        let theirs = reach_tab(&app, &notification, &colleague.cookie).await;
        assert_eq!(theirs.code(), "NOT_FOUND");
        let foreign = reach_tab(&app, &notification, &stranger.cookie).await;
        assert_eq!(foreign.code(), "NOT_FOUND");
        let foreign_csv = get_with(
            &app,
            &format!("/api/reach/{notification}/not-reached"),
            Some(&stranger.cookie),
        )
        .await;
        assert_eq!(foreign_csv.status, StatusCode::NOT_FOUND);
        let nobody = get_with(
            &app,
            &format!("/api/reach/{notification}/not-reached"),
            None,
        )
        .await;
        assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
        let admin_view = reach_tab(&app, &notification, &admin.cookie).await;
        assert_eq!(
            admin_view.data()["entries"].as_array().map(Vec::len),
            Some(8)
        );

        // Sending again writes nothing twice.
        let mut pooled = app.db.conn().await.expect("connection");
        queue_send(&mut pooled.db(), &notification, "again").await;
        drop(pooled);
        drain(&state).await;
        let again = reach_tab(&app, &notification, &teacher.cookie).await;
        assert_eq!(again.data()["entries"].as_array().map(Vec::len), Some(8));
        assert_eq!(sink.count(), 5, "no e-mail went twice");
    }
);

dual_test!(
    async fn an_invisible_image_counts_opened_only_where_the_school_switched_it_on(app: TestApp) {
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let school = make_school(&app, "Pixel Academy").await;
        let teacher = staff(&app, Some(&school), UserRole::Teacher, "Tess").await;
        let admin = staff(&app, Some(&school), UserRole::Admin, "Ada").await;
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let form = make_form_group(&mut conn, &school, "8P").await;
        let eve = make_pupil(&mut conn, &school, spec("Eve", true, &form)).await;
        drop(pooled);

        // Off by default: the first message's e-mail carries no image.
        let settings = query(&app, "admin.schoolSettings", Value::Null, Some(&admin.cookie)).await;
        assert_eq!(settings.data()["reachPixel"], false);
        let send = |kind| NotificationSpec {
            kind,
            filters: Filters { students: vec![eve.clone()], ..Default::default() },
            to_pupil: true,
            to_parent: true,
            send_date: None,
        };
        let mut pooled = app.db.conn().await.expect("connection");
        let first = make_notification(&mut pooled.db(), &school, &teacher.id, send(NotificationType::General)).await;
        queue_send(&mut pooled.db(), &first, "1").await;
        drop(pooled);
        drain(&state).await;
        let mail = sink.to("parent.eve@families.test");
        assert_eq!(mail.len(), 1);
        assert!(!mail[0].text().contains("/api/reach/seen/"), "no image while off");

        // The admin switches it on in Manage School › Settings.
        let mut on = settings.data().clone();
        on["reachPixel"] = json!(true);
        let saved = crate::submissions::mutate(&app, "admin.saveSchoolSettings", on, Some(&admin.cookie)).await;
        assert_eq!(saved.data()["reachPixel"], true);

        let mut pooled = app.db.conn().await.expect("connection");
        let second = make_notification(&mut pooled.db(), &school, &teacher.id, send(NotificationType::Assignment)).await;
        queue_send(&mut pooled.db(), &second, "2").await;
        drop(pooled);
        drain(&state).await;
        let image_of = |address: &str| {
            let mail = sink.to(address);
            let text = mail.last().expect("an e-mail").text();
            let at = text.find("https://voicemark.test/api/reach/seen/").unwrap_or_else(|| panic!("no image in: {text}"));
            text[at..].split('"').next().expect("src").to_owned()
        };
        let parent_image = image_of("parent.eve@families.test");
        let pupil_image = image_of("eve@pupils.test");
        assert_ne!(parent_image, pupil_image, "one image per recipient");

        // A forged image counts nothing; the parent's mail app loading theirs counts Opened.
        let path = parent_image.trim_start_matches("https://voicemark.test");
        let forged = app.get(&format!("{path}x")).await;
        assert_eq!(forged.status, StatusCode::OK);
        assert_eq!(forged.header("content-type"), Some("image/gif"));
        let reach = reach_tab(&app, &second, &teacher.cookie).await;
        assert_eq!(entry(reach.data(), "Eve", "parent")["state"], "SENT");
        let image = app.get(path).await;
        assert_eq!(image.status, StatusCode::OK);
        assert_eq!(image.header("content-type"), Some("image/gif"));
        assert_eq!(image.header("cache-control"), Some("no-store"));
        assert!(image.body.starts_with(b"GIF89a"), "a real GIF");
        let reach = reach_tab(&app, &second, &teacher.cookie).await;
        assert_eq!(entry(reach.data(), "Eve", "parent")["state"], "OPENED");
        assert_eq!(entry(reach.data(), "Eve", "pupil")["state"], "SENT", "only the image loaded counts");
    }
);

/// The (id, token) of the submission the send created for `student`.
async fn submission_row_of(app: &TestApp, notification: &str, student: &str) -> (String, String) {
    let mut pooled = app.db.conn().await.expect("connection");
    voicemark::models::submissions::find_link(&mut pooled.db(), notification, student)
        .await
        .expect("query")
        .expect("a submission")
}

/// The Reach tab of a message to 2,000 pupils and their parents (4,000 deliveries): the
/// time `notification.reach` takes through the whole router, p50 and p95 of 30 calls.
async fn measure_reach(app: &TestApp) {
    use voicemark::jobs::notification_send::send_notification;

    let school = make_school(&app, "Bench Academy").await;
    let teacher = staff(app, Some(&school), UserRole::Teacher, "Tess").await;
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let pupils = crate::sending::bulk_pupils(&mut conn, &school, None, 2000).await;
    let notification = make_notification(
        &mut conn,
        &school,
        &teacher.id,
        NotificationSpec {
            kind: NotificationType::General,
            filters: Filters {
                students: pupils,
                ..Default::default()
            },
            to_pupil: true,
            to_parent: true,
            send_date: None,
        },
    )
    .await;
    let id = notification.clone();
    let summary: Result<_, diesel::result::Error> =
        voicemark::transaction!(&mut conn, |c| send_notification(c, &id, now(), 16).await);
    summary.expect("send");
    // Every message sent two days ago, one in three opened.
    let sent = now() - Duration::days(2);
    with_conn!(conn, |c| diesel::update(deliveries::table.filter(deliveries::notification_id.eq(&notification)))
        .set(deliveries::sent_at.eq(sent))
        .execute(c)
        .await)
    .expect("sent");
    let ids: Vec<String> = with_conn!(conn, |c| deliveries::table
        .filter(deliveries::notification_id.eq(&notification))
        .select(deliveries::id)
        .load(c)
        .await)
    .expect("ids");
    let opened: Vec<String> = ids.into_iter().step_by(3).collect();
    with_conn!(conn, |c| diesel::update(deliveries::table.filter(deliveries::id.eq_any(&opened)))
        .set(deliveries::opened_at.eq(now()))
        .execute(c)
        .await)
    .expect("opened");
    drop(pooled);

    let mut times = Vec::new();
    for _ in 0..30 {
        let started = std::time::Instant::now();
        let answer = query(app, "notification.reach", json!({"id": notification}), Some(&teacher.cookie)).await;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(answer.data()["total"], 4000);
        assert_eq!(answer.data()["entries"].as_array().map(Vec::len), Some(200));
    }
    times.sort_by(f64::total_cmp);
    println!(
        "FIGURE reach tab, 4,000 deliveries ({:?}): p50 {:.1} ms, p95 {:.1} ms",
        app.backend(),
        times[times.len() / 2],
        times[times.len() * 95 / 100]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: bash bench/reach.sh"]
async fn bench_reach_2000_sqlite() {
    measure_reach(&TestApp::new(crate::support::TestBackend::Sqlite).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: bash bench/reach.sh"]
async fn bench_reach_2000_postgres() {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    measure_reach(&TestApp::new(crate::support::TestBackend::Postgres).await).await;
}
