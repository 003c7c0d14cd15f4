//! The job queue: safe claiming by concurrent workers, retries with backoff, FAILED after
//! the last attempt, and reclaiming the jobs of a dead worker.

use std::collections::HashSet;
use std::time::Duration;

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::json;
use voicemark::db::schema::jobs as jobs_table;
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{self, status, Job, JobError, NewJob, Registry, WorkerSettings};
use voicemark::models::now;
use voicemark::with_conn;

use crate::dual_test;

fn job(kind: &str, n: usize) -> NewJob {
    NewJob {
        kind: kind.into(),
        payload: json!({ "n": n }),
        run_at: now(),
        idempotency_key: Some(format!("{kind}:{n}")),
    }
}

fn always_fails(
    _: &voicemark::state::AppState,
    _: &Job,
) -> futures_util::future::BoxFuture<'static, Result<(), JobError>> {
    Box::pin(async { Err(JobError::Retry("the provider said no".into())) })
}

dual_test!(
    async fn concurrent_workers_claim_each_job_exactly_once(app: TestApp) {
        {
            let mut pooled = app.db.conn().await.expect("connection");
            let batch: Vec<NewJob> = (0..200).map(|n| job("test.claim", n)).collect();
            let queued = jobs::enqueue_many(&mut pooled.db(), &batch)
                .await
                .expect("enqueue");
            assert_eq!(queued, 200);
            // The same keys again queue nothing.
            assert_eq!(
                jobs::enqueue_many(&mut pooled.db(), &batch)
                    .await
                    .expect("enqueue"),
                0
            );
            assert!(voicemark::models::jobs::insert(&mut pooled.db(), &batch[0])
                .await
                .expect("enqueue")
                .is_none());
        }
        let mut tasks = Vec::new();
        for w in 0..6 {
            let db = app.db.clone();
            tasks.push(tokio::spawn(async move {
                let worker = format!("worker-{w}");
                let mut claimed = Vec::new();
                loop {
                    let mut pooled = db.conn().await.expect("connection");
                    let mut conn = pooled.db();
                    match jobs::claim(&mut conn, &worker, Duration::from_secs(300))
                        .await
                        .expect("claim")
                    {
                        Some(job) => {
                            assert_eq!(job.status, status::RUNNING);
                            assert_eq!(job.attempts, 1);
                            assert!(jobs::complete(&mut conn, &job.id, &worker)
                                .await
                                .expect("complete"));
                            claimed.push(job.id);
                        }
                        None => break,
                    }
                }
                claimed
            }));
        }
        let mut all = Vec::new();
        let mut per_worker = Vec::new();
        for task in tasks {
            let claimed = task.await.expect("worker");
            per_worker.push(claimed.len());
            all.extend(claimed);
        }
        let unique: HashSet<&String> = all.iter().collect();
        assert_eq!(all.len(), 200, "claims per worker: {per_worker:?}");
        assert_eq!(unique.len(), 200);
        let mut pooled = app.db.conn().await.expect("connection");
        let done: i64 = with_conn!(pooled.db(), |c| jobs_table::table
            .filter(jobs_table::status.eq(status::DONE))
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(done, 200);
        eprintln!("claims per worker: {per_worker:?}");
    }
);

dual_test!(
    async fn a_failing_job_backs_off_then_fails_after_its_last_attempt(app: TestApp) {
        let registry = Registry::empty().with("test.fail", always_fails);
        let settings = WorkerSettings::default();
        let mut pooled = app.db.conn().await.expect("connection");
        let id = voicemark::models::jobs::insert(&mut pooled.db(), &job("test.fail", 1))
            .await
            .expect("enqueue")
            .expect("new");
        for attempt in 1..=5 {
            let before = now();
            let outcome = run_once(&app.state, &registry, "w", &settings)
                .await
                .expect("run");
            assert!(matches!(outcome, Outcome::Failed { .. }), "{outcome:?}");
            let stored = jobs::find(&mut pooled.db(), &id)
                .await
                .expect("find")
                .expect("job");
            assert_eq!(stored.attempts, attempt);
            assert_eq!(stored.last_error.as_deref(), Some("the provider said no"));
            if attempt < 5 {
                assert_eq!(stored.status, status::QUEUED);
                assert!(stored.locked_by.is_none() && stored.locked_at.is_none());
                let delay = (stored.run_at - before).num_seconds();
                let expected = 30 * 2i64.pow(attempt as u32 - 1);
                assert!(
                    (expected - 1..=expected + 1).contains(&delay),
                    "attempt {attempt}: {delay}s"
                );
                // Nothing is due until the backoff is over.
                assert_eq!(
                    run_once(&app.state, &registry, "w", &settings)
                        .await
                        .expect("run"),
                    Outcome::Idle
                );
                // Let time pass.
                with_conn!(pooled.db(), |c| diesel::update(jobs_table::table.find(&id))
                    .set(jobs_table::run_at.eq(now()))
                    .execute(c)
                    .await)
                .expect("rewind");
            } else {
                assert_eq!(stored.status, status::FAILED);
                assert!(stored.finished_at.is_some());
            }
        }
        assert_eq!(
            run_once(&app.state, &registry, "w", &settings)
                .await
                .expect("run"),
            Outcome::Idle
        );

        // A kind nobody handles fails at once.
        let unknown = voicemark::models::jobs::insert(&mut pooled.db(), &job("test.unknown", 1))
            .await
            .expect("enqueue")
            .expect("new");
        run_once(&app.state, &registry, "w", &settings)
            .await
            .expect("run");
        let stored = jobs::find(&mut pooled.db(), &unknown)
            .await
            .expect("find")
            .expect("job");
        assert_eq!(stored.status, status::FAILED);
        assert_eq!(stored.attempts, 1);
    }
);

dual_test!(
    async fn a_job_left_running_by_a_dead_worker_is_claimed_again(app: TestApp) {
        let lease = Duration::from_secs(300);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let id = voicemark::models::jobs::insert(&mut conn, &job("test.stale", 1))
            .await
            .expect("enqueue")
            .expect("new");
        let first = jobs::claim(&mut conn, "dead-process/0", lease)
            .await
            .expect("claim")
            .expect("job");
        assert_eq!(first.id, id);
        // Within the lease nobody else may take it.
        assert!(jobs::claim(&mut conn, "alive/0", lease)
            .await
            .expect("claim")
            .is_none());
        // The process died six minutes ago.
        let long_ago = now() - chrono::Duration::minutes(6);
        with_conn!(&mut conn, |c| diesel::update(jobs_table::table.find(&id))
            .set(jobs_table::locked_at.eq(long_ago))
            .execute(c)
            .await)
        .expect("age the lock");
        let again = jobs::claim(&mut conn, "alive/0", lease)
            .await
            .expect("claim")
            .expect("reclaimed");
        assert_eq!(again.id, id);
        assert_eq!(again.attempts, 2);
        assert_eq!(again.locked_by.as_deref(), Some("alive/0"));
        // The dead worker's late completion does not count; the live one's does.
        assert!(!jobs::complete(&mut conn, &id, "dead-process/0")
            .await
            .expect("complete"));
        assert!(jobs::complete(&mut conn, &id, "alive/0")
            .await
            .expect("complete"));
        assert_eq!(
            jobs::find(&mut conn, &id)
                .await
                .expect("find")
                .expect("job")
                .status,
            status::DONE
        );

        // A job abandoned during its last attempt ends FAILED instead of running forever.
        let last = voicemark::models::jobs::insert(&mut conn, &job("test.stale", 2))
            .await
            .expect("enqueue")
            .expect("new");
        with_conn!(&mut conn, |c| diesel::update(jobs_table::table.find(&last))
            .set((
                jobs_table::status.eq(status::RUNNING),
                jobs_table::attempts.eq(5),
                jobs_table::locked_by.eq("dead-process/1"),
                jobs_table::locked_at.eq(long_ago),
            ))
            .execute(c)
            .await)
        .expect("abandon");
        assert!(jobs::claim(&mut conn, "alive/0", lease)
            .await
            .expect("claim")
            .is_none());
        assert_eq!(
            jobs::fail_abandoned(&mut conn, lease).await.expect("sweep"),
            1
        );
        assert_eq!(
            jobs::find(&mut conn, &last)
                .await
                .expect("find")
                .expect("job")
                .status,
            status::FAILED
        );
    }
);

dual_test!(
    async fn workers_run_jobs_and_stop_cleanly(app: TestApp) {
        fn ok(
            _: &voicemark::state::AppState,
            _: &Job,
        ) -> futures_util::future::BoxFuture<'static, Result<(), JobError>> {
            Box::pin(async { Ok(()) })
        }
        {
            let mut pooled = app.db.conn().await.expect("connection");
            let batch: Vec<NewJob> = (0..20).map(|n| job("test.ok", n)).collect();
            jobs::enqueue_many(&mut pooled.db(), &batch)
                .await
                .expect("enqueue");
        }
        let settings = WorkerSettings {
            workers: 2,
            poll_interval: Duration::from_millis(20),
            ..WorkerSettings::default()
        };
        let workers = jobs::Workers::start(
            app.state.clone(),
            Registry::empty().with("test.ok", ok),
            settings,
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let mut pooled = app.db.conn().await.expect("connection");
            let done: i64 = with_conn!(pooled.db(), |c| jobs_table::table
                .filter(jobs_table::status.eq(status::DONE))
                .count()
                .get_result(c)
                .await)
            .expect("count");
            if done == 20 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "only {done} of 20 done"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::timeout(Duration::from_secs(5), workers.shutdown())
            .await
            .expect("workers stop promptly");
    }
);

/// Checks that typed job `job` is stored under `kind` with exactly `payload` (the JSON the
/// untyped code wrote, so rows queued before the typed jobs still read) and reads back.
async fn assert_stored_as<J>(
    conn: &mut voicemark::db::DbConn<'_>,
    job: &J,
    kind: &str,
    payload: serde_json::Value,
) where
    J: jobs::BackgroundJob + PartialEq + std::fmt::Debug,
{
    let key = format!("round-trip:{kind}");
    let id = jobs::enqueue(conn, job, now(), Some(key.clone()))
        .await
        .expect("enqueue")
        .expect("new");
    // The key dedups typed jobs like any other.
    assert!(jobs::enqueue(conn, job, now(), Some(key))
        .await
        .expect("enqueue")
        .is_none());
    let stored = jobs::find(conn, &id).await.expect("find").expect("job");
    assert_eq!(stored.kind, kind);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&stored.payload).expect("json"),
        payload
    );
    let back: J = jobs::payload(&stored).expect("payload reads back");
    assert_eq!(&back, job);
    assert!(
        Registry::standard().get(kind).is_some(),
        "{kind} has no handler"
    );
}

dual_test!(
    async fn typed_jobs_round_trip_their_kind_and_payload(app: TestApp) {
        use voicemark::jobs::audience::Audience;
        use voicemark::jobs::email_digest::DigestEmail;
        use voicemark::jobs::email_feedback::FeedbackEmail;
        use voicemark::jobs::email_notification::NotificationEmail;
        use voicemark::jobs::feedback_send::SendFeedback;
        use voicemark::jobs::file_expiry::ExpireFiles;
        use voicemark::jobs::notification_send::SendNotification;

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let send = SendNotification {
            notification_id: "n1".into(),
        };
        assert_stored_as(
            &mut conn,
            &send,
            "notification.send",
            json!({ "notificationId": "n1" }),
        )
        .await;
        let email = NotificationEmail {
            notification_id: "n1".into(),
            student_id: "s1".into(),
            audience: Audience::Parent,
            to: "mum@home.test".into(),
        };
        assert_eq!(email.key(), "email:n1:s1:parent");
        assert_stored_as(
            &mut conn,
            &email,
            "email.notification",
            json!({ "notificationId": "n1", "studentId": "s1", "audience": "parent", "to": "mum@home.test" }),
        )
        .await;
        let period_end = chrono::NaiveDate::from_ymd_opt(2026, 11, 27)
            .and_then(|d| d.and_hms_opt(16, 0, 0))
            .expect("time");
        let digest = DigestEmail {
            email: "mum@home.test".into(),
            frequency: core_wasm::NotificationFrequency::Weekly,
            period_end,
        };
        assert_eq!(digest.key(), "digest:mum@home.test:2026-11-27T16:00");
        assert_stored_as(
            &mut conn,
            &digest,
            "email.digest",
            json!({ "email": "mum@home.test", "frequency": "WEEKLY", "periodEnd": "2026-11-27T16:00:00" }),
        )
        .await;
        let feedback = SendFeedback {
            submission_id: "sub1".into(),
        };
        assert_stored_as(
            &mut conn,
            &feedback,
            "feedback.email",
            json!({ "submissionId": "sub1" }),
        )
        .await;
        let feedback_email = FeedbackEmail {
            submission_id: "sub1".into(),
            audience: Audience::Pupil,
            to: "ada@pupils.test".into(),
        };
        assert_stored_as(
            &mut conn,
            &feedback_email,
            "email.feedback",
            json!({ "submissionId": "sub1", "audience": "pupil", "to": "ada@pupils.test" }),
        )
        .await;
        assert_stored_as(&mut conn, &ExpireFiles {}, "files.expire", json!({})).await;

        // A payload of the wrong shape fails for good, not with retries.
        let mut stored = jobs::find_by_key(&mut conn, "round-trip:email.notification")
            .await
            .expect("find")
            .expect("job");
        stored.payload = json!({ "notificationId": "n1", "audience": "teacher" }).to_string();
        let err = jobs::payload::<NotificationEmail>(&stored).expect_err("unreadable");
        assert!(err.is_permanent(), "{err}");
    }
);
