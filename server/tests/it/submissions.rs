//! The pupil's public submission page (`submission.public`, `submission.submit`) and file
//! uploads (`/api/submissions/{id}/{token}/files`): tokens, hand-in, the 50 MB total and
//! the allowed types, enforced by the server. Also the fixtures the feedback and student
//! tests share.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{class_students, classes, notifications, stored_files, submissions};
use voicemark::ids::{new_id, new_token};
use voicemark::models::{now, students};
use voicemark::with_conn;

use crate::dual_test;
use crate::support::TestApp;

pub const LINK_INVALID: &str = "This link is invalid or has expired.";

/// Two schools: at Northbridge a sending teacher, another teacher, an admin, two pupils
/// (the first in a class) and an assignment with a submission row per pupil; at Elsewhere
/// one teacher.
pub struct World {
    pub school: String,
    pub teacher: Staff,
    pub colleague: Staff,
    pub admin: Staff,
    pub stranger: Staff,
    pub pupils: [String; 2],
    pub class_id: String,
    pub notification: String,
    /// (id, token) per pupil.
    pub submissions: [(String, String); 2],
}

pub struct Staff {
    pub id: String,
    pub cookie: String,
}

pub use crate::support::make_school as school;

pub async fn staff(
    app: &TestApp,
    school_id: Option<&str>,
    role: UserRole,
    forename: &str,
) -> Staff {
    let id = crate::support::make_user(app, school_id, role, forename, "Staff").await;
    let cookie = crate::support::session_cookie(app, &id).await;
    Staff { id, cookie }
}

pub async fn pupil(app: &TestApp, school_id: &str, forename: &str) -> String {
    let at = now();
    let id = new_id();
    let mut pooled = app.db.conn().await.expect("connection");
    students::insert(
        &mut pooled.db(),
        &students::NewStudent {
            id: id.clone(),
            created_at: at,
            updated_at: at,
            forename: forename.into(),
            surname: "Pupil".into(),
            email: None,
            parent_email: None,
            upn: None,
            school_id: school_id.into(),
            year_group_id: None,
            form_group_id: None,
        },
    )
    .await
    .expect("pupil");
    id
}

/// An assignment (or, with `send_in_days > 0`, a scheduled one) sent by `sender`.
pub async fn assignment(
    app: &TestApp,
    school_id: &str,
    sender: &str,
    title: &str,
    send_in_days: i64,
    due_in_days: i64,
) -> String {
    let at = now();
    let id = new_id();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(notifications::table)
        .values((
            notifications::id.eq(&id),
            notifications::created_at.eq(at),
            notifications::updated_at.eq(at),
            notifications::type_.eq("ASSIGNMENT"),
            notifications::title.eq(title),
            notifications::body.eq("<p>Write a letter.</p>"),
            notifications::send_date.eq(Some(at + Duration::days(send_in_days))),
            notifications::submission_due_date.eq(Some(at + Duration::days(due_in_days))),
            notifications::send_to_parent.eq(true),
            notifications::send_to_pupil.eq(true),
            notifications::filters.eq("{}"),
            notifications::sender_id.eq(sender),
            notifications::school_id.eq(school_id),
        ))
        .execute(c)
        .await)
    .expect("notification");
    id
}

/// A submission row as sending writes it: not handed in. Returns (id, token).
pub async fn submission_row(app: &TestApp, notification: &str, student: &str) -> (String, String) {
    let at = now();
    let (id, token) = (new_id(), new_token());
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(submissions::table)
        .values((
            submissions::id.eq(&id),
            submissions::created_at.eq(at),
            submissions::updated_at.eq(at),
            submissions::token.eq(&token),
            submissions::notification_id.eq(notification),
            submissions::student_id.eq(student),
        ))
        .execute(c)
        .await)
    .expect("submission");
    (id, token)
}

pub async fn world(app: &TestApp) -> World {
    let school_id = school(app, "Northbridge").await;
    let other = school(app, "Elsewhere").await;
    let teacher = staff(app, Some(&school_id), UserRole::Teacher, "Tess").await;
    let colleague = staff(app, Some(&school_id), UserRole::Teacher, "Colin").await;
    let admin = staff(app, Some(&school_id), UserRole::Admin, "Ada").await;
    let stranger = staff(app, Some(&other), UserRole::Teacher, "Stan").await;
    let first = pupil(app, &school_id, "Amelia").await;
    let second = pupil(app, &school_id, "Oliver").await;
    let class_id = new_id();
    let at = now();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| {
        diesel::insert_into(classes::table)
            .values((
                classes::id.eq(&class_id),
                classes::created_at.eq(at),
                classes::updated_at.eq(at),
                classes::name.eq("Year 7 English"),
                classes::school_id.eq(&school_id),
            ))
            .execute(c)
            .await
            .expect("class");
        diesel::insert_into(class_students::table)
            .values((
                class_students::class_id.eq(&class_id),
                class_students::student_id.eq(&first),
            ))
            .execute(c)
            .await
    })
    .expect("class");
    drop(pooled);
    let notification = assignment(app, &school_id, &teacher.id, "Persuasive letter", -1, 4).await;
    let s1 = submission_row(app, &notification, &first).await;
    let s2 = submission_row(app, &notification, &second).await;
    World {
        school: school_id,
        teacher,
        colleague,
        admin,
        stranger,
        pupils: [first, second],
        class_id,
        notification,
        submissions: [s1, s2],
    }
}

fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// A call's outcome: the status and either `data` (the output's JSON) or the error shape.
pub struct Answer {
    pub status: StatusCode,
    pub body: Value,
}

impl Answer {
    pub fn data(&self) -> &Value {
        assert_eq!(self.status, StatusCode::OK, "{}", self.body);
        &self.body["result"]["data"]["json"]
    }

    /// The tRPC error code (`NOT_FOUND`, ...).
    pub fn code(&self) -> &str {
        self.body["error"]["json"]["data"]["code"]
            .as_str()
            .unwrap_or_else(|| panic!("an error, got {}", self.body))
    }

    pub fn message(&self) -> &str {
        self.body["error"]["json"]["message"].as_str().unwrap_or("")
    }

    pub fn field_error(&self, field: &str) -> &str {
        self.body["error"]["json"]["data"]["zodError"]["fieldErrors"][field][0]
            .as_str()
            .unwrap_or("")
    }
}

/// `GET /api/trpc/{path}?input=` with `input` as superjson's JSON.
pub async fn query(app: &TestApp, path: &str, input: Value, cookie: Option<&str>) -> Answer {
    let input = json!({ "json": input }).to_string();
    let mut request = Request::get(format!("/api/trpc/{path}?input={}", encode(&input)));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = app
        .request(request.body(Body::empty()).expect("request"))
        .await;
    Answer {
        status: response.status,
        body: response.json(),
    }
}

/// `POST /api/trpc/{path}` with `input`.
pub async fn mutate(app: &TestApp, path: &str, input: Value, cookie: Option<&str>) -> Answer {
    let mut request =
        Request::post(format!("/api/trpc/{path}")).header("content-type", "application/json");
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let body = json!({ "json": input }).to_string();
    let response = app
        .request(request.body(Body::from(body)).expect("request"))
        .await;
    Answer {
        status: response.status,
        body: response.json(),
    }
}

pub async fn hub_count(app: &TestApp, cookie: &str) -> i64 {
    query(app, "user.feedbackHubCount", Value::Null, Some(cookie))
        .await
        .data()
        .as_i64()
        .expect("a number")
}

pub async fn hand_in(app: &TestApp, (id, token): &(String, String), content: &str) -> Answer {
    mutate(
        app,
        "submission.submit",
        json!({"id": id, "token": token, "content": content}),
        None,
    )
    .await
}

async fn upload(
    app: &TestApp,
    (id, token): &(String, String),
    filename: &str,
    content_type: &str,
    body: Body,
    length: Option<u64>,
) -> (StatusCode, Value) {
    let mut request = Request::post(format!("/api/submissions/{id}/{token}/files"))
        .header("x-filename", encode(filename).replace('+', "%20"))
        .header("content-type", content_type);
    if let Some(length) = length {
        request = request.header("content-length", length.to_string());
    }
    let response = app.request(request.body(body).expect("request")).await;
    (response.status, response.json())
}

async fn stored_file_count(app: &TestApp, submission: &str) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| stored_files::table
        .filter(stored_files::submission_id.eq(submission))
        .count()
        .get_result(c)
        .await)
    .expect("count")
}

/// The names of the files kept on disk for one submission.
fn files_on_disk(app: &TestApp, submission: &str) -> Vec<String> {
    let dir = app.dir.join("files/submissions").join(submission);
    match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}

dual_test!(
    async fn the_public_page_opens_only_with_its_own_token(app: TestApp) {
        let w = world(&app).await;
        let (id, token) = &w.submissions[0];
        let page = query(
            &app,
            "submission.public",
            json!({"id": id, "token": token}),
            None,
        )
        .await;
        let data = page.data();
        assert_eq!(data["id"], json!(id));
        assert_eq!(data["pupilForename"], "Amelia");
        assert_eq!(data["assignment"]["title"], "Persuasive letter");
        assert_eq!(data["assignment"]["body"], "<p>Write a letter.</p>");
        assert_eq!(data["assignment"]["schoolName"], "Northbridge");
        assert!(data["assignment"]["submissionDueDate"].is_string());
        assert_eq!(data["receivedAt"], Value::Null);
        assert_eq!(data["feedback"], Value::Null);
        assert_eq!(data["files"], json!([]));

        let other_token = &w.submissions[1].1;
        for (id, token) in [
            (id.as_str(), new_token()),
            (id.as_str(), other_token.clone()),
            (id.as_str(), "%%garbled%%".to_owned()),
            (id.as_str(), String::new()),
            ("not-an-id", token.clone()),
            (&"x".repeat(5000), token.clone()),
        ] {
            let answer = query(
                &app,
                "submission.public",
                json!({"id": id, "token": token}),
                None,
            )
            .await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.body);
            assert_eq!(answer.code(), "NOT_FOUND");
            assert_eq!(answer.message(), LINK_INVALID);
            let submit = hand_in(&app, &(id.to_owned(), token), "Hello").await;
            assert_eq!(submit.code(), "NOT_FOUND");
        }
        // The other pupil's link still opens the other pupil's page.
        let second = query(
            &app,
            "submission.public",
            json!({"id": w.submissions[1].0, "token": other_token}),
            None,
        )
        .await;
        assert_eq!(second.data()["pupilForename"], "Oliver");
    }
);

dual_test!(
    async fn handing_in_sets_received_at_and_raises_the_hub_count(app: TestApp) {
        let w = world(&app).await;
        assert_eq!(hub_count(&app, &w.teacher.cookie).await, 0);
        let empty = hand_in(&app, &w.submissions[0], "   ").await;
        assert_eq!(empty.code(), "BAD_REQUEST");
        assert_eq!(
            empty.field_error("content"),
            "Write your answer or add a file before handing in."
        );
        let too_long = hand_in(&app, &w.submissions[0], &"a".repeat(20_001)).await;
        assert_eq!(too_long.code(), "BAD_REQUEST");

        let answer = hand_in(&app, &w.submissions[0], "  Dear Councillor  ").await;
        let data = answer.data().clone();
        assert_eq!(data["content"], "Dear Councillor");
        assert!(data["receivedAt"].is_string(), "{data}");
        assert_eq!(data["late"], false);
        assert_eq!(hub_count(&app, &w.teacher.cookie).await, 1);
        assert_eq!(
            hub_count(&app, &w.admin.cookie).await,
            1,
            "admins count their school's"
        );
        assert_eq!(hub_count(&app, &w.colleague.cookie).await, 0);
        assert_eq!(hub_count(&app, &w.stranger.cookie).await, 0);

        // Handing in again, before marking, replaces the text and counts once.
        let again = hand_in(&app, &w.submissions[0], "Dear Councillor, second draft").await;
        assert_eq!(again.data()["content"], "Dear Councillor, second draft");
        assert_eq!(hub_count(&app, &w.teacher.cookie).await, 1);
        let page = query(
            &app,
            "submission.public",
            json!({"id": w.submissions[0].0, "token": w.submissions[0].1}),
            None,
        )
        .await;
        assert_eq!(page.data()["content"], "Dear Councillor, second draft");
    }
);

dual_test!(
    async fn uploads_are_limited_in_size_and_type_by_the_server(app: TestApp) {
        let w = world(&app).await;
        let link = &w.submissions[0];
        let (status, body) = upload(
            &app,
            link,
            "my essay.pdf",
            "application/pdf",
            Body::from(&b"%PDF-1.4 hello"[..]),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["filename"], "my essay.pdf");
        assert_eq!(body["sizeBytes"], 14);
        assert_eq!(stored_file_count(&app, &link.0).await, 1);

        // The page lists it and it downloads as an attachment.
        let page = query(
            &app,
            "submission.public",
            json!({"id": link.0, "token": link.1}),
            None,
        )
        .await;
        let files = page.data()["files"].clone();
        assert_eq!(files[0]["filename"], "my essay.pdf");
        let download = app.get(files[0]["url"].as_str().expect("url")).await;
        assert_eq!(download.status, StatusCode::OK);
        assert_eq!(download.body, b"%PDF-1.4 hello");
        assert!(download
            .header("content-disposition")
            .unwrap_or("")
            .starts_with("attachment"));
        assert_eq!(download.header("x-frame-options"), Some("DENY"));
        // The Feedback Hub shows a PDF in the page when it asks, in a frame of its own origin.
        let shown = app
            .get(&format!("{}?inline=1", files[0]["url"].as_str().expect("url")))
            .await;
        assert_eq!(shown.status, StatusCode::OK);
        assert!(shown
            .header("content-disposition")
            .unwrap_or("")
            .starts_with("inline"));
        assert_eq!(shown.header("x-frame-options"), Some("SAMEORIGIN"));

        // A file with files only (no text) may be handed in.
        assert!(hand_in(&app, link, "").await.data()["receivedAt"].is_string());

        // Types outside the list are refused, and so is a type that does not fit its name.
        for (name, kind) in [
            ("page.html", "text/html"),
            ("tool.exe", "application/octet-stream"),
            ("essay.pdf", "text/html"),
        ] {
            let (status, body) = upload(
                &app,
                link,
                name,
                kind,
                Body::from("<script></script>"),
                None,
            )
            .await;
            assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{name}");
            assert!(
                body["error"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("This type of file cannot be uploaded."),
                "{body}"
            );
        }

        // Over the total, declared up front: refused before the body is read.
        let limit = core_wasm::limits::MAX_UPLOAD_BYTES;
        let (status, body) = upload(
            &app,
            link,
            "big.mp3",
            "audio/mpeg",
            Body::empty(),
            Some(limit),
        )
        .await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(body["error"], "Files must be 50 MB or smaller in total.");

        // Over the total, streamed without a length: refused while streaming.
        let chunk = vec![7u8; 1024 * 1024];
        let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
            (0..51).map(|_| Ok(chunk.clone())).collect();
        let stream = Body::from_stream(futures_util::stream::iter(chunks));
        let (status, body) = upload(&app, link, "recording.wav", "audio/wav", stream, None).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(body["error"], "Files must be 50 MB or smaller in total.");

        // Nothing of the refused uploads was kept.
        assert_eq!(stored_file_count(&app, &link.0).await, 1);
        assert_eq!(
            files_on_disk(&app, &link.0).len(),
            1,
            "{:?}",
            files_on_disk(&app, &link.0)
        );

        // Exactly up to the limit is fine for another pupil.
        let other = &w.submissions[1];
        let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
            (0..50).map(|_| Ok(chunk.clone())).collect();
        let (status, body) = upload(
            &app,
            other,
            "recording.wav",
            "audio/wav",
            Body::from_stream(futures_util::stream::iter(chunks)),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["sizeBytes"], limit);

        // A wrong token uploads nothing.
        let (status, body) = upload(
            &app,
            &(link.0.clone(), new_token()),
            "a.txt",
            "text/plain",
            Body::from("hi"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["error"], LINK_INVALID);
    }
);
