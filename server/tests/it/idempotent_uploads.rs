//! `upload.start` with the outbox's key (issue 27, item 3): twice in a row and eight times
//! at once open one upload (and, for a task's file, one item); the same key for another file
//! is refused; a refused start keeps nothing; a replay whose upload was swept as abandoned
//! opens a new one under the same key. On SQLite and PostgreSQL.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{multipart_uploads, stored_files};
use voicemark::with_conn;

use crate::dual_test;
use crate::idempotency::{
    at_once, call, data, items_in_task, key, keyed, refusals_are_not_kept, reused_key_is_refused, twice,
};
use crate::submissions::{query, world};
use crate::support::TestApp;
use crate::task_content::task;

async fn counts(app: &TestApp) -> (i64, i64) {
    let mut pooled = app.db.conn().await.expect("connection");
    let files = with_conn!(pooled.db(), |c| stored_files::table.count().get_result::<i64>(c).await);
    let uploads = with_conn!(pooled.db(), |c| multipart_uploads::table.count().get_result::<i64>(c).await);
    (files.expect("files"), uploads.expect("uploads"))
}

fn note(name: &str) -> Value {
    json!({"kind": "voiceNote", "filename": name, "contentType": "audio/wav", "size": 6 * 1024 * 1024})
}

dual_test!(
    async fn upload_start_is_done_once_per_key(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let (files, uploads) = counts(&app).await;

        let first = twice(&app, cookie, "upload.start", &note("talk-1.wav"), &[]).await;
        assert_eq!(data(&first)["partCount"], 2, "6 MiB in 5 MiB parts");
        let eight = at_once(&app, cookie, "upload.start", &note("talk-2.wav"), &[]).await;
        assert_ne!(data(&first)["uploadId"], data(&eight)["uploadId"]);
        assert_eq!(counts(&app).await, (files + 2, uploads + 2), "one file and one upload per key");

        // A task's file: one item per key too.
        let task_id = task(&app, &w.school, &w.teacher.id).await;
        let file = |name: &str| {
            json!({"kind": "taskFile", "filename": name, "contentType": "application/pdf", "size": 1000, "taskId": task_id})
        };
        twice(&app, cookie, "upload.start", &file("plan.pdf"), &[]).await;
        at_once(&app, cookie, "upload.start", &file("plan-2.pdf"), &[]).await;
        assert_eq!(items_in_task(&app, &task_id).await, 2);
        assert_eq!(counts(&app).await, (files + 4, uploads + 4));

        reused_key_is_refused(&app, cookie, "upload.start", &note("a.wav"), &note("b.wav")).await;
        // Refused after the key was reserved (the filename is checked with the file's row):
        // the key is freed, so the corrected start goes through under it.
        refusals_are_not_kept(&app, cookie, "upload.start", &note("   "), &note("c.wav")).await;
        let mut too_large = file("big.pdf");
        too_large["size"] = json!(core_wasm::limits::MAX_UPLOAD_BYTES + 1);
        refusals_are_not_kept(&app, cookie, "upload.start", &too_large, &file("small.pdf")).await;
        assert_eq!(items_in_task(&app, &task_id).await, 3);
        assert_eq!(counts(&app).await, (files + 7, uploads + 7));
    }
);

dual_test!(
    async fn a_replay_whose_upload_was_swept_opens_a_new_one(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let input = keyed(&note("late.wav"), &key());
        let first = call(&app.router, cookie, "upload.start", &input, &[]).await;
        let upload_id = data(&first)["uploadId"].as_str().expect("an upload id").to_owned();

        // What the abandoned-upload sweep leaves: neither the upload nor its file.
        let mut pooled = app.db.conn().await.expect("connection");
        let file_id = with_conn!(pooled.db(), |c| multipart_uploads::table
            .filter(multipart_uploads::id.eq(&upload_id))
            .select(multipart_uploads::file_id)
            .first::<String>(c)
            .await)
        .expect("the upload's file");
        with_conn!(pooled.db(), |c| diesel::delete(
            multipart_uploads::table.filter(multipart_uploads::id.eq(&upload_id))
        )
        .execute(c)
        .await)
        .expect("upload swept");
        with_conn!(pooled.db(), |c| diesel::delete(stored_files::table.filter(stored_files::id.eq(&file_id)))
            .execute(c)
            .await)
        .expect("file swept");
        drop(pooled);

        let anew = call(&app.router, cookie, "upload.start", &input, &[]).await;
        assert_ne!(data(&anew)["uploadId"], json!(upload_id), "a new upload");
        assert_ne!(data(&anew)["key"], data(&first)["key"]);
        let again = call(&app.router, cookie, "upload.start", &input, &[]).await;
        assert_eq!(again, anew, "the key now answers the new upload");
        let parts = query(
            &app,
            "upload.listParts",
            json!({"key": data(&anew)["key"], "uploadId": data(&anew)["uploadId"]}),
            Some(cookie),
        )
        .await;
        assert_eq!(parts.data()["parts"], json!([]), "open, with nothing sent yet");
    }
);
