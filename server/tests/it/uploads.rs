//! Direct uploads through signed URLs on the local store (`/api/uploads/{key}`), voice
//! notes (`leader.uploadVoiceNote`, `leader.transferVoiceNoteToPersonalFolder`,
//! `voiceNote.*`), `user.uploadFile` / `user.listFiles`, and the `files.expire` sweep.

use axum::body::{Body, Bytes};
use axum::http::{Request, StatusCode};
use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::stored_files;
use voicemark::http::uploads::{EXPIRED_LINK, INCOMPLETE, INVALID_LINK, WRONG_TYPE};
use voicemark::models::now;
use voicemark::storage::content_disposition;
use voicemark::storage::signed_url::{LocalSigner, PutTerms};
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{mutate, query, world, Answer};
use crate::support::{TestApp, TestResponse};

const TOO_LARGE: &str = core_wasm::limits::UPLOAD_TOO_LARGE_MESSAGE;
const MAX: u64 = core_wasm::limits::MAX_UPLOAD_BYTES;

/// `PUT url` with the signed headers (overridden by `overrides`) and `body`.
async fn put(
    app: &TestApp,
    ticket: &Value,
    overrides: &[(&str, &str)],
    body: Body,
) -> TestResponse {
    let mut request = Request::put(ticket["url"].as_str().expect("url"));
    for (name, value) in ticket["headers"].as_object().expect("headers") {
        if overrides.iter().all(|(n, _)| n != name) {
            request = request.header(name.as_str(), value.as_str().expect("a header value"));
        }
    }
    for (name, value) in overrides {
        request = request.header(*name, *value);
    }
    app.request(request.body(body).expect("request")).await
}

async fn voice_note(app: &TestApp, cookie: &str, filename: &str, size: u64) -> Answer {
    mutate(
        app,
        "leader.uploadVoiceNote",
        json!({"filename": filename, "contentType": "audio/webm;codecs=opus", "size": size}),
        Some(cookie),
    )
    .await
}

/// Every regular file under the store's folder (partial files included).
fn files_on_disk(app: &TestApp) -> Vec<String> {
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
    out.sort();
    out
}

fn on_disk(app: &TestApp, key: &str) -> bool {
    app.dir.join("files").join(key).is_file()
}

async fn row_count(app: &TestApp) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| stored_files::table
        .count()
        .get_result(c)
        .await)
    .expect("count")
}

dual_test!(
    async fn a_voice_note_goes_up_by_its_signed_url_into_the_personal_folder(app: TestApp) {
        let w = world(&app).await;
        let answer = voice_note(&app, &w.teacher.cookie, "Week 3 – feedback.webm", 11).await;
        let ticket = answer.data().clone();
        let key = ticket["key"].as_str().expect("key").to_owned();
        assert!(
            key.starts_with(&format!("{}/voice-notes/", w.school)),
            "{key}"
        );
        assert!(key.ends_with("/Week_3___feedback.webm"), "{key}");
        let url = ticket["url"].as_str().expect("url");
        assert!(
            url.starts_with(&format!("/api/uploads/{key}?expires=")),
            "{url}"
        );
        assert_eq!(ticket["headers"]["content-type"], "audio/webm;codecs=opus");
        assert_eq!(
            ticket["headers"]["content-disposition"],
            content_disposition("Week 3 – feedback.webm")
        );
        // expiresAt is a Date for superjson, 15 minutes away.
        assert_eq!(
            answer.body["result"]["data"]["meta"]["values"]["expiresAt"],
            json!(["Date"])
        );
        let expires: chrono::DateTime<Utc> = ticket["expiresAt"]
            .as_str()
            .expect("date")
            .parse()
            .expect("ISO");
        let left = (expires - Utc::now()).num_seconds();
        assert!((880..=900).contains(&left), "{left}");

        // Not there yet.
        let early = mutate(
            &app,
            "leader.transferVoiceNoteToPersonalFolder",
            json!({"key": key}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(early.code(), "BAD_REQUEST");
        assert_eq!(early.message(), "The upload has not arrived yet.");

        let sent = put(&app, &ticket, &[], Body::from("hello voice")).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
        assert!(on_disk(&app, &key));
        let again = put(&app, &ticket, &[], Body::from("hello voice")).await;
        assert_eq!(again.status, StatusCode::CONFLICT);

        // Only the uploader may file it.
        for cookie in [&w.colleague.cookie, &w.stranger.cookie] {
            let other = mutate(
                &app,
                "leader.transferVoiceNoteToPersonalFolder",
                json!({"key": key}),
                Some(cookie),
            )
            .await;
            assert_eq!(other.code(), "NOT_FOUND");
        }
        let moved = mutate(
            &app,
            "leader.transferVoiceNoteToPersonalFolder",
            json!({"key": key}),
            Some(&w.teacher.cookie),
        )
        .await;
        let id = moved.data()["id"].as_str().expect("id").to_owned();

        let listed = query(&app, "voiceNote.list", Value::Null, Some(&w.teacher.cookie)).await;
        let notes = listed.data()["notes"].as_array().expect("notes").clone();
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0]["id"], id.as_str());
        assert_eq!(notes[0]["filename"], "Week 3 – feedback.webm");
        assert_eq!(notes[0]["contentType"], "audio/webm;codecs=opus");
        assert_eq!(notes[0]["size"], 11);
        assert_eq!(
            listed.body["result"]["data"]["meta"]["values"]["notes.0.createdAt"],
            json!(["Date"])
        );
        let playback = app.get(notes[0]["url"].as_str().expect("url")).await;
        assert_eq!(playback.status, StatusCode::OK);
        assert_eq!(playback.text(), "hello voice");
        assert_eq!(
            playback.header("content-type"),
            Some("audio/webm;codecs=opus")
        );
        assert_eq!(
            playback.header("content-disposition"),
            Some(content_disposition("Week 3 – feedback.webm").as_str())
        );
        // Players (Safari) ask for ranges.
        assert_eq!(playback.header("accept-ranges"), Some("bytes"));
        let part = app
            .request(
                Request::get(notes[0]["url"].as_str().expect("url"))
                    .header("range", "bytes=6-")
                    .body(Body::empty())
                    .expect("request"),
            )
            .await;
        assert_eq!(part.status, StatusCode::PARTIAL_CONTENT);
        assert_eq!(part.text(), "voice");
        assert_eq!(part.header("content-range"), Some("bytes 6-10/11"));
        // A download link with its signature changed serves nothing.
        let forged = notes[0]["url"]
            .as_str()
            .expect("present")
            .replace("sig=", "sig=0");
        assert_eq!(app.get(&forged).await.status, StatusCode::FORBIDDEN);

        // Other people see nothing and can change nothing.
        for cookie in [&w.colleague.cookie, &w.stranger.cookie] {
            let theirs = query(&app, "voiceNote.list", Value::Null, Some(cookie)).await;
            assert_eq!(theirs.data()["notes"], json!([]));
            let rename = mutate(
                &app,
                "voiceNote.rename",
                json!({"id": id, "filename": "Mine now"}),
                Some(cookie),
            )
            .await;
            assert_eq!(rename.code(), "NOT_FOUND");
            let delete = mutate(&app, "voiceNote.delete", json!({"id": id}), Some(cookie)).await;
            assert_eq!(delete.code(), "NOT_FOUND");
        }
        assert!(on_disk(&app, &key));

        let blank = mutate(
            &app,
            "voiceNote.rename",
            json!({"id": id, "filename": "   "}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(blank.code(), "BAD_REQUEST");
        assert_eq!(blank.field_error("filename"), "Filename is required");
        let renamed = mutate(
            &app,
            "voiceNote.rename",
            json!({"id": id, "filename": " Parents evening "}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(
            renamed.data(),
            &json!({"id": id, "filename": "Parents evening"})
        );
        let listed = query(&app, "voiceNote.list", Value::Null, Some(&w.teacher.cookie)).await;
        assert_eq!(listed.data()["notes"][0]["filename"], "Parents evening");

        let deleted = mutate(
            &app,
            "voiceNote.delete",
            json!({"id": id}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(deleted.data(), &json!({"id": id}));
        assert!(!on_disk(&app, &key));
        assert_eq!(row_count(&app).await, 0);
        let listed = query(&app, "voiceNote.list", Value::Null, Some(&w.teacher.cookie)).await;
        assert_eq!(listed.data()["notes"], json!([]));
        let twice = mutate(
            &app,
            "voiceNote.delete",
            json!({"id": id}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(twice.code(), "NOT_FOUND");
    }
);

dual_test!(
    async fn declared_files_are_checked_before_a_url_is_signed(app: TestApp) {
        let w = world(&app).await;
        let cookie = Some(w.teacher.cookie.as_str());
        let blank = voice_note(&app, &w.teacher.cookie, "  ", 10).await;
        assert_eq!(blank.code(), "BAD_REQUEST");
        assert_eq!(blank.field_error("filename"), "Filename is required");
        let video = mutate(
            &app,
            "leader.uploadVoiceNote",
            json!({"filename": "a.mp4", "contentType": "video/mp4", "size": 10}),
            cookie,
        )
        .await;
        assert_eq!(video.code(), "BAD_REQUEST");
        assert!(!video.field_error("contentType").is_empty());
        let huge = voice_note(&app, &w.teacher.cookie, "long.webm", MAX + 1).await;
        assert_eq!(huge.field_error("size"), TOO_LARGE);
        let empty = voice_note(&app, &w.teacher.cookie, "empty.webm", 0).await;
        assert_eq!(empty.field_error("size"), "The file is empty.");
        let html = mutate(
            &app,
            "user.uploadFile",
            json!({"filename": "page.html", "contentType": "text/html", "size": 10}),
            cookie,
        )
        .await;
        assert_eq!(html.code(), "BAD_REQUEST");
        let task = mutate(
            &app,
            "leader.uploadVoiceNote",
            json!({"filename": "a.webm", "contentType": "audio/webm", "size": 10, "taskId": "nope"}),
            cookie,
        )
        .await;
        assert_eq!(task.code(), "NOT_FOUND");
        let signed_out = voice_note(&app, "", "a.webm", 10).await;
        assert_eq!(signed_out.code(), "UNAUTHORIZED");
        // Nothing was recorded by any refusal.
        assert_eq!(row_count(&app).await, 0);
        // The largest allowed size is accepted.
        voice_note(&app, &w.teacher.cookie, "max.webm", MAX)
            .await
            .data();
    }
);

dual_test!(
    async fn signed_urls_refuse_expired_forged_and_mismatched_uploads(app: TestApp) {
        let w = world(&app).await;
        let ticket = voice_note(&app, &w.teacher.cookie, "note.webm", 10)
            .await
            .data()
            .clone();
        let key = ticket["key"].as_str().expect("present").to_owned();
        let url = ticket["url"].as_str().expect("present").to_owned();
        let refused = |response: &TestResponse, status: StatusCode, message: &str| {
            assert_eq!(response.status, status, "{}", response.text());
            assert_eq!(response.json()["error"], message);
        };

        // A changed signature, a changed expiry, no signature at all.
        let mut forged = ticket.clone();
        let last = url.chars().last().expect("present");
        let flipped = if last == '0' { '1' } else { '0' };
        forged["url"] = json!(format!("{}{flipped}", &url[..url.len() - 1]));
        refused(
            &put(&app, &forged, &[], Body::from("0123456789")).await,
            StatusCode::FORBIDDEN,
            INVALID_LINK,
        );
        let (path, query) = url.split_once('?').expect("present");
        let expires: i64 = query
            .split('&')
            .find_map(|p| p.strip_prefix("expires="))
            .expect("present")
            .parse()
            .expect("present");
        forged["url"] = json!(url.replace(
            &format!("expires={expires}"),
            &format!("expires={}", expires + 3600)
        ));
        refused(
            &put(&app, &forged, &[], Body::from("0123456789")).await,
            StatusCode::FORBIDDEN,
            INVALID_LINK,
        );
        forged["url"] = json!(path);
        refused(
            &put(&app, &forged, &[], Body::from("0123456789")).await,
            StatusCode::FORBIDDEN,
            INVALID_LINK,
        );

        // A correctly signed link whose time is up.
        let signer = app.state.storage.local_signer().expect("local store");
        let past = Utc::now().timestamp() - 1;
        let sig = signer.put_signature(&PutTerms {
            key: &key,
            expires: past,
            content_type: "audio/webm;codecs=opus",
            content_disposition: &content_disposition("note.webm"),
            size: Some(10),
        });
        forged["url"] = json!(LocalSigner::url(&key, past, &sig));
        refused(
            &put(&app, &forged, &[], Body::from("0123456789")).await,
            StatusCode::FORBIDDEN,
            EXPIRED_LINK,
        );

        // The declared type, the declared disposition, the declared size.
        refused(
            &put(
                &app,
                &ticket,
                &[("content-type", "text/html")],
                Body::from("0123456789"),
            )
            .await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            WRONG_TYPE,
        );
        refused(
            &put(
                &app,
                &ticket,
                &[("content-disposition", "inline")],
                Body::from("0123456789"),
            )
            .await,
            StatusCode::FORBIDDEN,
            INVALID_LINK,
        );
        refused(
            &put(&app, &ticket, &[], Body::from("0123456789AB")).await,
            StatusCode::PAYLOAD_TOO_LARGE,
            TOO_LARGE,
        );
        // More bytes than declared while streaming (no content-length to go by).
        let chunks = futures_util::stream::iter(
            ["01234", "56789", "AB"].map(|s| Ok::<_, std::io::Error>(Bytes::from(s))),
        );
        refused(
            &put(&app, &ticket, &[], Body::from_stream(chunks)).await,
            StatusCode::PAYLOAD_TOO_LARGE,
            TOO_LARGE,
        );
        refused(
            &put(&app, &ticket, &[], Body::from("01234")).await,
            StatusCode::BAD_REQUEST,
            INCOMPLETE,
        );
        assert_eq!(files_on_disk(&app), Vec::<String>::new());

        // The transfer still finds nothing, and the honest upload still works.
        let early = mutate(
            &app,
            "leader.transferVoiceNoteToPersonalFolder",
            json!({"key": key}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(early.message(), "The upload has not arrived yet.");
        let sent = put(&app, &ticket, &[], Body::from("0123456789")).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
        assert_eq!(
            std::fs::read(app.dir.join("files").join(&key)).expect("present"),
            b"0123456789"
        );
    }
);

dual_test!(
    async fn a_body_past_50_mb_is_cut_off_and_nothing_kept(app: TestApp) {
        let w = world(&app).await;
        let ticket = voice_note(&app, &w.teacher.cookie, "long.webm", MAX)
            .await
            .data()
            .clone();
        // 51 chunks of 1 MiB: one more byte than 50 MB would already be too many.
        let chunk = Bytes::from(vec![7u8; 1 << 20]);
        let chunks = futures_util::stream::iter(
            (0..51).map(move |_| Ok::<_, std::io::Error>(chunk.clone())),
        );
        let response = put(&app, &ticket, &[], Body::from_stream(chunks)).await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(response.json()["error"], TOO_LARGE);
        assert_eq!(files_on_disk(&app), Vec::<String>::new());
        // And at once when content-length says so.
        let response = put(
            &app,
            &ticket,
            &[("content-length", &(MAX + 1).to_string())],
            Body::from("x"),
        )
        .await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
    }
);

dual_test!(
    async fn the_specs_upload_payload_without_a_size_is_accepted_and_capped_at_50_mb(app: TestApp) {
        let w = world(&app).await;
        // Spec section 7: leader.uploadVoiceNote takes `filename, contentType` (taskId
        // optional); user.uploadFile the same two. No `size`.
        let answer = mutate(
            &app,
            "leader.uploadVoiceNote",
            json!({"filename": "Spec note.m4a", "contentType": "audio/mp4"}),
            Some(&w.teacher.cookie),
        )
        .await;
        let ticket = answer.data().clone();
        let key = ticket["key"].as_str().expect("key").to_owned();
        assert!(ticket["url"]
            .as_str()
            .expect("url")
            .starts_with("/api/uploads/"));

        // Over 50 MB is cut off while streaming, and at once by content-length.
        let chunk = Bytes::from(vec![7u8; 1 << 20]);
        let chunks = futures_util::stream::iter(
            (0..51).map(move |_| Ok::<_, std::io::Error>(chunk.clone())),
        );
        let response = put(&app, &ticket, &[], Body::from_stream(chunks)).await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(response.json()["error"], TOO_LARGE);
        let response = put(
            &app,
            &ticket,
            &[("content-length", &(MAX + 1).to_string())],
            Body::from("x"),
        )
        .await;
        assert_eq!(response.status, StatusCode::PAYLOAD_TOO_LARGE);
        // An empty body has not arrived.
        let response = put(&app, &ticket, &[], Body::empty()).await;
        assert_eq!(response.status, StatusCode::BAD_REQUEST);
        assert_eq!(response.json()["error"], INCOMPLETE);
        assert_eq!(files_on_disk(&app), Vec::<String>::new());

        // Any size up to the limit arrives, and the note takes the size that arrived.
        let sent = put(&app, &ticket, &[], Body::from("seventeen bytes!!")).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
        assert_eq!(sent.json()["size"], 17);
        let moved = mutate(
            &app,
            "leader.transferVoiceNoteToPersonalFolder",
            json!({"key": key}),
            Some(&w.teacher.cookie),
        )
        .await;
        let id = moved.data()["id"].clone();
        let notes = query(&app, "voiceNote.list", json!(null), Some(&w.teacher.cookie)).await;
        let note = notes
            .data()["notes"]
            .as_array()
            .expect("list")
            .iter()
            .find(|n| n["id"] == id)
            .cloned();
        assert_eq!(note.expect("listed")["size"], 17);

        // With a taskId of another school's (or no) task: parsed, then NOT_FOUND.
        let foreign = mutate(
            &app,
            "leader.uploadVoiceNote",
            json!({"filename": "a.m4a", "contentType": "audio/mp4", "taskId": "nope"}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(foreign.code(), "NOT_FOUND");

        // user.uploadFile with the spec's two fields signs an upload too.
        let file = mutate(
            &app,
            "user.uploadFile",
            json!({"filename": "Reading list.pdf", "contentType": "application/pdf"}),
            Some(&w.teacher.cookie),
        )
        .await;
        let sent = put(&app, file.data(), &[], Body::from("%PDF-1.7")).await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
        let files = query(&app, "user.listFiles", json!(null), Some(&w.teacher.cookie)).await;
        assert_eq!(files.data()[0]["size"], 8);
    }
);

async fn set_times(
    app: &TestApp,
    key: &str,
    expires_at: Option<chrono::NaiveDateTime>,
    created_at: chrono::NaiveDateTime,
) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::update(
        stored_files::table.filter(stored_files::key.eq(key))
    )
    .set((
        stored_files::expires_at.eq(expires_at),
        stored_files::created_at.eq(created_at)
    ))
    .execute(c)
    .await)
    .expect("update");
}

dual_test!(
    async fn uploads_expire_and_the_sweep_deletes_them(app: TestApp) {
        let w = world(&app).await;
        let cookie = Some(w.teacher.cookie.as_str());
        let mut tickets = Vec::new();
        for name in ["old.pdf", "new.pdf"] {
            let ticket = mutate(
                &app,
                "user.uploadFile",
                json!({"filename": name, "contentType": "application/pdf", "size": 4}),
                cookie,
            )
            .await
            .data()
            .clone();
            assert!(!ticket["headers"]
                .as_object()
                .expect("present")
                .contains_key("x-amz-tagging"));
            let sent = put(&app, &ticket, &[], Body::from("%PDF")).await;
            assert_eq!(sent.status, StatusCode::OK, "{}", sent.text());
            tickets.push(ticket["key"].as_str().expect("present").to_owned());
        }
        let [old, new] = [tickets[0].clone(), tickets[1].clone()];
        let note = voice_note(&app, &w.teacher.cookie, "keep.webm", 3)
            .await
            .data()
            .clone();
        put(&app, &note, &[], Body::from("abc")).await;
        let abandoned = voice_note(&app, &w.teacher.cookie, "never.webm", 3)
            .await
            .data()
            .clone();
        let abandoned = abandoned["key"].as_str().expect("present").to_owned();

        // Listed with their expiry, 24 hours on (the default).
        let listed = query(&app, "user.listFiles", Value::Null, cookie).await;
        let files = listed.data().as_array().expect("present").clone();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0]["filename"], "new.pdf");
        let expires: chrono::DateTime<Utc> = files[0]["expiresAt"]
            .as_str()
            .expect("present")
            .parse()
            .expect("present");
        let hours = (expires - Utc::now()).num_minutes();
        assert!((23 * 60 + 58..=24 * 60).contains(&hours), "{hours}");
        let download = app.get(files[0]["url"].as_str().expect("present")).await;
        assert_eq!(download.text(), "%PDF");
        let others = query(
            &app,
            "user.listFiles",
            Value::Null,
            Some(&w.stranger.cookie),
        )
        .await;
        assert_eq!(others.data(), &json!([]));

        // The sweep is queued for the expiry.
        let mut pooled = app.db.conn().await.expect("connection");
        let queued: i64 = with_conn!(pooled.db(), |c| voicemark::db::schema::jobs::table
            .filter(voicemark::db::schema::jobs::kind.eq("files.expire"))
            .count()
            .get_result(c)
            .await)
        .expect("jobs");
        drop(pooled);
        assert!(queued >= 1);

        // One upload's time is up; one voice note never arrived and is two days old.
        let at = now();
        set_times(
            &app,
            &old,
            Some(at - Duration::minutes(1)),
            at - Duration::hours(25),
        )
        .await;
        set_times(&app, &abandoned, None, at - Duration::days(2)).await;
        let listed = query(&app, "user.listFiles", Value::Null, cookie).await;
        assert_eq!(listed.data().as_array().expect("present").len(), 1);

        let swept = voicemark::jobs::file_expiry::sweep(&app.state, now())
            .await
            .expect("sweep");
        assert_eq!(swept.deleted, 2);
        assert!(!on_disk(&app, &old));
        assert!(on_disk(&app, &new));
        assert!(on_disk(&app, note["key"].as_str().expect("present")));
        assert_eq!(row_count(&app).await, 2);
        // Again: nothing left to do.
        let swept = voicemark::jobs::file_expiry::sweep(&app.state, now())
            .await
            .expect("sweep");
        assert_eq!(swept.deleted, 0);

        // A file already gone from the store still loses its row.
        std::fs::remove_file(app.dir.join("files").join(&new)).expect("present");
        set_times(&app, &new, Some(now() - Duration::seconds(1)), now()).await;
        let swept = voicemark::jobs::file_expiry::sweep(&app.state, now())
            .await
            .expect("sweep");
        assert_eq!(swept.deleted, 1);
        assert_eq!(row_count(&app).await, 1);

        // Through the job queue, as the workers run it: a due `files.expire` job sweeps.
        let late = mutate(
            &app,
            "user.uploadFile",
            json!({"filename": "late.txt", "contentType": "text/plain", "size": 2}),
            cookie,
        )
        .await
        .data()
        .clone();
        put(&app, &late, &[], Body::from("hi")).await;
        let late = late["key"].as_str().expect("key").to_owned();
        set_times(&app, &late, Some(now() - Duration::seconds(1)), now()).await;
        let mut pooled = app.db.conn().await.expect("connection");
        // (Runs are rounded up to 10-minute slots: ten minutes ago is due now.)
        voicemark::jobs::file_expiry::schedule(&mut pooled.db(), now() - Duration::minutes(10))
            .await
            .expect("schedule");
        drop(pooled);
        assert!(crate::sending::drain(&app.state).await >= 1);
        assert!(!on_disk(&app, &late));
        assert_eq!(row_count(&app).await, 1);
    }
);
