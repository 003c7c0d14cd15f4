//! The pupil profile: `student.get`, `student.timeline`, `student.comments`,
//! `student.addComment`, `student.deleteComment` — school scoping, the author-only
//! delete rule and the audit rows.

use axum::http::StatusCode;
use serde_json::json;
use voicemark::models::audit;

use crate::dual_test;
use crate::submissions::{hand_in, mutate, query, world};
use crate::support::TestApp;

async fn audit_rows(app: &TestApp, entity: &str, id: &str) -> Vec<(String, Option<String>)> {
    let mut pooled = app.db.conn().await.expect("connection");
    audit::for_entity(&mut pooled.db(), entity, id)
        .await
        .expect("audit")
}

dual_test!(
    async fn the_profile_shows_details_classes_and_the_timeline(app: TestApp) {
        let w = world(&app).await;
        let pupil = &w.pupils[0];
        let profile = query(
            &app,
            "student.get",
            json!({"id": pupil}),
            Some(&w.colleague.cookie),
        )
        .await;
        let data = profile.data().clone();
        assert_eq!(data["forename"], "Amelia");
        assert_eq!(
            data["classes"],
            json!([{"id": w.class_id, "name": "Year 7 English"}])
        );
        assert_eq!(
            audit_rows(&app, "student", pupil).await,
            vec![("READ".to_owned(), Some(w.colleague.id.clone()))]
        );

        // Another school's teacher: NOT_FOUND for everything, and no audit row.
        for path in ["student.get", "student.timeline", "student.comments"] {
            let answer = query(&app, path, json!({"id": pupil}), Some(&w.stranger.cookie)).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        }
        assert_eq!(audit_rows(&app, "student", pupil).await.len(), 1);

        // The timeline: the assignment, then its hand-in and feedback.
        let timeline = query(
            &app,
            "student.timeline",
            json!({"id": pupil}),
            Some(&w.teacher.cookie),
        )
        .await;
        let entries = timeline.data().as_array().expect("entries").clone();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0]["notificationTitle"], "Persuasive letter");
        assert_eq!(entries[0]["receivedAt"], serde_json::Value::Null);
        hand_in(&app, &w.submissions[0], "My letter").await.data();
        mutate(&app, "feedback.mark", json!({"submissionId": w.submissions[0].0, "feedback": "Lovely work", "sentiment": "POSITIVE"}), Some(&w.teacher.cookie)).await.data();
        let timeline = query(
            &app,
            "student.timeline",
            json!({"id": pupil}),
            Some(&w.teacher.cookie),
        )
        .await;
        let entry = timeline.data()[0].clone();
        assert_eq!(entry["feedback"], "Lovely work");
        assert_eq!(entry["feedbackSentiment"], "POSITIVE");
        assert!(entry["receivedAt"].is_string() && entry["markedAt"].is_string());
    }
);

dual_test!(
    async fn comments_can_be_deleted_by_their_author_only(app: TestApp) {
        let w = world(&app).await;
        let pupil = &w.pupils[0];
        let add = |cookie: String, comment: String| {
            let app = &app;
            async move {
                mutate(
                    app,
                    "student.addComment",
                    json!({"studentId": pupil, "comment": comment}),
                    Some(&cookie),
                )
                .await
            }
        };
        assert_eq!(
            add(w.teacher.cookie.clone(), " ".into())
                .await
                .field_error("comment"),
            "Write a comment."
        );
        assert_eq!(
            add(w.teacher.cookie.clone(), "a".repeat(2_001))
                .await
                .field_error("comment"),
            "Use at most 2000 characters."
        );
        assert_eq!(
            add(w.stranger.cookie.clone(), "Hello".into()).await.code(),
            "NOT_FOUND"
        );

        let first = add(w.teacher.cookie.clone(), "Reads well aloud.".into())
            .await
            .data()
            .clone();
        let second = add(
            w.colleague.cookie.clone(),
            "Needs a new reading book.".into(),
        )
        .await
        .data()
        .clone();
        assert_eq!(first["comment"], "Reads well aloud.");
        assert_eq!(first["authorName"], "Tess Staff");
        assert_eq!(first["mine"], true);

        let list = query(
            &app,
            "student.comments",
            json!({"id": pupil}),
            Some(&w.teacher.cookie),
        )
        .await;
        let comments = list.data().as_array().expect("comments").clone();
        assert_eq!(comments.len(), 2);
        assert_eq!(comments[0]["id"], second["id"], "newest first");
        assert_eq!(comments[0]["mine"], false);
        assert_eq!(comments[1]["mine"], true);

        let first_id = first["id"].as_str().expect("id").to_owned();
        let delete = |cookie: String, id: String| {
            let app = &app;
            async move {
                mutate(
                    app,
                    "student.deleteComment",
                    json!({"id": id}),
                    Some(&cookie),
                )
                .await
            }
        };
        assert_eq!(
            delete(w.colleague.cookie.clone(), first_id.clone())
                .await
                .code(),
            "FORBIDDEN"
        );
        assert_eq!(
            delete(w.admin.cookie.clone(), first_id.clone())
                .await
                .code(),
            "FORBIDDEN"
        );
        assert_eq!(
            delete(w.stranger.cookie.clone(), first_id.clone())
                .await
                .code(),
            "NOT_FOUND"
        );
        assert_eq!(
            delete(w.teacher.cookie.clone(), first_id.clone())
                .await
                .data(),
            &json!({"ok": true})
        );
        assert_eq!(
            delete(w.teacher.cookie.clone(), first_id.clone())
                .await
                .code(),
            "NOT_FOUND"
        );
        let list = query(
            &app,
            "student.comments",
            json!({"id": pupil}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(list.data().as_array().map(Vec::len), Some(1));

        assert_eq!(
            audit_rows(&app, "student_comment", &first_id).await,
            vec![
                ("CREATE".to_owned(), Some(w.teacher.id.clone())),
                ("DELETE".to_owned(), Some(w.teacher.id.clone())),
            ]
        );
    }
);
