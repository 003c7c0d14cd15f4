//! Operating a process (docs/operations.md): `GET /metrics` names every family an operator
//! watches, on its own listen address only; `/api/ready` answers 503 while the process
//! starts and from SIGTERM on (while requests are still answered during the drain), 200
//! otherwise.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use serde_json::json;
use voicemark::http::ready::Phase;
use voicemark::mail::templates::Email;

use crate::dual_test;
use crate::submissions::{query, world};

const FAMILIES: &[(&str, &str)] = &[
    ("voicemark_http_requests_total", "counter"),
    ("voicemark_http_request_duration_seconds", "histogram"),
    ("voicemark_rpc_calls_total", "counter"),
    ("voicemark_rpc_duration_seconds", "histogram"),
    ("voicemark_job_queue_depth", "gauge"),
    ("voicemark_job_oldest_due_age_seconds", "gauge"),
    ("voicemark_job_failures_total", "counter"),
    ("voicemark_mail_send_duration_seconds", "histogram"),
    ("voicemark_mail_send_errors_total", "counter"),
    ("voicemark_provider_duration_seconds", "histogram"),
    ("voicemark_provider_errors_total", "counter"),
    ("voicemark_cache_hits_total", "counter"),
    ("voicemark_cache_misses_total", "counter"),
    ("voicemark_db_pool_wait_seconds", "histogram"),
];

dual_test!(
    async fn metrics_name_every_family_with_route_templates(app: TestApp) {
        let handle = voicemark::metrics::install().expect("the recorder installs");
        let w = world(&app).await;
        // HTTP routes and RPC procedures; the session cache misses, then hits.
        assert_eq!(app.get("/api/health").await.status.as_u16(), 200);
        for _ in 0..2 {
            let answer = query(&app, "system.features", json!({}), Some(&w.teacher.cookie)).await;
            assert_eq!(answer.status.as_u16(), 200);
        }
        // A job due an hour ago, waiting: the queue's depth and age show it.
        let mut pooled = app.db.conn().await.expect("conn");
        let due = voicemark::models::now() - chrono::Duration::hours(1);
        voicemark::jobs::enqueue(
            &mut pooled.db(),
            &voicemark::jobs::voice_note_transcribe::TranscribeVoiceNote { key: "k".into() },
            due,
            None,
        )
        .await
        .expect("enqueue");
        drop(pooled);
        // An e-mail (to the outbox) and a provider call that fails (nothing listens).
        app.state
            .mailer
            .send(
                "parent@example.test",
                Email { subject: "Hello".into(), text: "Hello".into(), html: "<p>Hello</p>".into() },
            )
            .await
            .expect("sent to the outbox");
        let refused = voicemark::metrics::send(
            "transcription",
            reqwest::Client::new().get("http://127.0.0.1:1/v1/audio/transcriptions"),
        )
        .await;
        assert!(refused.is_err());

        let text = voicemark::metrics::render(&app.state, &handle).await;
        for (family, kind) in FAMILIES {
            assert!(text.contains(&format!("# TYPE {family} {kind}")), "{family} missing:\n{text}");
        }
        assert!(text.contains(r#"route="/api/trpc/{*path}""#), "{text}");
        assert!(text.contains(r#"procedure="system.features",outcome="ok""#), "{text}");
        assert!(text.contains(r#"voicemark_cache_hits_total{cache="sessions"}"#), "{text}");
        assert!(text.contains(r#"voicemark_job_failures_total{kind="voice_note.transcribe"}"#), "{text}");
        assert!(
            text.contains(r#"voicemark_job_oldest_due_age_seconds{kind="voice_note.transcribe"}"#),
            "{text}"
        );
        // The gauges' source, read from this database (the tests share one recorder, so
        // another test's scrape may have set the gauges last).
        let mut pooled = app.db.conn().await.expect("conn");
        let queue = voicemark::models::jobs::queue_by_kind(&mut pooled.db(), voicemark::models::now())
            .await
            .expect("queue");
        let row = queue.iter().find(|r| r.kind == "voice_note.transcribe").expect("the kind");
        assert_eq!(row.queued, 1);
        let age = voicemark::models::now() - row.oldest_due.expect("due");
        assert!(age >= chrono::Duration::minutes(59), "{age:?}");
        assert!(!text.contains(&w.teacher.id), "no ids in labels");
    }
);

dual_test!(
    async fn readiness_answers_503_while_starting_and_draining(app: TestApp) {
        let ready = app.get("/api/ready").await;
        assert_eq!(ready.status.as_u16(), 200, "{}", ready.text());
        assert_eq!(ready.json()["status"], "ready");

        app.state.readiness.set(Phase::Starting);
        let ready = app.get("/api/ready").await;
        assert_eq!(ready.status.as_u16(), 503);
        assert_eq!(ready.json()["status"], "starting");
        let health = app.get("/api/health").await;
        assert_eq!(health.status.as_u16(), 503, "scripts that wait for health keep waiting");
        assert_eq!(health.json()["status"], "starting");
        // Any other request waits for the migrations, then is answered as usual.
        let router = app.router.clone();
        let waiting = tokio::spawn(crate::support::send(
            router,
            Request::get("/api/trpc/system.time").body(Body::empty()).expect("request"),
        ));
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "answered before the schema was there");
        app.state.readiness.set(Phase::Serving);
        let answered = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("answered once started")
            .expect("join");
        // The procedure itself answered (here: its input is missing), not the gate.
        assert_eq!(answered.status.as_u16(), 400, "{}", answered.text());
        assert!(answered.text().contains("system.time"), "{}", answered.text());

        app.state.readiness.set(Phase::Draining);
        let ready = app.get("/api/ready").await;
        assert_eq!(ready.status.as_u16(), 503);
        assert_eq!(ready.json()["status"], "draining");
        assert_eq!(app.get("/api/health").await.status.as_u16(), 200, "still serving while draining");
    }
);

dual_test!(
    async fn a_busy_pool_is_still_ready_and_a_database_that_does_not_answer_is_not(app: TestApp) {
        // Every pooled connection taken (the test app's pool has 4), as under load: the
        // readiness check has its own connection, so the process stays in the load balancer.
        let mut held = Vec::new();
        for _ in 0..4 {
            held.push(app.db.conn().await.expect("a pooled connection"));
        }
        let started = Instant::now();
        let ready = app.get("/api/ready").await;
        assert_eq!(ready.status.as_u16(), 200, "{}", ready.text());
        assert_eq!(ready.json()["status"], "ready");
        assert!(started.elapsed() < Duration::from_secs(1), "answered without waiting for the pool");
        drop(held);

        // A probe whose database cannot be reached says so, and answers again once it can.
        let gone = match app.backend() {
            voicemark::db::Backend::Postgres => "postgres://postgres@127.0.0.1:1/nowhere",
            voicemark::db::Backend::Sqlite => "sqlite:///nonexistent-folder/for/voicemark.db",
        };
        let probe = voicemark::db::probe::Probe::new(voicemark::db::DatabaseUrl::parse(gone).expect("a URL"));
        let refused = probe.ping(Duration::from_secs(1)).await;
        assert!(matches!(refused, Err(voicemark::db::probe::ProbeError::Failed(_))), "{refused:?}");
        let probe = voicemark::db::probe::Probe::new(app.url.clone());
        probe.ping(Duration::from_secs(1)).await.expect("the test database answers");
        probe.ping(Duration::from_secs(1)).await.expect("again, on the kept connection");
    }
);

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

dual_test!(
    async fn a_real_process_is_ready_serves_metrics_apart_and_drains_on_sigterm(app: TestApp) {
        let (url, dir, _guard) = crate::support::fresh_database(match app.backend() {
            voicemark::db::Backend::Sqlite => crate::support::TestBackend::Sqlite,
            voicemark::db::Backend::Postgres => crate::support::TestBackend::Postgres,
        })
        .await;
        let (port, metrics_port) = (free_port(), free_port());
        let base = format!("http://127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_voicemark"))
            .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
            .env("DATABASE_URL", url.as_str())
            .env("VOICEMARK_DATA_DIR", &dir)
            .env("VOICEMARK_METRICS_ADDR", format!("127.0.0.1:{metrics_port}"))
            .env("VOICEMARK_DRAIN_SECONDS", "3")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start voicemark serve");
        let client = reqwest::Client::new();
        let started = Instant::now();
        loop {
            let status = match client.get(format!("{base}/api/ready")).send().await {
                Ok(r) => r.status().as_u16(),
                Err(_) => 0,
            };
            if status == 200 {
                break;
            }
            assert!(matches!(status, 0 | 503), "readiness answered {status} while starting");
            assert!(started.elapsed() < Duration::from_secs(30), "never ready");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let scraped = client
            .get(format!("http://127.0.0.1:{metrics_port}/metrics"))
            .send()
            .await
            .expect("metrics answer");
        assert_eq!(scraped.status().as_u16(), 200);
        let text = scraped.text().await.expect("text");
        assert!(text.contains(r#"voicemark_http_requests_total{method="GET",route="/api/ready",status="200"}"#), "{text}");
        assert!(text.contains("# TYPE voicemark_job_queue_depth gauge"), "{text}");
        let public = client.get(format!("{base}/metrics")).send().await.expect("public answer");
        assert!(!public.text().await.expect("text").contains("# TYPE"), "metrics are never public");

        let stopping = Instant::now();
        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(killed.success());
        // Readiness flips at once; requests are still answered during the drain.
        let flipped = loop {
            let ready = client.get(format!("{base}/api/ready")).send().await.expect("answered while draining");
            if ready.status().as_u16() == 503 {
                break stopping.elapsed();
            }
            assert!(stopping.elapsed() < Duration::from_secs(2), "readiness never flipped");
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        let health = client.get(format!("{base}/api/health")).send().await.expect("alive while draining");
        assert_eq!(health.status().as_u16(), 200);
        let mut child = child;
        let exited = tokio::task::spawn_blocking(move || child.wait())
            .await
            .expect("join")
            .expect("wait");
        let stopped = stopping.elapsed();
        assert!(exited.success(), "exit {exited:?}");
        assert!(stopped >= Duration::from_secs(3), "stopped after {stopped:?}, before the drain ended");
        assert!(stopped < Duration::from_secs(20), "stopped after {stopped:?}");
        eprintln!(
            "{:?}: readiness 503 after {} ms; exit after {} ms (drain 3 s)",
            app.backend(),
            flipped.as_millis(),
            stopped.as_millis()
        );
    }
);
