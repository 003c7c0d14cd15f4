//! Uploads in parts on the local store (`upload.*`, `/api/upload-parts/...`): a 3-part round
//! trip, resuming after `upload.listParts`, the limits (a part over its length, a total past
//! 50 MB, a wrong type) refused with nothing left behind, abandoned uploads aborted by the
//! `files.expire` sweep, and someone else's upload NOT_FOUND.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{multipart_uploads, stored_files};
use voicemark::http::uploads::{INCOMPLETE, WRONG_TYPE};
use voicemark::models::now;
use voicemark::storage::multipart::PART_SIZE;
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{mutate, query, world, Answer};
use crate::support::{TestApp, TestResponse};

const TOO_LARGE: &str = core_wasm::limits::UPLOAD_TOO_LARGE_MESSAGE;
const MAX: u64 = core_wasm::limits::MAX_UPLOAD_BYTES;

/// The bytes of a test file: each byte its offset modulo 251, so misplaced parts show.
fn bytes(len: u64) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

async fn start(app: &TestApp, cookie: &str, kind: &str, content_type: &str, size: u64) -> Answer {
    mutate(
        app,
        "upload.start",
        json!({"kind": kind, "filename": "Week 3 talk.wav", "contentType": content_type, "size": size}),
        Some(cookie),
    )
    .await
}

async fn sign(app: &TestApp, cookie: &str, started: &Value, numbers: &[u32]) -> Answer {
    mutate(
        app,
        "upload.signParts",
        json!({"key": started["key"], "uploadId": started["uploadId"], "partNumbers": numbers}),
        Some(cookie),
    )
    .await
}

/// `PUT` one signed part with its headers (overridden by `overrides`) and `body`.
async fn put_part(
    app: &TestApp,
    part: &Value,
    overrides: &[(&str, &str)],
    body: Vec<u8>,
) -> TestResponse {
    let mut request = Request::put(part["url"].as_str().expect("url"));
    for (name, value) in part["headers"].as_object().expect("headers") {
        if overrides.iter().all(|(n, _)| n != name) {
            request = request.header(name.as_str(), value.as_str().expect("a value"));
        }
    }
    for (name, value) in overrides {
        request = request.header(*name, *value);
    }
    app.request(request.body(Body::from(body)).expect("request"))
        .await
}

/// Every regular file under the data folder's `files/` and `multipart/`.
fn stored(app: &TestApp) -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(&app.dir.join("files"), &mut out);
    walk(&app.dir.join("multipart"), &mut out);
    out.sort();
    out
}

async fn upload_rows(app: &TestApp) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| multipart_uploads::table
        .count()
        .get_result(c)
        .await)
    .expect("count")
}

dual_test!(
    async fn a_voice_note_goes_up_in_three_parts_and_resumes_from_the_parts_listed(app: TestApp) {
        let w = world(&app).await;
        let cookie = w.teacher.cookie.as_str();
        let size = 2 * PART_SIZE + 100;
        let body = bytes(size);
        let started = start(&app, cookie, "voiceNote", "audio/wav", size).await;
        let started = started.data().clone();
        assert_eq!(started["partSize"], PART_SIZE);
        assert_eq!(started["partCount"], 3);
        let key = started["key"].as_str().expect("key").to_owned();
        assert!(
            key.starts_with(&format!("{}/voice-notes/", w.school)),
            "{key}"
        );

        let signed = sign(&app, cookie, &started, &[1, 2, 3]).await;
        let parts = signed.data()["parts"].as_array().expect("parts").clone();
        assert_eq!(parts.len(), 3);
        assert!(parts[0]["url"]
            .as_str()
            .expect("url")
            .starts_with("/api/upload-parts/"));
        assert_eq!(parts[0]["headers"]["content-type"], "audio/wav");
        let cut = |n: u64| {
            let start = ((n - 1) * PART_SIZE) as usize;
            body[start..(start + PART_SIZE as usize).min(body.len())].to_vec()
        };
        // Parts 1 and 2 arrive; the connection is cut before part 3.
        let mut etags = Vec::new();
        for n in [1u64, 2] {
            let sent = put_part(&app, &parts[n as usize - 1], &[], cut(n)).await;
            assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
            let etag = sent.header("etag").expect("an ETag header").to_owned();
            assert!(etag.starts_with('"'), "{etag}");
            etags.push(etag);
        }
        // Completing now is refused: part 3 is missing (and the parts stay).
        let early = mutate(
            &app,
            "upload.complete",
            json!({"key": key, "uploadId": started["uploadId"],
                   "parts": [{"partNumber": 1, "etag": etags[0]}, {"partNumber": 2, "etag": etags[1]}]}),
            Some(cookie),
        )
        .await;
        assert_eq!(early.code(), "BAD_REQUEST");
        assert_eq!(early.message(), INCOMPLETE);

        // A new page resumes: the server says which parts it has; only part 3 is sent.
        let listed = query(
            &app,
            "upload.listParts",
            json!({"key": key, "uploadId": started["uploadId"]}),
            Some(cookie),
        )
        .await;
        let held = listed.data()["parts"].as_array().expect("parts").clone();
        assert_eq!(held.len(), 2);
        assert_eq!(held[0]["partNumber"], 1);
        assert_eq!(held[0]["etag"], etags[0].as_str());
        assert_eq!(held[1]["size"], PART_SIZE);
        let again = sign(&app, cookie, &started, &[3]).await;
        let last = again.data()["parts"][0].clone();
        let sent = put_part(&app, &last, &[], cut(3)).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
        let third = sent.header("etag").expect("etag").to_owned();

        let done = mutate(
            &app,
            "upload.complete",
            json!({"key": key, "uploadId": started["uploadId"], "parts": [
                {"partNumber": 1, "etag": held[0]["etag"]},
                {"partNumber": 2, "etag": held[1]["etag"]},
                {"partNumber": 3, "etag": third},
            ]}),
            Some(cookie),
        )
        .await;
        assert_eq!(done.data()["size"], size);
        let on_disk = std::fs::read(app.dir.join("files").join(&key)).expect("the file");
        assert!(on_disk == body, "the parts were joined in order");
        // Only the file is left: no part, no partial file, no upload row.
        assert_eq!(stored(&app).len(), 1, "{:?}", stored(&app));
        assert_eq!(upload_rows(&app).await, 0);

        // The existing flow files it.
        let moved = mutate(
            &app,
            "leader.transferVoiceNoteToPersonalFolder",
            json!({"key": key}),
            Some(cookie),
        )
        .await;
        assert!(moved.data()["id"].is_string());
        let notes = query(&app, "voiceNote.list", Value::Null, Some(cookie)).await;
        assert_eq!(notes.data()["notes"][0]["size"], size);
        // A finished upload takes no more parts.
        let late = put_part(&app, &parts[0], &[], cut(1)).await;
        assert_eq!(late.status, StatusCode::FORBIDDEN);
    }
);

dual_test!(
    async fn parts_over_their_length_totals_past_50_mb_and_wrong_types_are_refused(app: TestApp) {
        let w = world(&app).await;
        let cookie = w.teacher.cookie.as_str();

        // Declared past 50 MB, or of a type a voice note cannot be: refused, nothing recorded.
        let big = start(&app, cookie, "voiceNote", "audio/wav", MAX + 1).await;
        assert_eq!(big.code(), "BAD_REQUEST");
        assert_eq!(big.field_error("size"), TOO_LARGE);
        let html = start(&app, cookie, "voiceNote", "text/html", 10).await;
        assert_eq!(html.code(), "BAD_REQUEST");
        assert_eq!(
            html.field_error("contentType"),
            "A voice note must be a recording (MP4, WebM, Ogg, WAV, MP3 or AAC audio)."
        );
        let mut pooled = app.db.conn().await.expect("connection");
        let rows: i64 = with_conn!(pooled.db(), |c| stored_files::table
            .count()
            .get_result(c)
            .await)
        .expect("count");
        drop(pooled);
        assert_eq!(rows, 0);
        assert_eq!(upload_rows(&app).await, 0);

        let size = PART_SIZE + 10;
        let started = start(&app, cookie, "file", "audio/wav", size).await;
        let started = started.data().clone();
        // A part past the declared size (the total would pass it): no URL.
        let past = sign(&app, cookie, &started, &[3]).await;
        assert_eq!(past.code(), "BAD_REQUEST");
        assert_eq!(past.message(), TOO_LARGE);
        let parts = sign(&app, cookie, &started, &[1, 2]).await.data()["parts"]
            .as_array()
            .expect("parts")
            .clone();
        // The last part is 10 bytes: 11 are refused, by content-length or while streaming.
        let over = put_part(&app, &parts[1], &[], bytes(11)).await;
        assert_eq!(over.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(over.json()["error"], TOO_LARGE);
        let streamed = app
            .request(
                Request::put(parts[1]["url"].as_str().expect("url"))
                    .header("content-type", "audio/wav")
                    .body(Body::from_stream(futures_util::stream::iter(vec![
                        Ok::<_, std::io::Error>(bytes(6)),
                        Ok(bytes(6)),
                    ])))
                    .expect("request"),
            )
            .await;
        assert_eq!(streamed.status, StatusCode::PAYLOAD_TOO_LARGE);
        // Fewer bytes than the part's length: it did not arrive whole.
        let short = put_part(&app, &parts[1], &[], bytes(9)).await;
        assert_eq!(short.status, StatusCode::BAD_REQUEST);
        assert_eq!(short.json()["error"], INCOMPLETE);
        // Another type than the one declared.
        let odd = put_part(&app, &parts[1], &[("content-type", "text/html")], bytes(10)).await;
        assert_eq!(odd.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(odd.json()["error"], WRONG_TYPE);
        // A changed signature or another part's URL for this part.
        let forged = parts[1]["url"]
            .as_str()
            .expect("url")
            .replace("sig=", "sig=0");
        let forged = json!({"url": forged, "headers": parts[1]["headers"]});
        assert_eq!(
            put_part(&app, &forged, &[], bytes(10)).await.status,
            StatusCode::FORBIDDEN
        );
        // Nothing of any of them was kept.
        assert!(stored(&app).is_empty(), "{:?}", stored(&app));
        let listed = query(
            &app,
            "upload.listParts",
            json!({"key": started["key"], "uploadId": started["uploadId"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(listed.data()["parts"], json!([]));

        // Aborting drops the parts that did arrive.
        let sent = put_part(&app, &parts[0], &[], bytes(PART_SIZE)).await;
        assert_eq!(sent.status, StatusCode::OK);
        assert_eq!(stored(&app).len(), 2, "the part and its ETag");
        let aborted = mutate(
            &app,
            "upload.abort",
            json!({"key": started["key"], "uploadId": started["uploadId"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(aborted.data()["key"], started["key"]);
        assert!(stored(&app).is_empty(), "{:?}", stored(&app));
        assert_eq!(upload_rows(&app).await, 0);
    }
);

dual_test!(
    async fn someone_elses_upload_is_not_found(app: TestApp) {
        let w = world(&app).await;
        let started = start(&app, &w.teacher.cookie, "voiceNote", "audio/wav", 10).await;
        let started = started.data().clone();
        let target = json!({"key": started["key"], "uploadId": started["uploadId"]});
        for cookie in [&w.colleague.cookie, &w.stranger.cookie] {
            let signed = sign(&app, cookie, &started, &[1]).await;
            assert_eq!(signed.code(), "NOT_FOUND");
            let listed = query(&app, "upload.listParts", target.clone(), Some(cookie)).await;
            assert_eq!(listed.code(), "NOT_FOUND");
            let mut complete = target.clone();
            complete["parts"] = json!([]);
            let done = mutate(&app, "upload.complete", complete, Some(cookie)).await;
            assert_eq!(done.code(), "NOT_FOUND");
            let aborted = mutate(&app, "upload.abort", target.clone(), Some(cookie)).await;
            assert_eq!(aborted.code(), "NOT_FOUND");
        }
        // Still the owner's.
        let listed = query(&app, "upload.listParts", target, Some(&w.teacher.cookie)).await;
        assert_eq!(listed.data()["parts"], json!([]));
    }
);

dual_test!(
    async fn uploads_abandoned_for_a_day_are_aborted_by_the_sweep(app: TestApp) {
        let w = world(&app).await;
        let cookie = w.teacher.cookie.as_str();
        let old = start(&app, cookie, "voiceNote", "audio/wav", PART_SIZE + 1).await;
        let old = old.data().clone();
        let fresh = start(&app, cookie, "voiceNote", "audio/wav", PART_SIZE + 1).await;
        let fresh = fresh.data().clone();
        for started in [&old, &fresh] {
            let part = sign(&app, cookie, started, &[1]).await.data()["parts"][0].clone();
            let sent = put_part(&app, &part, &[], bytes(PART_SIZE)).await;
            assert_eq!(sent.status, StatusCode::OK);
        }
        assert_eq!(stored(&app).len(), 4);
        let mut pooled = app.db.conn().await.expect("connection");
        let old_key = old["key"].as_str().expect("key").to_owned();
        with_conn!(pooled.db(), |c| diesel::update(
            stored_files::table.filter(stored_files::key.eq(&old_key))
        )
        .set(stored_files::created_at.eq(now() - Duration::hours(25)))
        .execute(c)
        .await)
        .expect("update");
        drop(pooled);

        let swept = voicemark::jobs::file_expiry::sweep(&app.state, now())
            .await
            .expect("sweep");
        assert_eq!(swept.aborted, 1);
        assert_eq!(swept.deleted, 1);
        // The old upload's parts, upload row and file row are gone; the fresh one's stay.
        assert_eq!(stored(&app).len(), 2, "{:?}", stored(&app));
        assert_eq!(upload_rows(&app).await, 1);
        let gone = query(
            &app,
            "upload.listParts",
            json!({"key": old["key"], "uploadId": old["uploadId"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(gone.code(), "NOT_FOUND");
        let kept = query(
            &app,
            "upload.listParts",
            json!({"key": fresh["key"], "uploadId": fresh["uploadId"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(kept.data()["parts"].as_array().expect("parts").len(), 1);
    }
);
