//! The Feedback Hub badge count is kept in the process (`models::hub_count`,
//! issue 15). After every kind of change, with the count warm in the cache just before it,
//! `user.feedbackHubCount` still equals the full query (`count_waiting`): a pupil hands in,
//! work is marked, a new assignment is sent, a pupil leaves the MIS, a pupil is erased.
//! A hand-in drops the kept counts of its own school only (issue 30): another school's
//! count is still answered from the cache, as a hand-in written behind the cache's back
//! shows.
use axum::body::Body;
use axum::http::{header, Request};
use core_wasm::{FeedbackSentiment, NotificationType};
use voicemark::models::recipients::Filters;
use voicemark::models::submissions::{self, MarkerScope};
use voicemark::models::{now, privacy};

use crate::dual_test;
use crate::sending::{drain, make_notification, make_pupil, make_school, make_teacher, queue_send, simple, NotificationSpec};
use crate::support::{session_cookie, TestApp};

/// The badge as the teacher's browser asks for it.
async fn badge(app: &TestApp, cookie: &str) -> i64 {
    let request = Request::get("/api/trpc/user.feedbackHubCount").header(header::COOKIE, cookie);
    let response = app.request(request.body(Body::empty()).expect("request")).await;
    response.json()["result"]["data"]["json"].as_i64().expect("a count")
}

/// The count from the database, without the cache.
async fn full_query(app: &TestApp, scope: &MarkerScope) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    voicemark::models::hub_count::count_waiting(&mut pooled.db(), scope).await.expect("count")
}

/// The badge equals the full query, and a second read (from the cache) says the same.
async fn agrees(app: &TestApp, cookie: &str, scope: &MarkerScope, expected: i64, after: &str) {
    assert_eq!(full_query(app, scope).await, expected, "the full query after {after}");
    assert_eq!(badge(app, cookie).await, expected, "the badge after {after}");
    // Warm again, past the settling second, so the next change meets a cached count.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(badge(app, cookie).await, expected, "the badge after {after}, read again");
}

async fn assignment(app: &TestApp, school: &str, teacher: &str, pupils: &[String]) -> String {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let spec = NotificationSpec {
        kind: NotificationType::Assignment,
        filters: Filters { students: pupils.to_vec(), ..Filters::default() },
        to_pupil: true,
        to_parent: false,
        send_date: None,
    };
    let id = make_notification(&mut conn, school, teacher, spec).await;
    queue_send(&mut conn, &id, "1").await;
    drop(conn);
    drop(pooled);
    drain(&app.state).await;
    id
}

async fn submission_of(app: &TestApp, notification: &str, pupil: &str) -> String {
    let mut pooled = app.db.conn().await.expect("connection");
    submissions::find_link(&mut pooled.db(), notification, pupil)
        .await
        .expect("link")
        .expect("a submission")
        .0
}

dual_test! {
    async fn the_kept_badge_count_equals_the_full_query_after_every_kind_of_change(app: TestApp) {
        let (school, teacher, pupils) = {
            let mut pooled = app.db.conn().await.expect("connection");
            let mut conn = pooled.db();
            let school = make_school(&mut conn, "Count School").await;
            let teacher = make_teacher(&mut conn, &school).await;
            let mut pupils = Vec::new();
            for name in ["Ann", "Bob", "Cat", "Dan"] {
                pupils.push(make_pupil(&mut conn, &school, simple(name, "Pupil")).await);
            }
            (school, teacher, pupils)
        };
        let scope = MarkerScope { school_id: school.clone(), sender_id: Some(teacher.clone()) };
        let cookie = session_cookie(&app, &teacher).await;
        let first = assignment(&app, &school, &teacher, &pupils).await;
        agrees(&app, &cookie, &scope, 0, "sending an assignment").await;

        let at = now();
        for pupil in &pupils[..3] {
            let id = submission_of(&app, &first, pupil).await;
            let mut pooled = app.db.conn().await.expect("connection");
            assert!(submissions::hand_in(&mut pooled.db(), &id, Some("My work"), at).await.expect("hand in"));
        }
        agrees(&app, &cookie, &scope, 3, "three hand-ins").await;

        let ann = submission_of(&app, &first, &pupils[0]).await;
        {
            let mut pooled = app.db.conn().await.expect("connection");
            assert!(voicemark::models::marks::mark(&mut pooled.db(), &ann, "Well done.", FeedbackSentiment::Positive, now(), None).await.expect("mark"));
        }
        agrees(&app, &cookie, &scope, 2, "marking").await;

        // A second assignment to the same pupils, one of whom hands in at once.
        let second = assignment(&app, &school, &teacher, &pupils).await;
        agrees(&app, &cookie, &scope, 2, "a new assignment").await;
        let dan = submission_of(&app, &second, &pupils[3]).await;
        {
            let mut pooled = app.db.conn().await.expect("connection");
            assert!(submissions::hand_in(&mut pooled.db(), &dan, None, now()).await.expect("hand in"));
        }
        agrees(&app, &cookie, &scope, 3, "a hand-in on the new assignment").await;

        // A pupil leaving the MIS keeps their work: still to be marked.
        {
            let mut pooled = app.db.conn().await.expect("connection");
            voicemark::models::mis::archive_pupils(&mut pooled.db(), &school, &[pupils[1].clone()], now())
                .await
                .expect("archive");
        }
        agrees(&app, &cookie, &scope, 3, "a pupil leaving").await;

        // Erasing a pupil deletes their submissions.
        {
            let mut pooled = app.db.conn().await.expect("connection");
            privacy::erase(&mut pooled.db(), &school, &pupils[2], "erased-pupil").await.expect("erase");
        }
        agrees(&app, &cookie, &scope, 2, "erasing a pupil").await;
    }
}

/// Hands in submission `id` behind the cache's back: the row changes, no change is published.
async fn hand_in_unseen(app: &TestApp, id: &str) {
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    use voicemark::db::schema::submissions;
    let mut pooled = app.db.conn().await.expect("connection");
    let changed = voicemark::with_conn!(pooled.db(), |c| diesel::update(submissions::table.find(id))
        .set(submissions::received_at.eq(Some(now())))
        .execute(c)
        .await)
    .expect("hand in by hand");
    assert_eq!(changed, 1);
}

dual_test! {
    async fn a_hand_in_drops_the_kept_badge_counts_of_its_own_school_only(app: TestApp) {
        let one = crate::submissions::world(&app).await;
        let two = crate::submissions::world(&app).await;
        assert_ne!(one.school, two.school);
        for world in [&one, &two] {
            for _ in 0..2 {
                assert_eq!(badge(&app, &world.teacher.cookie).await, 0, "nothing handed in yet");
            }
        }
        // School two: a hand-in no change announces. Its kept count still answers.
        hand_in_unseen(&app, &two.submissions[0].0).await;
        assert_eq!(badge(&app, &two.teacher.cookie).await, 0, "school two's count, from the cache");

        // School one: a hand-in through the model, which publishes it with its school.
        {
            let mut pooled = app.db.conn().await.expect("connection");
            assert!(submissions::hand_in(&mut pooled.db(), &one.submissions[0].0, Some("My letter"), now()).await.expect("hand in"));
        }
        assert_eq!(badge(&app, &one.teacher.cookie).await, 1, "school one's badge at once");
        assert_eq!(
            badge(&app, &two.teacher.cookie).await,
            0,
            "school two's kept count survives a hand-in in school one (the row written by hand stays unseen)"
        );

        // A hand-in in school two through the model: both of its hand-ins show at once.
        {
            let mut pooled = app.db.conn().await.expect("connection");
            assert!(submissions::hand_in(&mut pooled.db(), &two.submissions[1].0, None, now()).await.expect("hand in"));
        }
        assert_eq!(badge(&app, &two.teacher.cookie).await, 2, "school two's badge after its own hand-in");
        assert_eq!(badge(&app, &one.teacher.cookie).await, 1);
    }
}
