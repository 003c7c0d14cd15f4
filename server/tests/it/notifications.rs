//! `notification.*`: the editor's validation, the send job queued with the write, edits
//! only while scheduled, body sanitising, Activity's statuses and counts, and scoping.

use chrono::{Duration, SecondsFormat, Utc};
use core_wasm::{NotificationType, UserRole};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{jobs, notification_receipts};
use voicemark::ids::{new_id, new_token};
use voicemark::models::notifications::{self, NewNotification, NewSubmission};
use voicemark::models::now;
use voicemark::models::receipts::{self, NewReceipt};
use voicemark::with_conn;

use crate::admin::{mutate, query, signed_in};
use crate::dual_test;
use crate::support::make_school;
use crate::support::TestApp;

const DATES: &[&str] = &["sendDate", "submissionDueDate"];

fn iso_in(delta: Duration) -> String {
    (Utc::now() + delta).to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A school with an admin, a teacher and a class of `pupils` pupils:
/// (school id, admin cookie, teacher id, teacher cookie, class id).
async fn school_with_class(
    app: &TestApp,
    pupils: usize,
) -> (String, String, String, String, String) {
    let school = make_school(app, "Northbridge").await;
    let (_, admin) = signed_in(app, &school, UserRole::Admin).await;
    let (teacher_id, teacher) = signed_in(app, &school, UserRole::Teacher).await;
    let class = mutate(
        app,
        &admin,
        "admin.saveClass",
        json!({"id": null, "name": "7 English"}),
        &[],
    )
    .await
    .expect("class");
    let class_id = class["id"].as_str().expect("id").to_owned();
    for n in 0..pupils {
        mutate(
            app,
            &admin,
            "admin.savePupil",
            json!({"id": null, "forename": format!("Pupil{n}"), "surname": "Test", "email": null,
                   "parentEmail": null, "upn": null, "yearGroupId": null, "formGroupId": null,
                   "classIds": [class_id]}),
            &[],
        )
        .await
        .expect("pupil");
    }
    (school, admin, teacher_id, teacher, class_id)
}

fn assignment(class_id: &str, send_in: Option<Duration>, due_in: Duration) -> Value {
    json!({
        "type": "ASSIGNMENT",
        "title": "Persuasive letter",
        "customTitle": null,
        "body": "<p>Write a letter.</p>",
        "sendDate": send_in.map(iso_in),
        "submissionDueDate": iso_in(due_in),
        "sendToPupil": true,
        "sendToParent": true,
        "filters": {"classes": [class_id], "yearGroups": [], "formGroups": [], "students": []},
    })
}

/// Every `notification.send` job: (payload, run_at, status, key).
async fn send_jobs(app: &TestApp) -> Vec<(String, chrono::NaiveDateTime, String, Option<String>)> {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| jobs::table
        .filter(jobs::kind.eq("notification.send"))
        .select((
            jobs::payload,
            jobs::run_at,
            jobs::status,
            jobs::idempotency_key
        ))
        .load(c)
        .await)
    .expect("jobs")
}

dual_test!(
    async fn the_editor_explains_every_mistake(app: TestApp) {
        let (_, _, _, teacher, class_id) = school_with_class(&app, 2).await;
        let err = mutate(
            &app,
            &teacher,
            "notification.create",
            json!({
                "type": "ASSIGNMENT", "title": "  ", "customTitle": null,
                "body": "<p><script>x</script></p>",
                "sendDate": iso_in(Duration::days(2)), "submissionDueDate": iso_in(Duration::days(1)),
                "sendToPupil": false, "sendToParent": false,
                "filters": {"classes": [], "yearGroups": [], "formGroups": [], "students": []},
            }),
            DATES,
        )
        .await
        .expect_err("invalid");
        assert_eq!(err.0, "BAD_REQUEST");
        assert_eq!(
            err.2,
            json!({
                "title": ["Enter a title."],
                "body": ["Write a message."],
                "submissionDueDate": ["The due date must be after the send date."],
                "sendToPupil": ["Choose pupils, parents or both."],
                "filters": ["Choose at least one recipient."],
            })
        );
        // With no send date the due date is compared with now.
        let mut input = assignment(&class_id, None, Duration::hours(-1));
        input["sendDate"] = Value::Null;
        let err = mutate(&app, &teacher, "notification.create", input, DATES)
            .await
            .expect_err("due");
        assert_eq!(
            err.2,
            json!({"submissionDueDate": ["The due date must be after the send date."]})
        );
        // Another school's class is not stored, not even as a filter that reaches nobody
        // (issue 26: every stored id is checked against the caller's school).
        let other = make_school(&app, "Riverside").await;
        let (_, outsider) = signed_in(&app, &other, UserRole::Teacher).await;
        let err = mutate(
            &app,
            &outsider,
            "notification.create",
            assignment(&class_id, None, Duration::days(3)),
            DATES,
        )
        .await
        .expect_err("foreign class");
        assert_eq!(
            (err.0.as_str(), err.1.as_str()),
            ("NOT_FOUND", "A chosen recipient was not found.")
        );
        // Nor mixed in with a class of the caller's own school, nor as a pupil, year or form.
        let (_, other_admin) = signed_in(&app, &other, UserRole::Admin).await;
        let own = mutate(&app, &other_admin, "admin.saveClass", json!({"id": null, "name": "8 Maths"}), &[])
            .await
            .expect("class");
        let mut mixed = assignment(own["id"].as_str().expect("id"), None, Duration::days(3));
        mixed["filters"]["classes"] = json!([own["id"], class_id]);
        let err = mutate(&app, &outsider, "notification.create", mixed, DATES)
            .await
            .expect_err("mixed");
        assert_eq!(err.0, "NOT_FOUND");
        for list in ["students", "yearGroups", "formGroups"] {
            let mut input = assignment(own["id"].as_str().expect("id"), None, Duration::days(3));
            input["filters"][list] = json!([class_id]);
            let err = mutate(&app, &outsider, "notification.create", input, DATES)
                .await
                .expect_err(list);
            assert_eq!(err.0, "NOT_FOUND", "{list}");
        }
        let count = query(&app, &outsider, "notification.countRecipients",
            json!({"filters": {"classes": [class_id], "yearGroups": [], "formGroups": [], "students": []}}))
            .await.expect("count");
        assert_eq!(count, json!({"pupils": 0}));
        let count = query(&app, &teacher, "notification.countRecipients",
            json!({"filters": {"classes": [class_id], "yearGroups": [], "formGroups": [], "students": []}}))
            .await.expect("count");
        assert_eq!(count, json!({"pupils": 2}));
        assert!(send_jobs(&app).await.is_empty(), "nothing was queued");
    }
);

dual_test!(
    async fn create_queues_one_send_and_edits_replace_it_until_sent(app: TestApp) {
        let (_, _, _, teacher, class_id) = school_with_class(&app, 3).await;
        let created = mutate(
            &app,
            &teacher,
            "notification.create",
            assignment(&class_id, Some(Duration::days(1)), Duration::days(7)),
            DATES,
        )
        .await
        .expect("created");
        let id = created["id"].as_str().expect("id").to_owned();
        assert_eq!(created["status"], "SCHEDULED");
        assert_eq!(created["recipients"], 3);
        assert_eq!(created["editable"], true);
        let jobs = send_jobs(&app).await;
        assert_eq!(jobs.len(), 1, "exactly one send job");
        let payload: Value = serde_json::from_str(&jobs[0].0).expect("payload");
        assert_eq!(payload, json!({"notificationId": id}));
        assert!(
            (jobs[0].1 - (now() + Duration::days(1)))
                .num_seconds()
                .abs()
                < 60,
            "runs at the send date"
        );
        assert_eq!(jobs[0].2, "QUEUED");
        let first_key = jobs[0].3.clone();

        // An edit moves the send: the old job is withdrawn, one new job is queued.
        let mut edit = assignment(&class_id, Some(Duration::days(2)), Duration::days(8));
        edit.as_object_mut().expect("object").remove("type");
        edit["id"] = json!(id);
        edit["title"] = json!("Persuasive letter (v2)");
        let updated = mutate(&app, &teacher, "notification.update", edit.clone(), DATES)
            .await
            .expect("updated");
        assert_eq!(updated["title"], "Persuasive letter (v2)");
        let jobs = send_jobs(&app).await;
        assert_eq!(jobs.len(), 1, "still exactly one send job");
        assert!(
            (jobs[0].1 - (now() + Duration::days(2)))
                .num_seconds()
                .abs()
                < 60
        );
        assert_ne!(jobs[0].3, first_key, "a new key for the new save");

        // Once receipts exist it has been sent and cannot change.
        let mut pooled = app.db.conn().await.expect("connection");
        let student: String = {
            use voicemark::db::schema::class_students;
            with_conn!(pooled.db(), |c| class_students::table
                .filter(class_students::class_id.eq(&class_id))
                .select(class_students::student_id)
                .first(c)
                .await)
            .expect("pupil")
        };
        receipts::insert_receipt(
            &mut pooled.db(),
            &NewReceipt {
                notification_id: id.clone(),
                student_id: student,
                sent_at: Some(now()),
            },
        )
        .await
        .expect("receipt");
        let err = mutate(&app, &teacher, "notification.update", edit, DATES)
            .await
            .expect_err("sent");
        assert_eq!(err.0, "BAD_REQUEST");
        assert_eq!(err.1, "This notification has already been sent.");

        // Sent at once: never editable.
        let now_input = assignment(&class_id, None, Duration::days(7));
        let sent_now = mutate(&app, &teacher, "notification.create", now_input, DATES)
            .await
            .expect("now");
        assert_eq!(sent_now["status"], "IN_PROGRESS");
        assert_eq!(sent_now["editable"], false);
        assert_eq!(send_jobs(&app).await.len(), 2);
    }
);

dual_test!(
    async fn the_body_is_sanitised_on_the_server(app: TestApp) {
        let (_, _, _, teacher, class_id) = school_with_class(&app, 1).await;
        let mut input = assignment(&class_id, Some(Duration::days(1)), Duration::days(7));
        input["body"] = json!(
            r#"<p onclick="steal()">Read <strong>chapter 3</strong><script>alert(1)</script></p><a href="javascript:alert(1)">x</a><a href="https://example.org">link</a>"#
        );
        let created = mutate(&app, &teacher, "notification.create", input, DATES)
            .await
            .expect("created");
        let fetched = query(
            &app,
            &teacher,
            "notification.get",
            json!({"id": created["id"]}),
        )
        .await
        .expect("get");
        let body = fetched["body"].as_str().expect("body");
        assert!(
            !body.contains("script") && !body.contains("alert"),
            "{body}"
        );
        assert!(
            !body.contains("onclick") && !body.contains("javascript"),
            "{body}"
        );
        assert!(
            body.starts_with("<p>Read <strong>chapter 3</strong></p>"),
            "{body}"
        );
        assert!(body.contains(r#"href="https://example.org""#), "{body}");
    }
);

/// Writes a notification straight to the database (for states the editor cannot make).
async fn stored(
    app: &TestApp,
    school_id: &str,
    sender_id: &str,
    title: &str,
    send: Duration,
    due: Option<Duration>,
) -> String {
    let at = now();
    let n = NewNotification {
        id: new_id(),
        created_at: at,
        updated_at: at,
        kind: if due.is_some() {
            NotificationType::Assignment
        } else {
            NotificationType::General
        },
        title: title.into(),
        custom_title: None,
        body: "<p>Hi</p>".into(),
        send_date: Some(at + send),
        submission_due_date: due.map(|d| at + d),
        send_to_parent: true,
        send_to_pupil: true,
        filters: "{}".into(),
        sender_id: sender_id.into(),
        school_id: school_id.into(),
    };
    let mut pooled = app.db.conn().await.expect("connection");
    notifications::insert(&mut pooled.db(), &n)
        .await
        .expect("notification");
    n.id
}

dual_test!(
    async fn activity_shows_statuses_counts_and_only_what_the_caller_may_see(app: TestApp) {
        let (school, admin, teacher_id, teacher, class_id) = school_with_class(&app, 2).await;
        let scheduled = mutate(
            &app,
            &teacher,
            "notification.create",
            assignment(&class_id, Some(Duration::days(1)), Duration::days(7)),
            DATES,
        )
        .await
        .expect("scheduled");
        let mut general = assignment(&class_id, None, Duration::days(7));
        general["type"] = json!("GENERAL");
        general["title"] = json!("Trip letter");
        let in_progress = mutate(&app, &teacher, "notification.create", general, DATES)
            .await
            .expect("in progress");
        assert_eq!(
            in_progress["submissionDueDate"],
            Value::Null,
            "messages have no due date"
        );
        let delivered = stored(
            &app,
            &school,
            &teacher_id,
            "Homework",
            Duration::days(-2),
            Some(Duration::days(3)),
        )
        .await;
        let ended = stored(
            &app,
            &school,
            &teacher_id,
            "Old essay",
            Duration::days(-9),
            Some(Duration::days(-1)),
        )
        .await;

        // Receipts and submissions for the sent ones.
        let mut pooled = app.db.conn().await.expect("connection");
        let pupils: Vec<String> = {
            use voicemark::db::schema::class_students;
            with_conn!(pooled.db(), |c| class_students::table
                .filter(class_students::class_id.eq(&class_id))
                .select(class_students::student_id)
                .load(c)
                .await)
            .expect("pupils")
        };
        for id in [&delivered, &ended] {
            for (n, pupil) in pupils.iter().enumerate() {
                receipts::insert_receipt(
                    &mut pooled.db(),
                    &NewReceipt {
                        notification_id: id.clone(),
                        student_id: pupil.clone(),
                        sent_at: Some(now()),
                    },
                )
                .await
                .expect("receipt");
                let at = now();
                notifications::insert_submission(
                    &mut pooled.db(),
                    &NewSubmission {
                        id: new_id(),
                        created_at: at,
                        updated_at: at,
                        received_at: Some(at),
                        marked_at: (n == 0).then_some(at),
                        content: Some("x".into()),
                        feedback: None,
                        feedback_sentiment: None,
                        token: new_token(),
                        notification_id: id.clone(),
                        student_id: pupil.clone(),
                    },
                )
                .await
                .expect("submission");
            }
        }
        let receipts: i64 = with_conn!(pooled.db(), |c| notification_receipts::table
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(receipts, 4);

        let page = query(
            &app,
            &teacher,
            "notification.list",
            json!({"search": null, "cursor": null, "pageSize": null}),
        )
        .await
        .expect("list");
        assert_eq!(page["total"], 4);
        assert_eq!(page["pageSize"], 20);
        let status_of = |id: &Value| {
            page["items"]
                .as_array()
                .expect("items")
                .iter()
                .find(|i| &i["id"] == id)
                .map(|i| {
                    (
                        i["status"].clone(),
                        i["recipients"].clone(),
                        i["submissions"].clone(),
                        i["marked"].clone(),
                    )
                })
                .expect("listed")
        };
        assert_eq!(
            status_of(&scheduled["id"]),
            (json!("SCHEDULED"), json!(2), json!(0), json!(0))
        );
        assert_eq!(
            status_of(&in_progress["id"]),
            (json!("IN_PROGRESS"), json!(2), json!(0), json!(0))
        );
        assert_eq!(
            status_of(&json!(delivered)),
            (json!("DELIVERED"), json!(2), json!(2), json!(1))
        );
        assert_eq!(
            status_of(&json!(ended)),
            (json!("ENDED"), json!(2), json!(2), json!(1))
        );

        // The send job done and receipts written: delivered.
        with_conn!(pooled.db(), |c| diesel::update(jobs::table)
            .set(jobs::status.eq("DONE"))
            .execute(c)
            .await)
        .expect("done");
        let page = query(
            &app,
            &teacher,
            "notification.list",
            json!({"search": "trip", "cursor": null, "pageSize": 5}),
        )
        .await
        .expect("search");
        assert_eq!(page["total"], 1);
        assert_eq!(page["items"][0]["status"], "DELIVERED");
        assert_eq!(page["items"][0]["title"], "Trip letter");

        // The view page's lists.
        let recipients = query(
            &app,
            &teacher,
            "notification.recipients",
            json!({"id": delivered}),
        )
        .await
        .expect("recipients");
        assert_eq!(recipients.as_array().expect("array").len(), 2);
        assert_eq!(recipients[0]["state"], "SENT");
        let upcoming = query(
            &app,
            &teacher,
            "notification.recipients",
            json!({"id": scheduled["id"]}),
        )
        .await
        .expect("upcoming");
        assert_eq!(upcoming[0]["state"], "SCHEDULED");
        let submissions = query(
            &app,
            &teacher,
            "notification.submissions",
            json!({"id": ended}),
        )
        .await
        .expect("submissions");
        assert_eq!(submissions.as_array().expect("array").len(), 2);

        // Pages after a cursor: 3 then 1, newest first, each notification once; a cursor
        // made up is refused in plain words.
        let first = query(
            &app,
            &teacher,
            "notification.list",
            json!({"search": null, "cursor": null, "pageSize": 3}),
        )
        .await
        .expect("page 1");
        assert_eq!(first["items"].as_array().expect("items").len(), 3);
        assert_eq!(first["total"], 4);
        let second = query(
            &app,
            &teacher,
            "notification.list",
            json!({"search": null, "cursor": first["nextCursor"], "pageSize": 3}),
        )
        .await
        .expect("page 2");
        assert_eq!(second["items"].as_array().expect("items").len(), 1);
        assert!(second["nextCursor"].is_null(), "the last page");
        let mut seen: Vec<String> = first["items"]
            .as_array()
            .unwrap()
            .iter()
            .chain(second["items"].as_array().unwrap())
            .map(|i| i["id"].as_str().unwrap().to_owned())
            .collect();
        let whole = query(
            &app,
            &teacher,
            "notification.list",
            json!({"search": null, "cursor": null, "pageSize": null}),
        )
        .await
        .expect("one page");
        let listed: Vec<String> = whole["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().to_owned()).collect();
        assert_eq!(seen, listed, "the same order as one page of 20");
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 4);
        let refused = query(
            &app,
            &teacher,
            "notification.list",
            json!({"search": null, "cursor": voicemark::rpc::cursor::encode(&["yesterday", "x"]), "pageSize": 3}),
        )
        .await
        .expect_err("a made-up cursor");
        assert_eq!((refused.0.as_str(), refused.1.as_str()), ("BAD_REQUEST", voicemark::rpc::cursor::BAD_CURSOR));

        // Another teacher of the school sees none of these; the admin sees all; another
        // school cannot read one.
        let (_, colleague) = signed_in(&app, &school, UserRole::Teacher).await;
        let theirs = query(
            &app,
            &colleague,
            "notification.list",
            json!({"search": null, "cursor": null, "pageSize": null}),
        )
        .await
        .expect("colleague");
        assert_eq!(theirs["total"], 0);
        let err = query(
            &app,
            &colleague,
            "notification.get",
            json!({"id": delivered}),
        )
        .await
        .expect_err("not theirs");
        assert_eq!(err.0, "NOT_FOUND");
        let all = query(
            &app,
            &admin,
            "notification.list",
            json!({"search": null, "cursor": null, "pageSize": null}),
        )
        .await
        .expect("admin");
        assert_eq!(all["total"], 4);
        let other = make_school(&app, "Riverside").await;
        let (_, outsider) = signed_in(&app, &other, UserRole::Admin).await;
        for path in [
            "notification.get",
            "notification.recipients",
            "notification.submissions",
        ] {
            let err = query(&app, &outsider, path, json!({"id": delivered}))
                .await
                .expect_err("other school");
            assert_eq!(err.0, "NOT_FOUND", "{path}");
        }
    }
);
