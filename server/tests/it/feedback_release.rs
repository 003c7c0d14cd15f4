//! Feedback released when the teacher says (issue 28, docs/feedback-release.md): held marks
//! never reach `submission.public`, e-mail or a digest; editing and withdrawing them;
//! `feedback.release` (one e-mail per recipient, scoped); the scheduled release job, once
//! across two processes; the Hub's marked / held lists; the editor's setting.

use chrono::{Duration, NaiveDateTime};
use core_wasm::NotificationFrequency;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{jobs, notification_receipts, notifications};
use voicemark::ids::new_token;
use voicemark::jobs::email_digest::DigestEmail;
use voicemark::jobs::feedback_release::ReleaseFeedback;
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{enqueue, Registry, WorkerSettings};
use voicemark::models::email_preferences::{self, NewEmailPreference};
use voicemark::models::now;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::sending::smtp::SmtpSink;
use crate::sending::{drain, make_pupil, simple, smtp_state};
use crate::submissions::{hand_in, mutate, query, submission_row, world, World};
use crate::support::TestApp;

const RELEASED: &str = "This feedback has been released and can no longer be changed.";

/// Two pupils with their own and their parents' addresses (ada@pupils.test,
/// parent.ada@families.test, ben@…) on the world's assignment, both handed in.
async fn pupils_with_mail(app: &TestApp, w: &World) -> [(String, String); 2] {
    let mut pooled = app.db.conn().await.expect("connection");
    let ada = make_pupil(&mut pooled.db(), &w.school, simple("Ada", "Lovelace")).await;
    let ben = make_pupil(&mut pooled.db(), &w.school, simple("Ben", "Bishop")).await;
    drop(pooled);
    let ada = submission_row(app, &w.notification, &ada).await;
    let ben = submission_row(app, &w.notification, &ben).await;
    hand_in(app, &ada, "Ada's letter").await.data();
    hand_in(app, &ben, "Ben's letter").await.data();
    [ada, ben]
}

/// Sets the world's (already sent) assignment's release through `notification.update`,
/// sending every other field back as `notification.get` gives it.
async fn set_release(
    app: &TestApp,
    w: &World,
    release: &str,
    at: Option<NaiveDateTime>,
) -> crate::submissions::Answer {
    let detail = query(
        app,
        "notification.get",
        json!({"id": w.notification}),
        Some(&w.teacher.cookie),
    )
    .await;
    let d = detail.data().clone();
    mutate(
        app,
        "notification.update",
        json!({
            "id": w.notification,
            "title": d["title"],
            "customTitle": d["customTitle"],
            "body": d["body"],
            "sendDate": plain_date(&d["sendDate"]),
            "submissionDueDate": plain_date(&d["submissionDueDate"]),
            "sendToPupil": d["sendToPupil"],
            "sendToParent": d["sendToParent"],
            "filters": d["filters"],
            "feedbackRelease": release,
            "feedbackReleaseAt": at.map(iso),
        }),
        Some(&w.teacher.cookie),
    )
    .await
}

/// An output date (it carries the encoder's marker) as the ISO text an input takes.
fn plain_date(value: &Value) -> Value {
    match value.as_str() {
        Some(text) => json!(text.trim_start_matches(|c: char| !c.is_ascii_digit())),
        None => Value::Null,
    }
}

fn iso(at: NaiveDateTime) -> String {
    at.and_utc().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

async fn mark(app: &TestApp, w: &World, id: &str, feedback: &str) -> crate::submissions::Answer {
    mutate(
        app,
        "feedback.mark",
        json!({"submissionId": id, "feedback": feedback, "sentiment": "POSITIVE"}),
        Some(&w.teacher.cookie),
    )
    .await
}

async fn public(app: &TestApp, (id, token): &(String, String)) -> Value {
    query(
        app,
        "submission.public",
        json!({"id": id, "token": token}),
        None,
    )
    .await
    .data()
    .clone()
}

async fn jobs_of(app: &TestApp, kind: &str) -> Vec<(String, NaiveDateTime, String)> {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| jobs::table
        .filter(jobs::kind.eq(kind))
        .order(jobs::run_at.asc())
        .select((jobs::payload, jobs::run_at, jobs::status))
        .load(c)
        .await)
    .expect("jobs")
}

async fn hub(app: &TestApp, w: &World) -> Value {
    query(
        app,
        "feedback.list",
        json!({"notificationId": null, "classId": null}),
        Some(&w.teacher.cookie),
    )
    .await
    .data()
    .clone()
}

dual_test!(
    async fn held_feedback_stays_private_until_released_by_hand(app: TestApp) {
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let w = world(&app).await;
        let [ada, ben] = pupils_with_mail(&app, &w).await;
        hand_in(&app, &w.submissions[0], "Amelia's letter")
            .await
            .data();

        let set = set_release(&app, &w, "BY_HAND", None).await;
        assert_eq!(set.data()["feedbackRelease"], "BY_HAND");

        // Marked while the assignment releases by hand: held.
        let marked = mark(&app, &w, &ada.0, "Lovely lava flow.").await;
        assert_eq!(marked.data()["releasedAt"], Value::Null);
        let first_marked_at = marked.data()["markedAt"].as_str().expect("date").to_owned();
        mark(&app, &w, &ben.0, "Ben: a strong start.").await.data();
        assert!(
            jobs_of(&app, "feedback.email").await.is_empty(),
            "no e-mail job"
        );

        // The pupil's page shows nothing of it, and the work cannot change.
        let page = public(&app, &ada).await;
        assert_eq!(page["feedback"], Value::Null);
        assert_eq!(page["feedbackSentiment"], Value::Null);
        assert_eq!(page["markedAt"], Value::Null);
        assert_eq!(page["feedbackPending"], true);
        let again = hand_in(&app, &ada, "changed").await;
        assert_eq!(again.code(), "BAD_REQUEST");
        assert_eq!(
            again.message(),
            "Your teacher is marking this work, so it cannot be changed."
        );
        // Nor does the pupil's profile.
        let mut pooled = app.db.conn().await.expect("connection");
        let ada_id: String = with_conn!(pooled.db(), |c| voicemark::db::schema::submissions::table
            .find(&ada.0)
            .select(voicemark::db::schema::submissions::student_id)
            .first(c)
            .await)
        .expect("pupil");
        drop(pooled);
        let timeline = query(
            &app,
            "student.timeline",
            json!({"id": ada_id}),
            Some(&w.teacher.cookie),
        )
        .await;
        let entry = timeline.data()[0].clone();
        assert_eq!(entry["feedback"], Value::Null);
        assert_eq!(entry["feedbackHeld"], true);

        // A digest to Ada in the meantime lists the assignment and not the feedback.
        let at = now();
        let mut pooled = app.db.conn().await.expect("connection");
        email_preferences::insert(
            &mut pooled.db(),
            &NewEmailPreference {
                email: "ada@pupils.test".into(),
                language: "en".into(),
                general: true,
                assignment: true,
                frequency: NotificationFrequency::Daily,
                token: new_token(),
                created_at: at,
                updated_at: at,
            },
        )
        .await
        .expect("preference");
        with_conn!(pooled.db(), |c| diesel::insert_into(
            notification_receipts::table
        )
        .values((
            notification_receipts::notification_id.eq(&w.notification),
            notification_receipts::student_id.eq(&ada_id),
            notification_receipts::sent_at.eq(Some(at - Duration::minutes(5))),
        ))
        .execute(c)
        .await)
        .expect("receipt");
        let digest = DigestEmail {
            email: "ada@pupils.test".into(),
            frequency: NotificationFrequency::Daily,
            period_end: at,
        };
        let key = digest.key();
        enqueue(&mut pooled.db(), &digest, at, Some(key))
            .await
            .expect("digest");
        drop(pooled);
        drain(&state).await;
        let digests = sink.to("ada@pupils.test");
        assert_eq!(digests.len(), 1, "the digest went out");
        assert!(digests[0].text().contains("Persuasive letter"));
        assert!(
            !digests[0].text().contains("Lovely lava flow."),
            "{}",
            digests[0].text()
        );
        assert_eq!(sink.count(), 1, "and nothing else: no feedback e-mail");

        // The Hub lists them as marked and held; Amelia's still waits.
        let h = hub(&app, &w).await;
        assert_eq!(h["items"].as_array().map(Vec::len), Some(1));
        assert_eq!(h["markedCount"], 2);
        let marked = h["marked"].as_array().expect("marked").clone();
        assert_eq!(marked.len(), 2);
        assert_eq!(marked[0]["studentForename"], "Ben", "newest marked first");
        assert_eq!(marked[1]["feedback"], "Lovely lava flow.");
        assert_eq!(marked[1]["feedbackSentiment"], "POSITIVE");
        assert_eq!(marked[1]["release"], "BY_HAND");
        assert_eq!(marked[1]["releasedAt"], Value::Null);
        assert!(marked[1]["markedAt"].is_string());
        assert_eq!(
            h["held"],
            json!([{"notificationId": w.notification, "title": "Persuasive letter", "count": 2, "release": "BY_HAND", "releaseAt": null}])
        );
        let detail = query(
            &app,
            "notification.get",
            json!({"id": w.notification}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(detail.data()["held"], 2);

        // Edit before release: new text, marked_at moved on, still held.
        let edited = mark(&app, &w, &ada.0, "Lovely lava flow, and a clear ending.").await;
        assert_eq!(
            edited.data()["feedback"],
            "Lovely lava flow, and a clear ending."
        );
        assert_eq!(edited.data()["releasedAt"], Value::Null);
        assert!(edited.data()["markedAt"].as_str().expect("date") >= first_marked_at.as_str());
        // Withdraw Ben's: waiting again, audited.
        let withdrawn = mutate(
            &app,
            "feedback.withdraw",
            json!({"submissionId": ben.0}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(withdrawn.data()["submissionId"], ben.0);
        let h = hub(&app, &w).await;
        assert_eq!(h["items"].as_array().map(Vec::len), Some(2));
        assert_eq!(h["markedCount"], 1);
        assert_eq!(h["held"][0]["count"], 1);
        let mut pooled = app.db.conn().await.expect("connection");
        let audit = voicemark::models::audit::for_entity(&mut pooled.db(), "submission", &ben.0)
            .await
            .expect("audit");
        drop(pooled);
        assert_eq!(audit.len(), 2, "marked, then withdrawn: {audit:?}");
        // Withdrawing what is not marked is refused in a sentence.
        let nothing = mutate(
            &app,
            "feedback.withdraw",
            json!({"submissionId": ben.0}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(nothing.code(), "BAD_REQUEST");
        assert_eq!(
            nothing.message(),
            "This submission has not been marked, so there is nothing to withdraw."
        );

        // Another school's teacher, or a colleague who did not send it, can neither release
        // nor withdraw.
        for cookie in [&w.stranger.cookie, &w.colleague.cookie] {
            let release = mutate(
                &app,
                "feedback.release",
                json!({"notificationId": w.notification}),
                Some(cookie),
            )
            .await;
            assert_eq!(release.code(), "NOT_FOUND");
            let withdraw = mutate(
                &app,
                "feedback.withdraw",
                json!({"submissionId": ada.0}),
                Some(cookie),
            )
            .await;
            assert_eq!(withdraw.code(), "NOT_FOUND");
            let stranger_hub = query(
                &app,
                "feedback.list",
                json!({"notificationId": null, "classId": null}),
                Some(cookie),
            )
            .await;
            assert_eq!(stranger_hub.data()["marked"], json!([]));
            assert_eq!(stranger_hub.data()["held"], json!([]));
        }
        assert_eq!(public(&app, &ada).await["feedback"], Value::Null);

        // Release: every held mark at once, one e-mail per recipient; again releases nothing.
        let released = mutate(
            &app,
            "feedback.release",
            json!({"notificationId": w.notification}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(released.data()["released"], 1);
        let twice = mutate(
            &app,
            "feedback.release",
            json!({"notificationId": w.notification}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(twice.data()["released"], 0);
        drain(&state).await;
        let to_ada = sink.to("ada@pupils.test");
        assert_eq!(to_ada.len(), 2, "the digest and one feedback e-mail");
        assert!(to_ada[1]
            .text()
            .contains("Lovely lava flow, and a clear ending."));
        assert_eq!(sink.to("parent.ada@families.test").len(), 1);
        assert_eq!(sink.count(), 3);
        let page = public(&app, &ada).await;
        assert_eq!(page["feedback"], "Lovely lava flow, and a clear ending.");
        assert_eq!(page["feedbackSentiment"], "POSITIVE");
        assert_eq!(page["feedbackPending"], false);
        let h = hub(&app, &w).await;
        assert_eq!(h["held"], json!([]));
        assert_eq!(h["marked"][0]["release"], "RELEASED");
        assert!(h["marked"][0]["releasedAt"].is_string());

        // Released: neither edit nor withdraw.
        let edit = mark(&app, &w, &ada.0, "Too late").await;
        assert_eq!(edit.code(), "BAD_REQUEST");
        assert_eq!(edit.message(), RELEASED);
        let withdraw = mutate(
            &app,
            "feedback.withdraw",
            json!({"submissionId": ada.0}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(withdraw.code(), "BAD_REQUEST");
        assert_eq!(withdraw.message(), RELEASED);
        assert_eq!(
            public(&app, &ada).await["feedback"],
            "Lovely lava flow, and a clear ending."
        );
    }
);

/// Runs due jobs as worker `name` of process `state` until none is ready.
async fn poll(state: AppState, name: &'static str) -> usize {
    let registry = Registry::standard();
    let settings = WorkerSettings::default();
    let mut ran = 0;
    loop {
        match run_once(&state, &registry, name, &settings)
            .await
            .expect("run")
        {
            Outcome::Idle => return ran,
            Outcome::Done(_) => ran += 1,
            Outcome::Failed { job, error } => {
                panic!("job {} ({}) failed: {error}", job.id, job.kind)
            }
            Outcome::HandedBack(job) => panic!("job {} was handed back", job.id),
        }
    }
}

dual_test!(
    async fn a_scheduled_release_runs_once_across_two_processes(app: TestApp) {
        let sink = SmtpSink::start().await;
        let w = world(&app).await;
        let [ada, ben] = pupils_with_mail(&app, &w).await;

        // The date must be ahead, and is required.
        let missing = set_release(&app, &w, "ON_DATE", None).await;
        assert_eq!(
            missing.field_error("feedbackReleaseAt"),
            "Choose when the feedback is released."
        );
        let past = set_release(&app, &w, "ON_DATE", Some(now() - Duration::hours(1))).await;
        assert_eq!(
            past.field_error("feedbackReleaseAt"),
            "The release date must be in the future."
        );
        let wrong = set_release(&app, &w, "SOMETIME", None).await;
        assert_eq!(
            wrong.field_error("feedbackRelease"),
            "Choose When marked, On a date or By hand."
        );

        let first = now() + Duration::hours(1);
        set_release(&app, &w, "ON_DATE", Some(first)).await.data();
        mark(&app, &w, &ada.0, "Ada: vivid and precise.")
            .await
            .data();
        mark(&app, &w, &ben.0, "Ben: well argued.").await.data();
        let h = hub(&app, &w).await;
        assert_eq!(h["held"][0]["release"], "ON_DATE");
        assert!(h["held"][0]["releaseAt"].is_string());
        assert_eq!(h["marked"][0]["release"], "ON_DATE");
        assert!(h["marked"][0]["releaseAt"].is_string());

        // Moving the date moves the queued release: one job, at the new date.
        let second = now() + Duration::hours(2);
        let moved = set_release(&app, &w, "ON_DATE", Some(second)).await;
        assert!(moved.data()["feedbackReleaseAt"].is_string());
        let queued = jobs_of(&app, "feedback.release_held").await;
        assert_eq!(queued.len(), 1, "{queued:?}");
        assert_eq!(
            queued[0].1.and_utc().timestamp_millis(),
            second.and_utc().timestamp_millis()
        );
        assert_eq!(queued[0].2, "QUEUED");

        // Nothing is due yet: two processes polling send nothing.
        let (a, b) = tokio::join!(
            poll(smtp_state(&app, &sink), "process-a/0"),
            poll(smtp_state(&app, &sink), "process-b/0")
        );
        assert_eq!(a + b, 0);
        assert_eq!(public(&app, &ada).await["feedback"], Value::Null);

        // The date comes (a restart later: fresh states read the queued job from the database).
        let past = now() - Duration::seconds(1);
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::update(
            notifications::table.find(&w.notification)
        )
        .set(notifications::feedback_release_at.eq(Some(past)))
        .execute(c)
        .await)
        .expect("date");
        with_conn!(pooled.db(), |c| diesel::update(
            jobs::table.filter(jobs::kind.eq("feedback.release_held"))
        )
        .set(jobs::run_at.eq(past))
        .execute(c)
        .await)
        .expect("due");
        // A second release job for the same date, as a duplicate enqueue from another
        // process would leave: it must release nothing more.
        ReleaseFeedback::schedule(
            &mut pooled.db(),
            &w.notification,
            past - Duration::seconds(1),
        )
        .await
        .expect("second job");
        drop(pooled);
        let (a, b) = tokio::join!(
            poll(smtp_state(&app, &sink), "process-a/1"),
            poll(smtp_state(&app, &sink), "process-b/1")
        );
        // Two release jobs, two feedback.email jobs, four e-mails.
        assert_eq!(a + b, 8, "jobs run: {a} + {b}");
        let releases = jobs_of(&app, "feedback.release_held").await;
        assert!(
            releases.iter().all(|(_, _, status)| status == "DONE"),
            "{releases:?}"
        );
        assert_eq!(jobs_of(&app, "feedback.email").await.len(), 2);
        for address in [
            "ada@pupils.test",
            "parent.ada@families.test",
            "ben@pupils.test",
            "parent.ben@families.test",
        ] {
            assert_eq!(sink.to(address).len(), 1, "{address}");
        }
        assert_eq!(sink.count(), 4);
        assert_eq!(
            public(&app, &ada).await["feedback"],
            "Ada: vivid and precise."
        );
        assert_eq!(public(&app, &ben).await["feedback"], "Ben: well argued.");
        assert_eq!(hub(&app, &w).await["held"], json!([]));

        // After the date, a new mark is released when marked.
        hand_in(&app, &w.submissions[0], "Amelia's letter")
            .await
            .data();
        let late = mark(&app, &w, &w.submissions[0].0, "Amelia: good.").await;
        assert!(late.data()["releasedAt"].is_string());
        assert_eq!(jobs_of(&app, "feedback.email").await.len(), 3);
        assert_eq!(
            public(&app, &w.submissions[0]).await["feedback"],
            "Amelia: good."
        );
    }
);

dual_test!(
    async fn switching_to_when_marked_releases_held_marks_through_the_queue(app: TestApp) {
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let w = world(&app).await;
        let [ada, _ben] = pupils_with_mail(&app, &w).await;
        set_release(&app, &w, "BY_HAND", None).await.data();
        mark(&app, &w, &ada.0, "Held, then let go.").await.data();
        drain(&state).await;
        assert_eq!(sink.count(), 0);

        // Any other change to a sent assignment is still refused.
        let mut pooled = app.db.conn().await.expect("connection");
        let title: String = with_conn!(pooled.db(), |c| notifications::table
            .find(&w.notification)
            .select(notifications::title)
            .first(c)
            .await)
        .expect("title");
        drop(pooled);
        assert_eq!(title, "Persuasive letter");
        let detail = query(
            &app,
            "notification.get",
            json!({"id": w.notification}),
            Some(&w.teacher.cookie),
        )
        .await;
        let d = detail.data().clone();
        let renamed = mutate(
            &app,
            "notification.update",
            json!({
                "id": w.notification, "title": "Renamed", "customTitle": null, "body": d["body"],
                "sendDate": plain_date(&d["sendDate"]), "submissionDueDate": plain_date(&d["submissionDueDate"]),
                "sendToPupil": true, "sendToParent": true, "filters": d["filters"],
                "feedbackRelease": "WHEN_MARKED",
            }),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(renamed.code(), "BAD_REQUEST");
        assert_eq!(
            renamed.message(),
            "This notification has already been sent."
        );
        assert_eq!(public(&app, &ada).await["feedback"], Value::Null);

        let switched = set_release(&app, &w, "WHEN_MARKED", None).await;
        assert_eq!(switched.data()["feedbackRelease"], "WHEN_MARKED");
        assert_eq!(jobs_of(&app, "feedback.release_held").await.len(), 1);
        drain(&state).await;
        assert_eq!(sink.to("ada@pupils.test").len(), 1);
        assert_eq!(sink.to("parent.ada@families.test").len(), 1);
        assert_eq!(public(&app, &ada).await["feedback"], "Held, then let go.");
    }
);

dual_test!(
    async fn the_editor_setting_is_for_assignments_only(app: TestApp) {
        let w = world(&app).await;
        let base = |kind: &str, release: Value, at: Value| {
            json!({
                "type": kind, "title": "Release test", "customTitle": null, "body": "<p>Hello</p>",
                "sendDate": null,
                "submissionDueDate": if kind == "ASSIGNMENT" { json!(iso(now() + Duration::days(3))) } else { Value::Null },
                "sendToPupil": true, "sendToParent": false,
                "filters": {"classes": [w.class_id], "yearGroups": [], "formGroups": [], "students": []},
                "feedbackRelease": release, "feedbackReleaseAt": at,
            })
        };
        let general = mutate(
            &app,
            "notification.create",
            base("GENERAL", json!("BY_HAND"), Value::Null),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(
            general.field_error("feedbackRelease"),
            "Only assignments can hold feedback."
        );
        let no_date = mutate(
            &app,
            "notification.create",
            base("ASSIGNMENT", json!("ON_DATE"), Value::Null),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(
            no_date.field_error("feedbackReleaseAt"),
            "Choose when the feedback is released."
        );
        let at = now() + Duration::days(5);
        let created = mutate(
            &app,
            "notification.create",
            base("ASSIGNMENT", json!("ON_DATE"), json!(iso(at))),
            Some(&w.teacher.cookie),
        )
        .await;
        let d = created.data().clone();
        assert_eq!(d["feedbackRelease"], "ON_DATE");
        assert!(d["feedbackReleaseAt"].is_string());
        let queued = jobs_of(&app, "feedback.release_held").await;
        assert_eq!(queued.len(), 1);
        assert_eq!(
            queued[0].1.and_utc().timestamp_millis(),
            at.and_utc().timestamp_millis()
        );
        // Absent: When marked, as before.
        let mut plain = base("ASSIGNMENT", Value::Null, Value::Null);
        plain
            .as_object_mut()
            .expect("object")
            .remove("feedbackRelease");
        let plain = mutate(&app, "notification.create", plain, Some(&w.teacher.cookie)).await;
        assert_eq!(plain.data()["feedbackRelease"], "WHEN_MARKED");
        assert_eq!(plain.data()["feedbackReleaseAt"], Value::Null);
    }
);
