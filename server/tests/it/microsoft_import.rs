//! `taskContent.importMicrosoft` and its job against a stub identity platform
//! (microsoft_signin.rs) and a stub Graph (msgraph.rs): a connected teacher brings a
//! OneDrive file and a Teams recording into a task; the bytes stream from Graph (through
//! its 302, without the token) into the store, the recording takes Teams' own transcript
//! and is READY, the file goes on to the usual processing. Not connected: a clear refusal.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::json;
use voicemark::db::schema::{stored_files, task_items};
use voicemark::storage::FileStore;

use crate::dual_test;
use crate::support::{peak_mb, reset_peak};
use crate::microsoft_signin::{connect_as, microsoft_stub, with_microsoft_and_graph, Browser};
use crate::msgraph::{download_bytes, graph_stub};
use crate::submissions::{mutate, query, world};

dual_test!(
    async fn a_teams_recording_and_a_onedrive_file_are_imported_into_a_task(app: TestApp) {
        let identity = microsoft_stub().await;
        let (graph_url, graph) = graph_stub().await;
        let app = with_microsoft_and_graph(app, &identity, &graph_url);
        let w = world(&app).await;
        let task = crate::task_content::task(&app, &w.school, &w.teacher.id).await;
        let import = json!({
            "taskId": task,
            "files": [{"driveId": "b!drive1", "itemId": "01C", "name": "Lesson 3.mp4", "mimeType": "video/mp4"}],
            "recordings": [{"meetingId": "MSo1MEET", "recordingId": "REC1", "transcriptId": "TR1",
                            "name": "Teams recording 20-11-2026 0900"}],
        });

        // Not connected yet: said plainly, nothing made.
        let refused = mutate(&app, "taskContent.importMicrosoft", import.clone(), Some(&w.teacher.cookie)).await;
        assert_eq!(refused.code(), "PRECONDITION_FAILED");
        assert_eq!(refused.message(), "Connect your Microsoft account first.");

        let mut browser = Browser::new(&app);
        browser.sign_in_with(&w.teacher.cookie);
        let back = connect_as(&mut browser, &identity, "teacher@school.test", "oid-teacher").await;
        assert!(back.header("location").is_some_and(|l| l.ends_with("microsoft=connected")), "{:?}", back.header("location"));

        let answer = mutate(&app, "taskContent.importMicrosoft", import, Some(&w.teacher.cookie)).await;
        let ids = answer.data()["itemIds"].as_array().expect("ids").clone();
        assert_eq!(ids.len(), 2);
        let listed = query(&app, "leader.listTaskFiles", json!({"taskId": task}), Some(&w.teacher.cookie)).await;
        let items = listed.data().as_array().expect("items").clone();
        assert!(items.iter().all(|i| i["status"] == "QUEUED"), "{items:#?}");

        crate::sending::drain(&app.state).await;
        let listed = query(&app, "leader.listTaskFiles", json!({"taskId": task}), Some(&w.teacher.cookie)).await;
        let items = listed.data().as_array().expect("items").clone();
        let recording = items.iter().find(|i| i["id"] == ids[1]).expect("recording");
        assert_eq!(recording["kind"], "RECORDING");
        assert_eq!(recording["status"], "READY", "{recording:#}");
        assert_eq!(recording["text"], "Mary Somerville: Good morning, everyone.");
        let file = items.iter().find(|i| i["id"] == ids[0]).expect("file");
        // The file arrived and went on to transcription, which this server has no key for.
        assert_eq!(file["status"], "FAILED", "{file:#}");
        assert_eq!(file["error"], "Transcription is not switched on for your school yet. Ask your administrator.");

        // The bytes in the store are Graph's, and the download host never saw the token.
        let mut pooled = app.db.conn().await.expect("conn");
        let keys: Vec<String> = voicemark::with_conn!(pooled.db(), |c| stored_files::table
            .inner_join(task_items::table.on(task_items::file_id.eq(stored_files::id.nullable())))
            .filter(task_items::submission_id.eq(&task))
            .select(stored_files::key)
            .load(c)
            .await)
        .expect("files");
        drop(pooled);
        assert_eq!(keys.len(), 2);
        for key in &keys {
            let bytes = app.state.storage.get(key).await.expect("stored");
            assert_eq!(bytes, download_bytes(), "{key}");
        }
        assert_eq!(graph.auth_of("/download.aspx"), Some(None));
    }
);

dual_test!(
    async fn the_picker_offers_the_libraries_of_followed_sharepoint_sites(app: TestApp) {
        let identity = microsoft_stub().await;
        let (graph_url, _graph) = graph_stub().await;
        let app = with_microsoft_and_graph(app, &identity, &graph_url);
        let w = world(&app).await;

        let refused = query(&app, "microsoft.libraries", json!(null), Some(&w.teacher.cookie)).await;
        assert_eq!(refused.code(), "PRECONDITION_FAILED", "not connected yet");

        let mut browser = Browser::new(&app);
        browser.sign_in_with(&w.teacher.cookie);
        connect_as(&mut browser, &identity, "teacher@school.test", "oid-teacher").await;
        let answer = query(&app, "microsoft.libraries", json!(null), Some(&w.teacher.cookie)).await;
        assert_eq!(
            answer.data(),
            &json!([
                {"driveId": "b!science-docs", "name": "Science department › Documents"},
                {"driveId": "b!science-media", "name": "Science department › Lesson media"},
                {"driveId": "b!team-docs", "name": "Year 7 Team › Documents"}
            ])
        );
    }
);

// ---------------------------------------------------------------------------------------
// Figure (ignored: run by name, prints figures): the peak memory of importing a large Teams
// recording through the job, from a stub Graph that streams generated bytes.

use axum::body::{Body, Bytes};
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// How the stub streams a recording: this many bytes a chunk.
const CHUNK: usize = 64 * 1024;

/// A stub Graph for the figure: `…/recordings/REC-{bytes}/content` 302s to a
/// pre-authenticated URL that streams `{bytes}` generated bytes (never held whole), and
/// every transcript is a one-cue VTT.
async fn streaming_graph() -> String {
    async fn recording(Path((_meeting, id)): Path<(String, String)>) -> Response {
        let bytes = id.strip_prefix("REC-").unwrap_or("0");
        (StatusCode::FOUND, [(header::LOCATION, format!("/download.aspx/{bytes}"))]).into_response()
    }
    async fn download(Path(bytes): Path<u64>) -> Response {
        let chunk = Bytes::from(vec![0x5a_u8; CHUNK]);
        let chunks = bytes / CHUNK as u64;
        let tail = (bytes % CHUNK as u64) as usize;
        let body = futures_util::stream::iter(
            (0..chunks)
                .map(move |_| chunk.clone())
                .chain((tail > 0).then(|| Bytes::from(vec![0x5a_u8; tail])))
                .map(Ok::<_, std::io::Error>),
        );
        (
            [(header::CONTENT_TYPE, "video/mp4".to_owned()), (header::CONTENT_LENGTH, bytes.to_string())],
            Body::from_stream(body),
        )
            .into_response()
    }
    async fn transcript() -> Response {
        (
            [(header::CONTENT_TYPE, "text/vtt")],
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Mary Somerville>Good morning, everyone.</v>\n",
        )
            .into_response()
    }
    let routes = Router::new()
        .route("/v1.0/me/onlineMeetings/{meeting}/recordings/{id}/content", get(recording))
        .route("/v1.0/me/onlineMeetings/{meeting}/transcripts/{id}/content", get(transcript))
        .route("/download.aspx/{bytes}", get(download));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    format!("http://{addr}/v1.0")
}

async fn import_figures(backend: crate::support::TestBackend) {
    let app = crate::support::TestApp::new(backend).await;
    let identity = microsoft_stub().await;
    let graph_url = streaming_graph().await;
    let app = with_microsoft_and_graph(app, &identity, &graph_url);
    let w = world(&app).await;
    let task = crate::task_content::task(&app, &w.school, &w.teacher.id).await;
    let mut browser = Browser::new(&app);
    browser.sign_in_with(&w.teacher.cookie);
    connect_as(&mut browser, &identity, "teacher@school.test", "oid-teacher").await;
    // Warm up (connections, pools, the job path) with a small import.
    let mut lines = Vec::new();
    for mb in [1_u64, 20, 200, 20] {
        let bytes = mb * 1024 * 1024;
        let reset = reset_peak();
        let before = peak_mb();
        let started = std::time::Instant::now();
        let answer = mutate(
            &app,
            "taskContent.importMicrosoft",
            json!({"taskId": task, "files": [], "recordings": [{
                "meetingId": format!("MSo1SIZE{mb}"), "recordingId": format!("REC-{bytes}"),
                "transcriptId": "TR1", "name": format!("Lesson {mb} MB {}", started.elapsed().as_nanos())}]}),
            Some(&w.teacher.cookie),
        )
        .await;
        let id = answer.data()["itemIds"][0].as_str().expect("id").to_owned();
        crate::sending::drain(&app.state).await;
        let took = started.elapsed();
        let after = peak_mb();
        let mut pooled = app.db.conn().await.expect("conn");
        let (status, size): (String, Option<i64>) = voicemark::with_conn!(pooled.db(), |c| task_items::table
            .inner_join(stored_files::table.on(task_items::file_id.eq(stored_files::id.nullable())))
            .filter(task_items::id.eq(&id))
            .select((task_items::status, stored_files::size_bytes))
            .first(c)
            .await)
        .expect("item");
        drop(pooled);
        assert_eq!((status.as_str(), size), ("READY", Some(bytes as i64)));
        if mb == 1 {
            continue;
        }
        lines.push(format!(
            "{mb:>3} MB recording: {:.1} s, peak RSS {before:.0} MB before -> {after:.0} MB after (+{:.0} MB){}",
            took.as_secs_f64(),
            after - before,
            if reset { "" } else { " [VmHWM could not be reset: peaks are of the whole run]" }
        ));
    }
    for line in lines {
        println!("FIGURES {backend:?}: {line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: run by name"]
async fn microsoft_import_memory_figures_sqlite() {
    import_figures(crate::support::TestBackend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: run by name"]
async fn microsoft_import_memory_figures_postgres() {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    import_figures(crate::support::TestBackend::Postgres).await;
}
