//! The MIS sync from Groupcall Xporter (docs/mis-sync.md, "Groupcall Xporter") against a
//! stub on loopback that speaks Xporter's OneRoster v1.1 shapes: the token exchange with
//! HTTP Basic auth (`groupcallId:groupcallSecret`, form `grant_type=client_credentials`)
//! answering `{"access_token","token_type":"Bearer","expires_in"}`, Bearer calls to
//! `/users`, `/classes`, `/enrollments` (bodies `{"<collection>":[...]}`) and `/users/{id}`
//! (`{"user":{...}}`), `limit`/`offset` paging with `X-Total-Count` and, when asked, a
//! `Link: <...>; rel="next"` header, `filter=dateLastModified>'ISO'`, `status: tobedeleted`,
//! 401 for a wrong secret, 429 with `Retry-After`, and a page that fails half way. The
//! syncs run on both databases.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use base64::Engine;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{class_staff, class_students, classes, form_groups, schools, students, submissions, users};
use voicemark::ids::{new_id, new_token};
use voicemark::jobs::mis_sync::{queue_now, SyncMis};
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{Registry, WorkerSettings};
use voicemark::mis::sync::{run as sync_school, save_groupcall_credentials, save_wonde_credentials, SyncError};
use voicemark::mis::SyncKind;
use voicemark::models::{mis as store, notifications, now, students as pupils};
use voicemark::providers::xporter::XporterError;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::support::{make_school, TestApp};

pub const GROUPCALL_ID: &str = "3281102";
pub const SECRET: &str = "gc-secret-5b1e0c7d9a";
const ACCESS_TOKEN: &str = "xod-access-0f3c2b";
const ROOT: &str = "/api/ims/oneroster/v1p1";

// ---------------------------------------------------------------------------------------
// The stub Xporter server

/// OneRoster's `dateLastModified`.
fn iso(at: chrono::NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

#[derive(Default)]
pub struct School {
    pub users: Vec<Value>,
    pub classes: Vec<Value>,
    pub enrollments: Vec<Value>,
    /// Page through `/users` by `Link: rel="next"` headers instead of offsets alone.
    pub link_paging: bool,
    /// The `Link` next of `/users` points at another host.
    pub foreign_next: bool,
    /// The `/users` page (1-based) that answers 500.
    pub fail_users_page: Option<usize>,
    /// Answer the next N collection requests with 429 and `Retry-After: 7`.
    pub rate_limit: usize,
    /// Every request: "collection?query" or "token".
    pub requests: Vec<String>,
}

pub type Stub = Arc<Mutex<School>>;

fn refused() -> Response {
    (StatusCode::UNAUTHORIZED, Json(json!({"imsx_codeMajor": "failure", "imsx_severity": "error",
        "imsx_description": "Unauthorized", "imsx_CodeMinor": {"imsx_codeMinorField": [{"imsx_codeMinorFieldName": "TargetEndSystem", "imsx_codeMinorFieldValue": "unauthorisedrequest"}]}})))
    .into_response()
}

async fn token(State((stub, _)): State<(Stub, String)>, headers: HeaderMap, Form(form): Form<Vec<(String, String)>>) -> Response {
    stub.lock().unwrap().requests.push("token".into());
    let expected = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{GROUPCALL_ID}:{SECRET}")));
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(expected.as_str()) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "invalid_client"}))).into_response();
    }
    if !form.iter().any(|(k, v)| k == "grant_type" && v == "client_credentials") {
        return (StatusCode::BAD_REQUEST, Json(json!({"error": "unsupported_grant_type"}))).into_response();
    }
    Json(json!({"access_token": ACCESS_TOKEN, "token_type": "Bearer", "expires_in": 3600})).into_response()
}

fn bearer(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {ACCESS_TOKEN}"))
}

async fn collection(
    State((stub, base)): State<(Stub, String)>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    if !bearer(&headers) {
        return refused();
    }
    let get = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let limit: usize = get("limit").and_then(|p| p.parse().ok()).unwrap_or(100);
    let offset: usize = get("offset").and_then(|p| p.parse().ok()).unwrap_or(0);
    let mut school = stub.lock().unwrap();
    let q: Vec<String> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
    school.requests.push(format!("{name}?{}", q.join("&")));
    if school.rate_limit > 0 {
        school.rate_limit -= 1;
        return (StatusCode::TOO_MANY_REQUESTS, [("retry-after", "7")], Json(json!({"imsx_codeMajor": "failure", "imsx_description": "Too many requests"}))).into_response();
    }
    if name == "users" && school.fail_users_page == Some(offset / limit + 1) {
        return (StatusCode::INTERNAL_SERVER_ERROR, "<html><body>Server Error</body></html>").into_response();
    }
    let records: &Vec<Value> = match name.as_str() {
        "users" => &school.users,
        "classes" => &school.classes,
        "enrollments" => &school.enrollments,
        _ => return (StatusCode::NOT_FOUND, Json(json!({"imsx_codeMajor": "failure"}))).into_response(),
    };
    // `dateLastModified>'2026-11-24T09:00:00Z'`, compared as ISO text (to the second).
    let after = get("filter").map(|f| {
        let value = f.split_once(">'").map(|(_, v)| v.trim_end_matches('\'').to_owned()).expect("a dateLastModified filter");
        value[..19].to_owned()
    });
    let matching: Vec<&Value> = records
        .iter()
        .filter(|r| match &after {
            None => true,
            Some(after) => r["dateLastModified"].as_str().is_some_and(|d| &d[..19] > after.as_str()),
        })
        .collect();
    let data: Vec<Value> = matching.iter().skip(offset).take(limit).map(|r| (*r).clone()).collect();
    let total = matching.len().to_string();
    let mut response = Json(json!({ name.clone(): data })).into_response();
    let h = response.headers_mut();
    h.insert("x-total-count", total.parse().unwrap());
    if name == "users" && school.link_paging && offset + limit < matching.len() {
        let host = if school.foreign_next { "http://xporter.attacker.example".to_owned() } else { base.clone() };
        let mut url = url::Url::parse(&format!("{host}{ROOT}/users")).unwrap();
        {
            let mut pairs = url.query_pairs_mut();
            pairs.append_pair("limit", &limit.to_string());
            pairs.append_pair("offset", &(offset + limit).to_string());
            if let Some(f) = get("filter") {
                pairs.append_pair("filter", &f);
            }
        }
        h.insert("link", format!("<{url}>; rel=\"next\", <{base}{ROOT}/users?limit={limit}&offset=0>; rel=\"first\"").parse().unwrap());
    }
    response
}

async fn one_user(State((stub, _)): State<(Stub, String)>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if !bearer(&headers) {
        return refused();
    }
    let mut school = stub.lock().unwrap();
    school.requests.push(format!("users/{id}"));
    match school.users.iter().find(|u| u["sourcedId"] == json!(id)) {
        Some(user) => Json(json!({"user": user})).into_response(),
        None => (StatusCode::NOT_FOUND, Json(json!({"imsx_codeMajor": "failure", "imsx_description": "Not found"}))).into_response(),
    }
}

/// Starts the stub on a free port: (base URL, its data).
pub async fn xporter_stub(school: School) -> (String, Stub) {
    let stub: Stub = Arc::new(Mutex::new(school));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    let base = format!("http://{addr}");
    let routes = Router::new()
        .route(&format!("{ROOT}/token"), post(token))
        .route(&format!("{ROOT}/users/{{id}}"), get(one_user))
        .route(&format!("{ROOT}/{{name}}"), get(collection))
        .with_state((stub.clone(), base.clone()));
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    (base, stub)
}

pub fn pupil_id(n: usize) -> String {
    format!("st-{n:05}")
}

fn form_id(f: usize) -> String {
    format!("hr-{f:02}")
}

fn guid(id: &str, kind: &str) -> Value {
    json!({"href": format!("https://xporter.groupcall.com{ROOT}/{kind}s/{id}"), "sourcedId": id, "type": kind})
}

/// A school in OneRoster's shapes: pupil n in form `n % 10`, class `n % 6`, year
/// `07 + n % 5`, with one parent (every 50th has no address); teachers T0..T3 (T3 disabled)
/// teach class `c % 4`.
pub fn generate(pupil_count: usize) -> School {
    let old = iso(now() - chrono::Duration::days(30));
    let org = guid("org-1", "org");
    let mut users = Vec::new();
    let mut enrollments = Vec::new();
    let mut classes: Vec<Value> = (0..10)
        .map(|f| json!({"sourcedId": form_id(f), "status": "active", "dateLastModified": old, "title": format!("Form {f:02}"),
            "classCode": format!("F{f:02}"), "classType": "homeroom", "location": null, "grades": [], "subjects": [],
            "course": guid("crs-reg", "course"), "school": org, "terms": [guid("term-1", "academicSession")]}))
        .collect();
    classes.extend((0..6).map(|c| json!({"sourcedId": format!("cl-{c:02}"), "status": "active", "dateLastModified": old,
        "title": format!("Maths {c:02}"), "classCode": format!("{c:02}/Ma"), "classType": "scheduled", "location": "M1",
        "grades": ["07"], "subjects": ["Mathematics"], "course": guid("crs-ma", "course"), "school": org, "terms": [guid("term-1", "academicSession")]})));
    for t in 0..4 {
        users.push(json!({"sourcedId": format!("te-{t}"), "status": "active", "dateLastModified": old,
            "enabledUser": if t == 3 { "false" } else { "true" }, "orgs": [org], "role": "teacher", "username": format!("teacher{t}"),
            "userIds": [], "givenName": format!("Teacher{t}"), "familyName": "Staff", "middleName": "", "identifier": format!("T{t:02}"),
            "email": format!("teacher{t}@groupcall-school.test"), "sms": "", "phone": "", "agents": [], "grades": [],
            "metadata": {"staffCode": format!("T{t:02}")}}));
    }
    for c in 0..6 {
        enrollments.push(json!({"sourcedId": format!("en-t{c}"), "status": "active", "dateLastModified": old,
            "user": guid(&format!("te-{}", c % 4), "user"), "class": guid(&format!("cl-{c:02}"), "class"), "school": org,
            "role": "teacher", "primary": "true", "beginDate": null, "endDate": null}));
    }
    for n in 0..pupil_count {
        let parent = format!("pa-{n:05}");
        users.push(json!({"sourcedId": pupil_id(n), "status": "active", "dateLastModified": old, "enabledUser": "true",
            "orgs": [org], "role": "student", "username": format!("pupil{n}"),
            "userIds": [{"type": "UPN", "identifier": format!("G{n:012}")}],
            "givenName": format!("Pat{n}"), "familyName": format!("Pupil{n:05}"), "middleName": "", "identifier": format!("{n}"),
            "email": "", "sms": "", "phone": "", "agents": [guid(&parent, "user")], "grades": [format!("{:02}", 7 + n % 5)]}));
        users.push(json!({"sourcedId": parent, "status": "active", "dateLastModified": old, "enabledUser": "true",
            "orgs": [org], "role": "parent", "username": "", "userIds": [], "givenName": "Sam", "familyName": format!("Parent{n}"),
            "middleName": "", "identifier": "", "email": if n % 50 == 0 { String::new() } else { format!("parent.of.{n}@home.test") },
            "sms": "", "phone": "", "agents": [guid(&pupil_id(n), "user")], "grades": []}));
        enrollments.push(json!({"sourcedId": format!("en-f{n}"), "status": "active", "dateLastModified": old,
            "user": guid(&pupil_id(n), "user"), "class": guid(&form_id(n % 10), "class"), "school": org, "role": "student", "primary": "false"}));
        enrollments.push(json!({"sourcedId": format!("en-c{n}"), "status": "active", "dateLastModified": old,
            "user": guid(&pupil_id(n), "user"), "class": guid(&format!("cl-{:02}", n % 6), "class"), "school": org, "role": "student", "primary": "false"}));
    }
    School {
        users,
        classes,
        enrollments,
        ..School::default()
    }
}

// ---------------------------------------------------------------------------------------
// The app under test

pub fn state_with(app: &TestApp, xporter_url: &str) -> AppState {
    let mut config = (*app.state.config).clone();
    config.mis.xporter_url = Some(xporter_url.to_owned());
    AppState::new(app.db.clone(), config).expect("state")
}

/// A Pro school with `seats` seats, connected to Groupcall with `secret`.
pub async fn connected_school(app: &TestApp, state: &AppState, seats: i32, secret: &str) -> String {
    let school = make_school(app, &format!("Groupcall School {}", &new_id()[..8])).await;
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    with_conn!(&mut conn, |c| diesel::update(schools::table.find(&school))
        .set((schools::stripe_product_id.eq("prod_PRO"), schools::seats.eq(seats)))
        .execute(c)
        .await)
    .expect("plan");
    assert!(save_groupcall_credentials(&mut conn, &state.secrets, &school, GROUPCALL_ID, secret).await.expect("save"));
    school
}

type PupilRow = (String, String, String, Option<String>, Option<String>, Option<String>, bool);

/// (groupcall id, forename, surname, parent e-mail, UPN, form name, archived) of every
/// pupil, sorted.
async fn pupil_table(app: &TestApp, school: &str) -> Vec<PupilRow> {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    #[allow(clippy::type_complexity)]
    let rows: Vec<(Option<String>, String, String, Option<String>, Option<String>, Option<String>, Option<chrono::NaiveDateTime>)> =
        with_conn!(&mut conn, |c| students::table
            .left_join(form_groups::table)
            .filter(students::school_id.eq(school))
            .order(students::groupcall_id.asc())
            .select((students::groupcall_id, students::forename, students::surname, students::parent_email, students::upn, form_groups::name.nullable(), students::archived_at))
            .load(c)
            .await)
        .expect("pupils");
    rows.into_iter()
        .map(|(g, f, s, p, u, form, a)| (g.unwrap_or_default(), f, s, p, u, form, a.is_some()))
        .collect()
}

async fn count_links(app: &TestApp, school: &str) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    with_conn!(&mut conn, |c| class_students::table
        .inner_join(classes::table)
        .filter(classes::school_id.eq(school))
        .count()
        .get_result(c)
        .await)
    .expect("links")
}

fn requests(stub: &Stub, prefix: &str) -> Vec<String> {
    stub.lock().unwrap().requests.iter().filter(|r| r.starts_with(prefix)).cloned().collect()
}

// ---------------------------------------------------------------------------------------
// Tests

dual_test!(
    async fn a_full_sync_brings_pupils_parents_forms_classes_and_staff(app: TestApp) {
        let mut data = generate(450);
        data.link_paging = true;
        let (base, stub) = xporter_stub(data).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 50, SECRET).await;

        let report = sync_school(&state, &school, SyncKind::Full).await.expect("sync").expect("ran");
        assert_eq!(report.kind, SyncKind::Full);
        assert_eq!((report.applied.added, report.applied.updated, report.applied.archived), (450, 0, 0));
        assert_eq!(report.applied.staff_invited, 3, "the disabled teacher is not invited");
        assert!(report.applied.problems.is_empty(), "{:?}", report.applied.problems);

        // One token exchange; /users (904 records) followed through Link headers.
        assert_eq!(requests(&stub, "token").len(), 1);
        let pages = requests(&stub, "users?");
        assert_eq!(pages.len(), 5, "{pages:?}");
        assert!(pages[4].contains("offset=800"), "{}", pages[4]);

        let table = pupil_table(&app, &school).await;
        assert_eq!(table.len(), 450);
        let one = table.iter().find(|r| r.0 == pupil_id(1)).expect("pupil 1");
        assert_eq!((one.1.as_str(), one.2.as_str()), ("Pat1", "Pupil00001"));
        assert_eq!(one.3.as_deref(), Some("parent.of.1@home.test"), "the parent agent's address");
        assert_eq!(one.4.as_deref(), Some("G000000000001"), "the UPN from userIds");
        assert_eq!(one.5.as_deref(), Some("Form 01"), "the homeroom class is the form");
        let no_parent = table.iter().find(|r| r.0 == pupil_id(50)).expect("pupil 50");
        assert_eq!(no_parent.3, None);
        assert_eq!(count_links(&app, &school).await, 450, "one scheduled class each");

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let wonde_linked: i64 = with_conn!(&mut conn, |c| students::table.filter(students::school_id.eq(&school)).filter(students::wonde_id.is_not_null()).count().get_result(c).await).expect("count");
        assert_eq!(wonde_linked, 0, "matched by groupcall_id only");
        let forms: i64 = with_conn!(&mut conn, |c| form_groups::table.filter(form_groups::school_id.eq(&school)).filter(form_groups::groupcall_id.is_not_null()).count().get_result(c).await).expect("forms");
        assert_eq!(forms, 10);
        let class_count: i64 = with_conn!(&mut conn, |c| classes::table.filter(classes::school_id.eq(&school)).filter(classes::groupcall_id.is_not_null()).count().get_result(c).await).expect("classes");
        assert_eq!(class_count, 6);
        let staff: Vec<(Option<String>, bool, Option<String>)> = with_conn!(&mut conn, |c| users::table
            .filter(users::school_id.eq(&school))
            .filter(users::groupcall_id.is_not_null())
            .order(users::groupcall_id.asc())
            .select((users::groupcall_id, users::activated, users::staff_code))
            .load(c)
            .await)
        .expect("staff");
        assert_eq!(staff.len(), 3);
        assert!(staff.iter().all(|(_, activated, _)| !activated), "pending invited users");
        assert_eq!(staff[0].2.as_deref(), Some("T00"));
        let taught: i64 = with_conn!(&mut conn, |c| class_staff::table.inner_join(classes::table).filter(classes::school_id.eq(&school)).count().get_result(c).await).expect("class staff");
        assert_eq!(taught, 5, "classes 0-5 taught by T0-T3, T3 (class 3) not invited");
        drop(pooled);

        // Nothing changed: nothing written.
        let again = sync_school(&state, &school, SyncKind::Full).await.expect("sync").expect("ran");
        assert_eq!((again.applied.added, again.applied.updated, again.applied.archived, again.applied.staff_invited), (0, 0, 0, 0));
    }
);

dual_test!(
    async fn a_delta_moves_a_pupil_and_archives_a_tobedeleted_pupil_keeping_submissions(app: TestApp) {
        let (base, stub) = xporter_stub(generate(120)).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 20, SECRET).await;
        sync_school(&state, &school, SyncKind::Full).await.expect("full").expect("ran");

        let (leaver, notification) = {
            let mut pooled = app.db.conn().await.expect("connection");
            let mut conn = pooled.db();
            let leaver: String = with_conn!(&mut conn, |c| students::table.filter(students::groupcall_id.eq(pupil_id(7))).select(students::id).first(c).await).expect("leaver");
            let sender: String = with_conn!(&mut conn, |c| users::table.filter(users::school_id.eq(&school)).select(users::id).first(c).await).expect("a teacher");
            let notification = new_id();
            notifications::insert(&mut conn, &notifications::NewNotification {
                id: notification.clone(), created_at: now(), updated_at: now(), kind: core_wasm::NotificationType::Assignment,
                title: "Essay".into(), custom_title: None, body: "<p>Write</p>".into(), send_date: None, submission_due_date: None,
                send_to_parent: false, send_to_pupil: true, filters: "{}".into(), sender_id: sender, school_id: school.clone(),
            }).await.expect("notification");
            notifications::insert_submission(&mut conn, &notifications::NewSubmission {
                id: new_id(), created_at: now(), updated_at: now(), received_at: Some(now()), marked_at: None,
                content: Some("My essay".into()), feedback: None, feedback_sentiment: None, token: new_token(),
                notification_id: notification.clone(), student_id: leaver.clone(),
            }).await.expect("submission");
            (leaver, notification)
        };
        tokio::time::sleep(Duration::from_millis(1100)).await;

        {
            let later = iso(now() + chrono::Duration::minutes(1));
            let mut data = stub.lock().unwrap();
            // Pupil 1 moves from Form 01 to Form 02: only the enrollment changes.
            let enrollment = data.enrollments.iter_mut().find(|e| e["sourcedId"] == json!("en-f1")).expect("enrollment");
            enrollment["class"] = guid(&form_id(2), "class");
            enrollment["dateLastModified"] = json!(later);
            // Pupil 7 leaves: Xporter keeps the record as tobedeleted.
            let gone = data.users.iter_mut().find(|u| u["sourcedId"] == json!(pupil_id(7))).expect("pupil 7");
            gone["status"] = json!("tobedeleted");
            gone["dateLastModified"] = json!(later);
        }

        let report = sync_school(&state, &school, SyncKind::Delta).await.expect("delta").expect("ran");
        assert_eq!(report.kind, SyncKind::Delta);
        assert_eq!((report.applied.added, report.applied.updated, report.applied.archived), (0, 1, 1));
        let users_pages = requests(&stub, "users?");
        assert!(users_pages.last().expect("a delta read").contains("filter=dateLastModified>'"), "{users_pages:?}");
        assert!(requests(&stub, "users/").contains(&format!("users/{}", pupil_id(1))), "the moved pupil is re-read");

        let table = pupil_table(&app, &school).await;
        let moved = table.iter().find(|r| r.0 == pupil_id(1)).expect("pupil 1");
        assert_eq!(moved.5.as_deref(), Some("Form 02"));
        assert_eq!(moved.3.as_deref(), Some("parent.of.1@home.test"), "the parent address is kept");
        let gone = table.iter().find(|r| r.0 == pupil_id(7)).expect("pupil 7 is kept");
        assert!(gone.6, "archived, not deleted");
        assert_eq!(table.iter().filter(|r| !r.6).count(), 119);

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let kept: i64 = with_conn!(&mut conn, |c| submissions::table.filter(submissions::student_id.eq(&leaver)).filter(submissions::notification_id.eq(&notification)).count().get_result(c).await).expect("count");
        assert_eq!(kept, 1, "the leaver's submission is kept");
        let listed = pupils::list_for_school(&mut conn, &school).await.expect("list");
        assert_eq!(listed.len(), 119);
    }
);

dual_test!(
    async fn a_refused_secret_fails_at_once_and_saves_nothing(app: TestApp) {
        let (base, stub) = xporter_stub(generate(30)).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 10, "not-the-secret").await;
        let err = sync_school(&state, &school, SyncKind::Full).await.expect_err("refused");
        assert!(matches!(err, SyncError::Xporter(XporterError::Refused { status: 401, .. })), "{err:?}");
        assert!(pupil_table(&app, &school).await.is_empty());
        assert!(requests(&stub, "users").is_empty(), "no data call without a token");
        assert!(!err.to_string().contains("not-the-secret"), "the secret is never shown");

        // The job fails at once (no retries).
        let job_id = {
            let mut pooled = app.db.conn().await.expect("connection");
            queue_now(&mut pooled.db(), &school, SyncKind::Full).await.expect("queue").expect("queued")
        };
        let registry = Registry::empty().register::<SyncMis>();
        match run_once(&state, &registry, "w1", &WorkerSettings::default()).await.expect("run") {
            Outcome::Failed { error, .. } => assert!(error.contains("Groupcall Xporter refused"), "{error}"),
            other => panic!("expected a failure, got {other:?}"),
        }
        let mut pooled = app.db.conn().await.expect("connection");
        let job = voicemark::jobs::find(&mut pooled.db(), &job_id).await.expect("find").expect("job");
        assert_eq!(job.status, "FAILED");
        let runs = store::recent_runs(&mut pooled.db(), &school, 5).await.expect("runs");
        assert!(runs.iter().all(|r| r.status == "FAILED"));
    }
);

dual_test!(
    async fn the_sync_job_waits_for_retry_after(app: TestApp) {
        let (base, stub) = xporter_stub(generate(20)).await;
        stub.lock().unwrap().rate_limit = 1;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 10, SECRET).await;
        let job_id = {
            let mut pooled = app.db.conn().await.expect("connection");
            queue_now(&mut pooled.db(), &school, SyncKind::Full).await.expect("queue").expect("queued")
        };
        let registry = Registry::empty().register::<SyncMis>();
        let before = now();
        match run_once(&state, &registry, "w1", &WorkerSettings::default()).await.expect("run") {
            Outcome::Failed { error, .. } => assert_eq!(error, "Groupcall Xporter asked to wait 7 s"),
            other => panic!("expected a 429 failure, got {other:?}"),
        }
        let mut pooled = app.db.conn().await.expect("connection");
        let job = voicemark::jobs::find(&mut pooled.db(), &job_id).await.expect("find").expect("job");
        let wait = (job.run_at - before).num_seconds();
        assert!((6..=8).contains(&wait), "Retry-After honoured: {wait}");
        assert_eq!(job.status, "QUEUED");
        drop(pooled);
        // Once the wait is over the same school syncs.
        let report = sync_school(&state, &school, SyncKind::Full).await.expect("sync").expect("ran");
        assert_eq!(report.applied.added, 20);
    }
);

dual_test!(
    async fn a_page_failing_half_way_changes_nothing(app: TestApp) {
        let (base, stub) = xporter_stub(generate(300)).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 20, SECRET).await;
        sync_school(&state, &school, SyncKind::Full).await.expect("full").expect("ran");
        let before = pupil_table(&app, &school).await;
        let links_before = count_links(&app, &school).await;

        {
            let mut data = stub.lock().unwrap();
            for user in data.users.iter_mut().filter(|u| u["role"] == json!("student")) {
                user["familyName"] = json!("Renamed");
            }
            data.users.retain(|u| u["sourcedId"] != json!(pupil_id(3)));
            data.fail_users_page = Some(3);
        }
        let err = sync_school(&state, &school, SyncKind::Full).await.expect_err("the page fails");
        assert!(matches!(err, SyncError::Xporter(XporterError::Answered { status: 500, .. })), "{err:?}");
        assert_eq!(pupil_table(&app, &school).await, before, "nothing changed");
        assert_eq!(count_links(&app, &school).await, links_before);

        // A Link next on another host is refused (the token would go there).
        {
            let mut data = stub.lock().unwrap();
            data.fail_users_page = None;
            data.link_paging = true;
            data.foreign_next = true;
        }
        let err = sync_school(&state, &school, SyncKind::Full).await.expect_err("foreign next");
        assert!(matches!(&err, SyncError::Xporter(XporterError::ForeignNext(host)) if host == "xporter.attacker.example"), "{err:?}");
        assert_eq!(pupil_table(&app, &school).await, before);
    }
);

dual_test!(
    async fn a_school_has_one_source(app: TestApp) {
        let (base, _stub) = xporter_stub(generate(5)).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 10, SECRET).await;
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        assert_eq!(store::connected_source(&mut conn, &school).await.expect("source"), Some(voicemark::mis::Source::Groupcall));
        assert!(save_wonde_credentials(&mut conn, &state.secrets, &school, "A1930499544", "wonde-token").await.expect("save"));
        assert_eq!(store::connected_source(&mut conn, &school).await.expect("source"), Some(voicemark::mis::Source::Wonde));
        assert_eq!(store::groupcall_credentials(&mut conn, &school).await.expect("read"), Some((None, None)), "Groupcall's cleared");
        assert!(save_groupcall_credentials(&mut conn, &state.secrets, &school, GROUPCALL_ID, SECRET).await.expect("save"));
        assert_eq!(store::wonde_credentials(&mut conn, &school).await.expect("read"), Some((None, None)), "Wonde's cleared");
        let (_, sealed) = store::groupcall_credentials(&mut conn, &school).await.expect("read").expect("school");
        let sealed = sealed.expect("a sealed secret");
        assert!(!sealed.contains(SECRET), "sealed at rest");
        assert_eq!(state.secrets.open(&sealed).expect("opens"), SECRET);
    }
);

dual_test!(
    async fn the_cli_stores_the_secret_sealed_and_runs_one_full_sync(app: TestApp) {
        let (base, _stub) = xporter_stub(generate(20)).await;
        let name = format!("CLI Groupcall {}", &new_id()[..8]);
        let school = make_school(&app, &name).await;
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(&mut pooled.db(), |c| diesel::update(schools::table.find(&school))
                .set((schools::stripe_product_id.eq("prod_PRO"), schools::seats.eq(10)))
                .execute(c)
                .await)
            .expect("plan");
        }
        let run = |secret: &'static str| {
            let (url, dir, base, name) = (app.url.as_str().to_owned(), app.dir.to_string_lossy().into_owned(), base.clone(), name.clone());
            tokio::task::spawn_blocking(move || {
                std::process::Command::new(env!("CARGO_BIN_EXE_voicemark"))
                    .args(["sync", "groupcall", "--school", &name, "--groupcall-id", GROUPCALL_ID, "--secret", secret])
                    .env_remove("DATABASE_URL")
                    .env("DATABASE_URL", url)
                    .env("VOICEMARK_DATA_DIR", dir)
                    .env("VOICEMARK_XPORTER_URL", base)
                    .env("RUST_LOG", "warn")
                    .output()
                    .expect("run voicemark")
            })
        };
        let refused = run("wrong-secret").await.expect("join");
        assert_eq!(refused.status.code(), Some(1));
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(err.contains("Groupcall Xporter refused the request (401)"), "{err}");
        assert!(!err.contains("wrong-secret"));

        let output = run(SECRET).await.expect("join");
        let out = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{out}{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(out.trim(), format!("Synced {name} from Groupcall Xporter: 20 added, 0 updated, 0 archived, 3 staff invited."));
        let mut pooled = app.db.conn().await.expect("connection");
        let (id, sealed) = store::groupcall_credentials(&mut pooled.db(), &school).await.expect("read").expect("school");
        assert_eq!(id.as_deref(), Some(GROUPCALL_ID));
        assert!(!sealed.expect("sealed").contains(SECRET), "sealed at rest");
    }
);
