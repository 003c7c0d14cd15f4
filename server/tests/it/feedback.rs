//! The Feedback Hub (`feedback.list`) and marking (`feedback.mark`): who sees and marks
//! what, the count, the audit row and the one `feedback.email` job per marking.

use axum::http::StatusCode;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::jobs;
use voicemark::models::stored_files::{self, NewSubmissionFile};
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{hand_in, hub_count, mutate, query, world};
use crate::support::TestApp;

async fn feedback_jobs(app: &TestApp) -> Vec<String> {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| jobs::table
        .filter(jobs::kind.eq("feedback.email"))
        .select(jobs::payload)
        .load(c)
        .await)
    .expect("jobs")
}

/// Stores a file record for submission `id` (created `minutes` after a fixed time).
async fn file_of(app: &TestApp, w: &crate::submissions::World, id: &str, name: &str, minutes: i64) -> String {
    let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 2).unwrap().and_hms_opt(9, 0, 0).unwrap()
        + chrono::Duration::minutes(minutes);
    let file = NewSubmissionFile {
        id: voicemark::ids::new_id(),
        key: format!("submissions/{id}/{name}"),
        school_id: Some(w.school.clone()),
        submission_id: Some(id.to_owned()),
        filename: name.to_owned(),
        content_type: "image/jpeg".into(),
        size_bytes: Some(1000 + minutes),
        uploaded_at: Some(at),
        created_at: at,
    };
    let mut pooled = app.db.conn().await.expect("connection");
    stored_files::insert_submission_file(&mut pooled.db(), &file).await.expect("file");
    file.id
}

/// The teacher marks Amelia's work (the world's first submission).
async fn mark_amelias_letter(app: &TestApp, w: &crate::submissions::World) {
    mutate(
        app,
        "feedback.mark",
        json!({"submissionId": w.submissions[0].0, "feedback": "A clear letter.", "sentiment": "POSITIVE"}),
        Some(&w.teacher.cookie),
    )
    .await
    .data();
}

fn all() -> Value {
    json!({"notificationId": null, "classId": null})
}

dual_test!(
    async fn marking_sets_marked_at_queues_one_email_and_lowers_the_count(app: TestApp) {
        let w = world(&app).await;
        hand_in(&app, &w.submissions[1], "Oliver's letter")
            .await
            .data();
        hand_in(&app, &w.submissions[0], "Amelia's letter")
            .await
            .data();

        let hub = query(&app, "feedback.list", all(), Some(&w.teacher.cookie)).await;
        let items = hub.data()["items"].as_array().expect("items").clone();
        assert_eq!(items.len(), 2);
        assert_eq!(
            items[0]["studentForename"], "Oliver",
            "oldest received first"
        );
        assert_eq!(items[0]["notificationTitle"], "Persuasive letter");
        assert!(items[0]["receivedAt"].is_string());
        assert_eq!(hub.data()["notifications"][0]["name"], "Persuasive letter");
        assert_eq!(hub.data()["classes"][0]["name"], "Year 7 English");
        assert_eq!(hub_count(&app, &w.teacher.cookie).await, 2);

        let by_class = query(
            &app,
            "feedback.list",
            json!({"notificationId": null, "classId": w.class_id}),
            Some(&w.teacher.cookie),
        )
        .await;
        let items = by_class.data()["items"].as_array().expect("items").clone();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["studentForename"], "Amelia");
        assert_eq!(by_class.data()["notifications"], hub.data()["notifications"], "the filter's choices are unfiltered");
        let by_notification = query(
            &app,
            "feedback.list",
            json!({"notificationId": w.notification, "classId": null}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(
            by_notification.data()["items"].as_array().map(Vec::len),
            Some(2)
        );

        // Bad input is refused field by field.
        let bad = mutate(
            &app,
            "feedback.mark",
            json!({"submissionId": w.submissions[0].0, "feedback": "  ", "sentiment": "HAPPY"}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(bad.code(), "BAD_REQUEST");
        assert_eq!(bad.field_error("feedback"), "Write your feedback.");
        assert_eq!(
            bad.field_error("sentiment"),
            "Choose Neutral, Positive or Negative."
        );
        let long = mutate(&app, "feedback.mark", json!({"submissionId": w.submissions[0].0, "feedback": "a".repeat(10_001), "sentiment": "POSITIVE"}), Some(&w.teacher.cookie)).await;
        assert_eq!(
            long.field_error("feedback"),
            "Use at most 10000 characters."
        );
        assert!(feedback_jobs(&app).await.is_empty());

        let marked = mutate(&app, "feedback.mark", json!({"submissionId": w.submissions[0].0, "feedback": "A clear, persuasive letter.", "sentiment": "POSITIVE"}), Some(&w.teacher.cookie)).await;
        let data = marked.data().clone();
        assert_eq!(data["feedbackSentiment"], "POSITIVE");
        assert!(data["markedAt"].is_string());
        assert_eq!(hub_count(&app, &w.teacher.cookie).await, 1);
        let hub = query(&app, "feedback.list", all(), Some(&w.teacher.cookie)).await;
        assert_eq!(hub.data()["items"].as_array().map(Vec::len), Some(1));

        let jobs = feedback_jobs(&app).await;
        assert_eq!(jobs.len(), 1);
        let payload: Value = serde_json::from_str(&jobs[0]).expect("payload");
        assert_eq!(payload, json!({"submissionId": w.submissions[0].0}));

        // Marking twice is refused and queues nothing more; the pupil can no longer change it.
        let again = mutate(&app, "feedback.mark", json!({"submissionId": w.submissions[0].0, "feedback": "Again", "sentiment": "NEUTRAL"}), Some(&w.teacher.cookie)).await;
        assert_eq!(again.code(), "BAD_REQUEST");
        assert_eq!(feedback_jobs(&app).await.len(), 1);
        assert_eq!(
            hand_in(&app, &w.submissions[0], "late change").await.code(),
            "BAD_REQUEST"
        );

        // The pupil's page shows the feedback.
        let page = query(
            &app,
            "submission.public",
            json!({"id": w.submissions[0].0, "token": w.submissions[0].1}),
            None,
        )
        .await;
        assert_eq!(page.data()["feedback"], "A clear, persuasive letter.");
        assert_eq!(page.data()["feedbackSentiment"], "POSITIVE");
        assert!(page.data()["markedAt"].is_string());

        // The marking is audited.
        let mut pooled = app.db.conn().await.expect("connection");
        let rows = voicemark::models::audit::for_entity(
            &mut pooled.db(),
            "submission",
            &w.submissions[0].0,
        )
        .await
        .expect("audit");
        assert_eq!(
            rows,
            vec![("UPDATE".to_owned(), Some(w.teacher.id.clone()))]
        );
    }
);

dual_test!(
    async fn only_the_sender_and_the_schools_admins_can_read_or_mark(app: TestApp) {
        let w = world(&app).await;
        hand_in(&app, &w.submissions[0], "Amelia's letter")
            .await
            .data();
        let id = &w.submissions[0].0;
        let mark = |cookie: String| {
            let app = &app;
            let id = id.clone();
            async move {
                mutate(
                    app,
                    "feedback.mark",
                    json!({"submissionId": id, "feedback": "Good", "sentiment": "NEUTRAL"}),
                    Some(&cookie),
                )
                .await
            }
        };
        // A teacher of another school can neither read nor mark it.
        let hub = query(&app, "feedback.list", all(), Some(&w.stranger.cookie)).await;
        assert_eq!(hub.data()["items"], json!([]));
        let answer = mark(w.stranger.cookie.clone()).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND);
        assert_eq!(answer.code(), "NOT_FOUND");
        // Nor can a colleague who did not send it.
        let hub = query(&app, "feedback.list", all(), Some(&w.colleague.cookie)).await;
        assert_eq!(hub.data()["items"], json!([]));
        assert_eq!(mark(w.colleague.cookie.clone()).await.code(), "NOT_FOUND");
        // Unknown ids are the same NOT_FOUND.
        let unknown = mutate(
            &app,
            "feedback.mark",
            json!({"submissionId": "nope", "feedback": "Good", "sentiment": "NEUTRAL"}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(unknown.code(), "NOT_FOUND");
        // Not handed in yet: nothing to mark.
        let waiting = mutate(
            &app,
            "feedback.mark",
            json!({"submissionId": w.submissions[1].0, "feedback": "Good", "sentiment": "NEUTRAL"}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(waiting.code(), "BAD_REQUEST");
        // Signed out: UNAUTHORIZED.
        let signed_out = query(&app, "feedback.list", all(), None).await;
        assert_eq!(signed_out.code(), "UNAUTHORIZED");
        assert!(feedback_jobs(&app).await.is_empty());

        // The school's admin sees it, the count matches the list, and may mark it.
        let hub = query(&app, "feedback.list", all(), Some(&w.admin.cookie)).await;
        let length = hub.data()["items"].as_array().map(Vec::len).unwrap_or(0) as i64;
        assert_eq!(length, 1);
        assert_eq!(hub_count(&app, &w.admin.cookie).await, length);
        assert_eq!(
            mark(w.admin.cookie.clone()).await.data()["feedbackSentiment"],
            "NEUTRAL"
        );
        assert_eq!(hub_count(&app, &w.admin.cookie).await, 0);
        assert_eq!(hub_count(&app, &w.teacher.cookie).await, 0);
        assert_eq!(feedback_jobs(&app).await.len(), 1);
    }
);

dual_test!(
    async fn the_dashboard_lists_work_to_mark_due_soon_and_scheduled(app: TestApp) {
        let w = world(&app).await;
        crate::submissions::assignment(&app, &w.school, &w.teacher.id, "Poetry log", 2, 9).await;
        crate::submissions::assignment(&app, &w.school, &w.colleague.id, "Someone else's", 2, 3)
            .await;
        hand_in(&app, &w.submissions[0], "Amelia's letter")
            .await
            .data();
        let summary = query(
            &app,
            "dashboard.summary",
            Value::Null,
            Some(&w.teacher.cookie),
        )
        .await;
        let data = summary.data().clone();
        assert_eq!(data["toMark"], 1);
        assert_eq!(data["oldestToMark"][0]["studentName"], "Amelia Pupil");
        assert_eq!(data["dueSoon"].as_array().map(Vec::len), Some(1));
        assert_eq!(data["dueSoon"][0]["title"], "Persuasive letter");
        assert_eq!(data["dueSoon"][0]["received"], 1);
        assert_eq!(data["dueSoon"][0]["expected"], 2);
        assert_eq!(data["scheduled"].as_array().map(Vec::len), Some(1));
        assert_eq!(data["scheduled"][0]["title"], "Poetry log");
        assert_eq!(data["scheduled"][0]["kind"], "ASSIGNMENT");
        let stranger = query(
            &app,
            "dashboard.summary",
            Value::Null,
            Some(&w.stranger.cookie),
        )
        .await;
        assert_eq!(stranger.data()["toMark"], 0);
        assert_eq!(stranger.data()["scheduled"], json!([]));
    }
);

dual_test!(
    async fn each_listed_submission_carries_its_own_files_in_order(app: TestApp) {
        let w = world(&app).await;
        hand_in(&app, &w.submissions[1], "Oliver's letter").await.data();
        hand_in(&app, &w.submissions[0], "Amelia's letter").await.data();
        // Oliver's two files (stored out of order), none for Amelia; after marking Amelia's
        // work she gets one, which shows on her marked row.
        let second = file_of(&app, &w, &w.submissions[1].0, "page-2.jpg", 5).await;
        let first = file_of(&app, &w, &w.submissions[1].0, "page-1.jpg", 1).await;
        let hub = query(&app, "feedback.list", all(), Some(&w.teacher.cookie)).await;
        let items = hub.data()["items"].as_array().expect("items").clone();
        let files = |item: &Value| -> Vec<(String, String)> {
            item["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| (f["id"].as_str().unwrap().to_owned(), f["filename"].as_str().unwrap().to_owned()))
                .collect()
        };
        assert_eq!(items[0]["studentForename"], "Oliver");
        assert_eq!(files(&items[0]), [(first.clone(), "page-1.jpg".into()), (second, "page-2.jpg".into())]);
        assert_eq!(items[0]["files"][0]["sizeBytes"], 1001);
        assert!(items[0]["files"][0]["url"].as_str().unwrap().ends_with(&format!("/files/{first}")));
        assert_eq!(files(&items[1]), []);

        mark_amelias_letter(&app, &w).await;
        let late = file_of(&app, &w, &w.submissions[0].0, "extra.jpg", 9).await;
        let hub = query(&app, "feedback.list", all(), Some(&w.teacher.cookie)).await;
        let marked = hub.data()["marked"].as_array().expect("marked").clone();
        assert_eq!(marked.len(), 1);
        assert_eq!(files(&marked[0]), [(late, "extra.jpg".into())]);
        assert_eq!(files(&hub.data()["items"][0]).len(), 2, "Oliver's still waiting, with his two");
    }
);

dual_test!(
    async fn the_hub_is_the_same_read_at_once_or_in_turn(app: TestApp) {
        let w = world(&app).await;
        hand_in(&app, &w.submissions[1], "Oliver's letter").await.data();
        hand_in(&app, &w.submissions[0], "Amelia's letter").await.data();
        file_of(&app, &w, &w.submissions[1].0, "page-1.jpg", 1).await;
        mark_amelias_letter(&app, &w).await;
        file_of(&app, &w, &w.submissions[0].0, "extra.jpg", 9).await;

        // With the pool free, the waiting list, the Marked list and the choices go at once.
        let before = crate::support::reads_total(&app, "feedback.list", "at_once").await;
        let at_once = query(&app, "feedback.list", all(), Some(&w.teacher.cookie)).await.data().clone();
        assert!(crate::support::reads_total(&app, "feedback.list", "at_once").await > before);
        assert_eq!(at_once["items"].as_array().map(Vec::len), Some(1), "{at_once}");
        assert_eq!(at_once["items"][0]["studentForename"], "Oliver");
        assert_eq!(at_once["items"][0]["files"][0]["filename"], "page-1.jpg");
        assert_eq!(at_once["marked"][0]["studentForename"], "Amelia");
        assert_eq!(at_once["marked"][0]["files"][0]["filename"], "extra.jpg");
        assert_eq!((at_once["waitingCount"].as_i64(), at_once["markedCount"].as_i64()), (Some(1), Some(1)));
        assert!(!at_once["notifications"].as_array().unwrap().is_empty(), "{at_once}");

        // With every connection but one taken, in turn on the one the request holds: the same.
        let held = crate::support::all_connections_but_one(&app, 2).await;
        let before = crate::support::reads_total(&app, "feedback.list", "in_turn").await;
        let in_turn = query(&app, "feedback.list", all(), Some(&w.teacher.cookie)).await.data().clone();
        assert!(crate::support::reads_total(&app, "feedback.list", "in_turn").await > before);
        drop(held);
        assert_eq!(in_turn, at_once);
    }
);
