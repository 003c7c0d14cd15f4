//! The MIS sync from Wonde (docs/mis-sync.md) against a stub Wonde server on loopback that
//! speaks Wonde's shapes: Bearer tokens, `{"data":[..],"meta":{"pagination":{"next",..}}}`
//! with `next` carrying the query, `per_page` as a string, includes wrapped in `{"data":..}`
//! (and left out when not asked for), PHP DateTime objects, `null` for unapproved scopes,
//! `updated_after` filtering, `/deletions`, 429 with `Retry-After`, a page that fails half
//! way, and an optional delay per page. The sync runs on both databases.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{class_students, classes, form_groups, mis_sync_runs, schools, students, submissions, users, year_groups};
use voicemark::ids::{new_id, new_token};
use voicemark::jobs::mis_sync::{next_delta_slot, next_full_slot, queue_now, SyncMis};
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{BackgroundJob, Registry, WorkerSettings};
use voicemark::mis::sync::{run as sync_school, save_wonde_credentials, SyncError};
use voicemark::mis::SyncKind;
use voicemark::models::{mis as store, notifications, now, students as pupils};
use voicemark::providers::wonde::WondeError;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::support::{make_school, peak_mb, reset_peak, TestApp};

pub const TOKEN: &str = "wonde-test-token-7e76896f9aca";
pub const WONDE_ID: &str = "A1930499544";

// ---------------------------------------------------------------------------------------
// The stub Wonde server

/// A PHP DateTime as Wonde writes it.
pub fn php(at: chrono::NaiveDateTime) -> Value {
    json!({"date": at.format("%Y-%m-%d %H:%M:%S%.6f").to_string(), "timezone_type": 3, "timezone": "UTC"})
}

/// What the stub serves, and the trouble it makes on request.
#[derive(Default)]
pub struct School {
    pub students: Vec<Value>,
    pub classes: Vec<Value>,
    pub groups: Vec<Value>,
    pub employees: Vec<Value>,
    pub deletions: Vec<Value>,
    /// The students page that answers 500 (1-based), once per request of it.
    pub fail_students_page: Option<usize>,
    /// Answer the next N list requests with 429 and `Retry-After: 7`.
    pub rate_limit: usize,
    /// Each page waits this long before answering.
    pub delay: Duration,
    /// A `next` on another host.
    pub foreign_next: bool,
    /// Every request: "endpoint?query".
    pub requests: Vec<String>,
}

pub type Stub = Arc<Mutex<School>>;

/// Which include names each list knows (others are a 422, as Wonde answers).
fn known_includes(endpoint: &str) -> &'static [&'static str] {
    match endpoint {
        "students" => &["year", "registration", "classes", "education_details", "contact_details", "contacts", "contacts.contact_details"],
        "classes" => &["employees", "students", "subject"],
        "employees" => &["employment_details", "contact_details", "classes"],
        "groups" => &["students", "employees"],
        _ => &[],
    }
}

async fn school_object(
    State(stub): State<(Stub, String)>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    if let Err(answer) = check(&headers) {
        return answer;
    }
    stub.0.lock().unwrap().requests.push(format!("school {id}"));
    if id != WONDE_ID {
        return (StatusCode::NOT_FOUND, Json(json!({"error": "Not found", "error_description": "School not found"}))).into_response();
    }
    Json(json!({"data": {"id": id, "name": "Wonde Testing School", "establishment_number": "6006",
        "timezone": "Europe/London", "mis": "SIMS",
        "region": {"code": "GBR", "domain": "api.wonde.com", "school_url": format!("https://api.wonde.com/v1.0/schools/{id}")}}}))
    .into_response()
}

fn check(headers: &HeaderMap) -> Result<(), Response> {
    let auth = headers.get("authorization").and_then(|v| v.to_str().ok());
    if auth != Some(&format!("Bearer {TOKEN}")) {
        return Err((StatusCode::UNAUTHORIZED, Json(json!({"error": "invalid_token", "error_description": "The access token provided is invalid."}))).into_response());
    }
    Ok(())
}

/// Keeps only the includes asked for (an include not asked for is absent, as at Wonde).
fn shape(record: &Value, includes: &[&str], all: &[&str]) -> Value {
    let mut record = record.clone();
    if let Some(map) = record.as_object_mut() {
        for name in all.iter().filter(|n| !n.contains('.')) {
            if !includes.iter().any(|i| i == name || i.starts_with(&format!("{name}."))) {
                map.remove(*name);
            }
        }
    }
    record
}

async fn list(
    State((stub, base)): State<(Stub, String)>,
    headers: HeaderMap,
    Path((id, endpoint)): Path<(String, String)>,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    if let Err(answer) = check(&headers) {
        return answer;
    }
    let get = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let page: usize = get("page").and_then(|p| p.parse().ok()).unwrap_or(1);
    let per_page: usize = get("per_page").and_then(|p| p.parse().ok()).unwrap_or(50);
    let delay = {
        let mut school = stub.lock().unwrap();
        let q: Vec<String> = query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        school.requests.push(format!("{endpoint}?{}", q.join("&")));
        if school.rate_limit > 0 {
            school.rate_limit -= 1;
            return (StatusCode::TOO_MANY_REQUESTS, [("retry-after", "7")], Json(json!({"error": "Too Many Attempts."}))).into_response();
        }
        school.delay
    };
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let school = stub.lock().unwrap();
    if id != WONDE_ID {
        return (StatusCode::FORBIDDEN, Json(json!({"error": "School has not approved access"}))).into_response();
    }
    if endpoint == "students" && school.fail_students_page == Some(page) {
        return (StatusCode::INTERNAL_SERVER_ERROR, "<html><body>Server Error</body></html>").into_response();
    }
    let all = known_includes(&endpoint);
    let include = get("include").unwrap_or_default();
    let includes: Vec<&str> = include.split(',').filter(|s| !s.is_empty()).collect();
    if let Some(bad) = includes.iter().find(|i| !all.contains(i)) {
        return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"error": format!("Invalid include: {bad}")}))).into_response();
    }
    let records: &Vec<Value> = match endpoint.as_str() {
        "students" => &school.students,
        "classes" => &school.classes,
        "groups" => &school.groups,
        "employees" => &school.employees,
        "deletions" => &school.deletions,
        _ => return (StatusCode::NOT_FOUND, Json(json!({"error": "Not found"}))).into_response(),
    };
    let after = get("updated_after");
    let matching: Vec<&Value> = records
        .iter()
        .filter(|r| match &after {
            None => true,
            Some(after) => r["updated_at"]["date"].as_str().is_some_and(|d| &d[..19] > after.as_str()),
        })
        .collect();
    let data: Vec<Value> = matching
        .iter()
        .skip((page - 1) * per_page)
        .take(per_page)
        .map(|r| shape(r, &includes, all))
        .collect();
    let more = page * per_page < matching.len();
    let next = more.then(|| {
        let host = if school.foreign_next { "http://wonde.attacker.example".to_owned() } else { base.clone() };
        let mut url = url::Url::parse(&format!("{host}/v1.0/schools/{id}/{endpoint}")).unwrap();
        {
            let mut pairs = url.query_pairs_mut();
            for (k, v) in query.iter().filter(|(k, _)| k != "page") {
                pairs.append_pair(k, v);
            }
            pairs.append_pair("page", &(page + 1).to_string());
        }
        url.to_string()
    });
    Json(json!({"data": data, "meta": {"pagination": {"next": next, "previous": null, "more": more,
        "per_page": per_page.to_string(), "current_page": page}, "includes": includes}}))
    .into_response()
}

/// Starts the stub on a free port: (base URL, its data).
pub async fn wonde_stub(school: School) -> (String, Stub) {
    let stub: Stub = Arc::new(Mutex::new(school));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    let base = format!("http://{addr}");
    let routes = Router::new()
        .route("/v1.0/schools/{id}", get(school_object))
        .route("/v1.0/schools/{id}/{endpoint}", get(list))
        .with_state((stub.clone(), base.clone()));
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    (base, stub)
}

/// Sizes of a generated school.
pub struct Sizes {
    pub pupils: usize,
    /// Contacts of even pupils (odd ones have one fewer); the first has responsibility and
    /// an e-mail, except every 50th pupil's.
    pub contacts: usize,
    pub classes: usize,
    pub staff: usize,
}

pub fn pupil_id(n: usize) -> String {
    format!("A{:09}", 100_000 + n)
}

pub fn form_id(n: usize) -> String {
    format!("B{:05}", n % 40)
}

/// A school in Wonde's shapes. Pupil n: year 7 + n % 5, form B{n % 40}, classes
/// C{n % classes} and C{(n + 7) % classes}; every 50th pupil has no parent address; the
/// pupils' own contact details are `null` (scope not approved).
pub fn generate(sizes: &Sizes) -> School {
    let old = now() - chrono::Duration::days(30);
    let years: Vec<Value> = (7..12)
        .map(|y| json!({"id": format!("Y{y}"), "mis_id": y.to_string(), "code": y.to_string(), "name": format!("Year {y}"), "description": format!("Year {y}"), "type": "YEAR", "updated_at": php(old)}))
        .collect();
    let forms: Vec<Value> = (0..40)
        .map(|f| json!({"id": form_id(f), "mis_id": (300 + f).to_string(), "code": format!("F{f:02}"), "name": format!("Form {f:02}"), "description": null, "type": "REGISTRATION", "updated_at": php(old)}))
        .collect();
    let mut groups = years.clone();
    groups.extend(forms.clone());
    groups.push(json!({"id": "H1", "name": "Newton", "code": "NEW", "type": "HOUSE", "updated_at": php(old)}));
    let employees: Vec<Value> = (0..sizes.staff)
        .map(|s| json!({"id": format!("E{s:05}"), "upi": new_token(), "mis_id": s.to_string(), "initials": "T", "title": "Ms",
            "forename": format!("Teacher{s}"), "surname": "Staff", "middle_names": null, "legal_forename": null, "legal_surname": null,
            "date_of_birth": null, "restored_at": null, "created_at": php(old), "updated_at": php(old),
            "employment_details": {"data": {"teaching_staff": true, "current": s % 20 != 19, "staff_code": format!("T{s:02}")}},
            "contact_details": {"data": {"emails": {"email": null, "work": format!("teacher{s}@wonde-school.test"), "primary": null, "home": null}}}}))
        .collect();
    let classes: Vec<Value> = (0..sizes.classes)
        .map(|c| json!({"id": format!("C{c:04}"), "mis_id": c.to_string(), "name": format!("Class {c:02}"), "code": format!("{c:02}/Ma"),
            "description": null, "subject": "S1", "alternative": null, "restored_at": null, "created_at": php(old), "updated_at": php(old),
            "employees": {"data": if sizes.staff == 0 { vec![] } else { vec![json!({"id": format!("E{:05}", c % sizes.staff)})] }}}))
        .collect();
    let students: Vec<Value> = (0..sizes.pupils)
        .map(|n| {
            let year = &years[n % 5];
            let form = &forms[n % 40];
            // Even pupils have `contacts` contacts, odd ones one fewer (at least one).
            let count = if n % 2 == 0 { sizes.contacts } else { sizes.contacts.saturating_sub(1).max(1) };
            let contacts: Vec<Value> = (0..count)
                .map(|k| {
                    let email = if n % 50 == 0 { Value::Null } else { json!(format!("parent{k}.of.{n}@home.test")) };
                    json!({"id": format!("P{n:06}{k}"), "forename": "Pat", "surname": format!("Parent{n}"),
                        "relationship": {"relationship": if k == 0 { "Mother" } else { "Father" }, "parental_responsibility": true, "priority": k + 1, "lives_with_pupil": true},
                        "contact_details": {"data": {"emails": {"email": email, "primary": null, "home": null, "work": null}, "phones": {"mobile": null}}}})
                })
                .collect();
            let mut class_list = Vec::new();
            if sizes.classes > 0 {
                class_list.push(json!({"id": format!("C{:04}", n % sizes.classes)}));
                let second = (n + 7) % sizes.classes;
                if second != n % sizes.classes {
                    class_list.push(json!({"id": format!("C{second:04}")}));
                }
            }
            json!({"id": pupil_id(n), "upi": new_token(), "mis_id": n.to_string(), "initials": "P", "title": null,
                "surname": format!("Pupil{n:05}"), "forename": format!("Pat{n}"), "middle_names": null,
                "legal_surname": format!("Pupil{n:05}"), "legal_forename": format!("Patricia{n}"), "gender": "Female",
                "date_of_birth": {"date": "2013-04-02 00:00:00.000000", "timezone_type": 3, "timezone": "Europe/London"},
                "restored_at": null, "created_at": php(old), "updated_at": php(old),
                "year": {"data": year}, "registration": {"data": form}, "classes": {"data": class_list},
                "contact_details": null,
                "education_details": {"data": {"upn": format!("W{n:012}"), "former_upn": null, "admission_date": php(old), "leaving_date": null}},
                "contacts": {"data": contacts}})
        })
        .collect();
    School {
        students,
        classes,
        groups,
        employees,
        ..School::default()
    }
}

// ---------------------------------------------------------------------------------------
// The app under test

/// The app's state with Wonde pointed at the stub.
pub fn state_with(app: &TestApp, wonde_url: &str) -> AppState {
    let mut config = (*app.state.config).clone();
    config.mis.wonde_url = Some(wonde_url.to_owned());
    AppState::new(app.db.clone(), config).expect("state")
}

/// A Pro school with `seats` seats, connected to Wonde with the test token.
pub async fn connected_school(app: &TestApp, state: &AppState, seats: i32) -> String {
    let school = make_school(app, &format!("Wonde School {}", &new_id()[..8])).await;
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    with_conn!(&mut conn, |c| diesel::update(schools::table.find(&school))
        .set((schools::stripe_product_id.eq("prod_PRO"), schools::seats.eq(seats)))
        .execute(c)
        .await)
    .expect("plan");
    assert!(save_wonde_credentials(&mut conn, &state.secrets, &school, WONDE_ID, TOKEN).await.expect("save"));
    school
}

/// (wonde id, forename, surname, parent e-mail, form name, archived) of every synced pupil,
/// sorted: the whole of what a sync wrote, to compare before and after.
async fn pupil_table(app: &TestApp, school: &str) -> Vec<(String, String, String, Option<String>, Option<String>, bool)> {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let rows: Vec<(Option<String>, String, String, Option<String>, Option<String>, Option<chrono::NaiveDateTime>)> =
        with_conn!(&mut conn, |c| students::table
            .left_join(form_groups::table)
            .filter(students::school_id.eq(school))
            .order(students::wonde_id.asc())
            .select((students::wonde_id, students::forename, students::surname, students::parent_email, form_groups::name.nullable(), students::archived_at))
            .load(c)
            .await)
        .expect("pupils");
    rows.into_iter()
        .map(|(w, f, s, p, form, a)| (w.unwrap_or_default(), f, s, p, form, a.is_some()))
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

fn students_requests(stub: &Stub) -> Vec<String> {
    stub.lock().unwrap().requests.iter().filter(|r| r.starts_with("students?")).cloned().collect()
}

// ---------------------------------------------------------------------------------------
// Tests

dual_test!(
    async fn a_first_full_sync_brings_pupils_parents_classes_groups_and_staff(app: TestApp) {
        let (base, stub) = wonde_stub(generate(&Sizes { pupils: 1200, contacts: 2, classes: 40, staff: 20 })).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 100).await;
        // A pupil typed in by hand with a UPN the MIS also has is linked, not duplicated;
        // one with no UPN match stays as it is.
        {
            let mut pooled = app.db.conn().await.expect("connection");
            let mut conn = pooled.db();
            for (forename, upn) in [("Handmade", Some("W000000000003")), ("Manual", None)] {
                pupils::insert(&mut conn, &pupils::NewStudent {
                    id: new_id(), created_at: now(), updated_at: now(), forename: forename.into(), surname: "Typed".into(),
                    email: None, parent_email: None, upn: upn.map(str::to_owned), school_id: school.clone(),
                    year_group_id: None, form_group_id: None,
                }).await.expect("manual pupil");
            }
        }

        let report = sync_school(&state, &school, SyncKind::Full).await.expect("sync").expect("ran");
        assert_eq!(report.kind, SyncKind::Full);
        assert_eq!((report.applied.added, report.applied.updated, report.applied.archived), (1199, 1, 0));
        assert_eq!(report.applied.staff_invited, 19, "the one leaver of 20 is not invited");

        // Pages were followed through `next` (200 a page), with the includes asked for.
        let pages = students_requests(&stub);
        assert_eq!(pages.len(), 6, "{pages:?}");
        assert!(pages[0].contains("include=year,registration,classes,education_details,contact_details,contacts.contact_details"), "{}", pages[0]);
        assert!(pages[5].contains("page=6"), "{}", pages[5]);

        let table = pupil_table(&app, &school).await;
        assert_eq!(table.len(), 1201, "1,200 from the MIS and one manual pupil");
        let ada = table.iter().find(|r| r.0 == pupil_id(1)).expect("pupil 1");
        assert_eq!((ada.1.as_str(), ada.2.as_str()), ("Pat1", "Pupil00001"), "preferred names");
        assert_eq!(ada.3.as_deref(), Some("parent0.of.1@home.test"), "the priority-1 contact");
        assert_eq!(ada.4.as_deref(), Some("Form 01"));
        let no_parent = table.iter().find(|r| r.0 == pupil_id(50)).expect("pupil 50");
        assert_eq!(no_parent.3, None);
        let linked = table.iter().find(|r| r.0 == pupil_id(3)).expect("pupil 3 linked");
        assert_eq!(linked.1, "Pat3", "the MIS's names win on a linked pupil");
        assert!(table.iter().any(|r| r.0.is_empty() && r.1 == "Manual"), "the manual pupil is left alone");
        assert_eq!(count_links(&app, &school).await, 2400);

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let years: i64 = with_conn!(&mut conn, |c| year_groups::table.filter(year_groups::school_id.eq(&school)).count().get_result(c).await).expect("years");
        assert_eq!(years, 5);
        let forms: i64 = with_conn!(&mut conn, |c| form_groups::table.filter(form_groups::school_id.eq(&school)).filter(form_groups::wonde_id.is_not_null()).count().get_result(c).await).expect("forms");
        assert_eq!(forms, 40, "registration groups only (the house is skipped)");
        let staff: Vec<(String, bool, Option<String>)> = with_conn!(&mut conn, |c| users::table
            .filter(users::school_id.eq(&school))
            .order(users::email.asc())
            .select((users::email, users::activated, users::wonde_id))
            .load(c).await).expect("staff");
        assert_eq!(staff.len(), 19);
        assert!(staff.iter().all(|(_, activated, wonde)| !activated && wonde.is_some()), "pending, never activated silently");
        let last_full: Option<chrono::NaiveDateTime> = with_conn!(&mut conn, |c| schools::table.find(&school).select(schools::last_full_sync).first(c).await).expect("school");
        assert!(last_full.is_some(), "lastFullSync is set");

        // The token is kept sealed, never as plain text.
        let sealed: Option<String> = with_conn!(&mut conn, |c| schools::table.find(&school).select(schools::wonde_token).first(c).await).expect("token");
        let sealed = sealed.expect("a token");
        assert!(sealed.starts_with("v1:") && !sealed.contains(TOKEN), "{sealed}");
        assert_eq!(state.secrets.open(&sealed).as_deref(), Ok(TOKEN));

        // The run is recorded; its data problems are listed for the admin.
        let runs = store::recent_runs(&mut conn, &school, 5).await.expect("runs");
        assert_eq!(runs.len(), 1);
        assert_eq!((runs[0].status.as_str(), runs[0].added, runs[0].updated), ("DONE", 1199, 1));
        let problems = store::data_problems(&mut conn, &school).await.expect("problems");
        assert_eq!(problems.no_parent.len(), 24 + 1, "every 50th pupil, and the manual one");
        assert_eq!(problems.no_form.len(), 1, "the manual pupil");

        // A second full sync with nothing changed changes nothing.
        drop(pooled);
        let again = sync_school(&state, &school, SyncKind::Full).await.expect("sync").expect("ran");
        assert_eq!((again.applied.added, again.applied.updated, again.applied.archived, again.applied.staff_invited), (0, 0, 0, 0));
    }
);

/// Marks record `n` of `list` as changed now (so `updated_after` returns it).
fn touch(record: &mut Value) {
    record["updated_at"] = php(now() + chrono::Duration::minutes(1));
}

dual_test!(
    async fn a_delta_moves_a_pupil_changes_a_parent_and_archives_a_leaver_keeping_submissions(app: TestApp) {
        let (base, stub) = wonde_stub(generate(&Sizes { pupils: 300, contacts: 2, classes: 10, staff: 3 })).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 50).await;
        sync_school(&state, &school, SyncKind::Full).await.expect("full").expect("ran");

        // The leaver handed work in.
        let (leaver, notification) = {
            let mut pooled = app.db.conn().await.expect("connection");
            let mut conn = pooled.db();
            let leaver: String = with_conn!(&mut conn, |c| students::table.filter(students::wonde_id.eq(pupil_id(7))).select(students::id).first(c).await).expect("leaver");
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
        tokio::time::sleep(Duration::from_millis(1100)).await; // `updated_after` has whole seconds

        {
            let mut school_data = stub.lock().unwrap();
            // Pupil 1 moves from Form 01 to Form 02.
            let form2 = school_data.groups.iter().find(|g| g["id"] == json!(form_id(2))).cloned().expect("form 2");
            let moved = &mut school_data.students[1];
            moved["registration"] = json!({"data": form2});
            touch(moved);
            // Pupil 2's mother changes her address.
            let changed = &mut school_data.students[2];
            changed["contacts"]["data"][0]["contact_details"]["data"]["emails"]["email"] = json!("new.mum@home.test");
            touch(changed);
            // Pupil 7 leaves.
            school_data.students.remove(7);
            school_data.deletions.push(json!({"id": pupil_id(7), "type": "student", "mis_id": "7", "restored_at": null,
                "deleted_at": php(now()), "updated_at": php(now() + chrono::Duration::minutes(1))}));
        }

        let report = sync_school(&state, &school, SyncKind::Delta).await.expect("delta").expect("ran");
        assert_eq!(report.kind, SyncKind::Delta);
        assert_eq!((report.applied.added, report.applied.updated, report.applied.archived), (0, 2, 1));
        let pages = students_requests(&stub);
        assert!(pages.last().expect("a delta read").contains("updated_after="), "{pages:?}");
        assert!(stub.lock().unwrap().requests.iter().any(|r| r.starts_with("deletions?") && r.contains("updated_after=")));

        let table = pupil_table(&app, &school).await;
        let moved = table.iter().find(|r| r.0 == pupil_id(1)).expect("pupil 1");
        assert_eq!(moved.4.as_deref(), Some("Form 02"));
        let changed = table.iter().find(|r| r.0 == pupil_id(2)).expect("pupil 2");
        assert_eq!(changed.3.as_deref(), Some("new.mum@home.test"));
        let gone = table.iter().find(|r| r.0 == pupil_id(7)).expect("pupil 7 is kept");
        assert!(gone.5, "archived, not deleted");
        assert_eq!(table.iter().filter(|r| !r.5).count(), 299);

        // The leaver keeps the submission, and leaves the lists and the audiences.
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let kept: i64 = with_conn!(&mut conn, |c| submissions::table.filter(submissions::student_id.eq(&leaver)).filter(submissions::notification_id.eq(&notification)).count().get_result(c).await).expect("count");
        assert_eq!(kept, 1);
        let listed = pupils::list_for_school(&mut conn, &school).await.expect("list");
        assert_eq!(listed.len(), 299);
        assert!(listed.iter().all(|p| p.id != leaver));
        let (_, total) = pupils::list_pupils(&mut conn, &school, Some("Pupil00007"), None, None, 10).await.expect("search");
        assert_eq!(total, 0, "not in the admin's list");
    }
);

dual_test!(
    async fn a_run_that_fails_part_way_leaves_the_data_as_it_was(app: TestApp) {
        let (base, stub) = wonde_stub(generate(&Sizes { pupils: 700, contacts: 1, classes: 8, staff: 2 })).await;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 50).await;
        sync_school(&state, &school, SyncKind::Full).await.expect("full").expect("ran");
        let before = pupil_table(&app, &school).await;
        let links_before = count_links(&app, &school).await;

        // Everyone moves form and a pupil leaves, but page 3 of 4 fails.
        {
            let mut school_data = stub.lock().unwrap();
            let form5 = school_data.groups.iter().find(|g| g["id"] == json!(form_id(5))).cloned().expect("form 5");
            for pupil in &mut school_data.students {
                pupil["registration"] = json!({"data": form5});
                pupil["surname"] = json!("Renamed");
            }
            school_data.students.truncate(650);
            school_data.fail_students_page = Some(3);
        }
        let err = sync_school(&state, &school, SyncKind::Full).await.expect_err("the page fails");
        assert!(matches!(err, SyncError::Wonde(WondeError::Answered { status: 500, .. })), "{err:?}");
        assert_eq!(pupil_table(&app, &school).await, before, "nothing changed");
        assert_eq!(count_links(&app, &school).await, links_before);

        // A `next` on another host is refused (the token would go there).
        {
            let mut school_data = stub.lock().unwrap();
            school_data.fail_students_page = None;
            school_data.foreign_next = true;
        }
        let err = sync_school(&state, &school, SyncKind::Full).await.expect_err("foreign next");
        assert!(matches!(&err, SyncError::Wonde(WondeError::ForeignNext(host)) if host == "wonde.attacker.example"), "{err:?}");
        assert_eq!(pupil_table(&app, &school).await, before);

        let mut pooled = app.db.conn().await.expect("connection");
        let runs = store::recent_runs(&mut pooled.db(), &school, 5).await.expect("runs");
        assert_eq!(runs.iter().map(|r| r.status.as_str()).collect::<Vec<_>>(), vec!["FAILED", "FAILED", "DONE"]);
        assert!(runs[1].error.as_deref().unwrap_or_default().contains("Wonde answered 500"), "{:?}", runs[1].error);
        assert_eq!(runs[0].added + runs[0].updated + runs[0].archived, 0);
    }
);

dual_test!(
    async fn two_processes_asked_to_sync_one_school_at_once_run_it_once(app: TestApp) {
        let (base, stub) = wonde_stub(generate(&Sizes { pupils: 400, contacts: 1, classes: 4, staff: 0 })).await;
        stub.lock().unwrap().delay = Duration::from_millis(150);
        // Two processes: two states, each with its own pool, on one database.
        let first = state_with(&app, &base);
        let second = {
            let db = voicemark::db::Db::connect(&app.state.config.database.url, 4).await.expect("second pool");
            let mut config = (*app.state.config).clone();
            config.mis.wonde_url = Some(base.clone());
            AppState::new(db, config).expect("state")
        };
        let school = connected_school(&app, &first, 10).await;

        // Both queue 'Sync now': one job.
        {
            let mut a = first.db.conn().await.expect("a");
            let mut b = second.db.conn().await.expect("b");
            assert!(queue_now(&mut a.db(), &school, SyncKind::Full).await.expect("queue").is_some());
            assert!(queue_now(&mut b.db(), &school, SyncKind::Full).await.expect("queue").is_none(), "the same job");
        }
        // Both run a sync at the same moment: one runs, the other finds it running.
        let (a, b) = tokio::join!(sync_school(&first, &school, SyncKind::Full), sync_school(&second, &school, SyncKind::Full));
        let ran: Vec<_> = [a.expect("first"), b.expect("second")].into_iter().flatten().collect();
        assert_eq!(ran.len(), 1, "exactly one run");
        assert_eq!(ran[0].applied.added, 400);
        assert_eq!(students_requests(&stub).len(), 2, "the school was read once (2 pages)");

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let n: i64 = with_conn!(&mut conn, |c| students::table.filter(students::school_id.eq(&school)).count().get_result(c).await).expect("count");
        assert_eq!(n, 400);
        let runs: i64 = with_conn!(&mut conn, |c| mis_sync_runs::table.filter(mis_sync_runs::school_id.eq(&school)).count().get_result(c).await).expect("runs");
        assert_eq!(runs, 1);
    }
);

dual_test!(
    async fn the_sync_job_waits_for_retry_after_then_schedules_the_next_syncs(app: TestApp) {
        let (base, stub) = wonde_stub(generate(&Sizes { pupils: 30, contacts: 1, classes: 2, staff: 1 })).await;
        stub.lock().unwrap().rate_limit = 1;
        let state = state_with(&app, &base);
        let school = connected_school(&app, &state, 10).await;
        let job_id = {
            let mut pooled = app.db.conn().await.expect("connection");
            queue_now(&mut pooled.db(), &school, SyncKind::Full).await.expect("queue").expect("queued")
        };
        let registry = Registry::empty().register::<SyncMis>();
        let settings = WorkerSettings::default();
        let before = now();
        match run_once(&state, &registry, "w1", &settings).await.expect("run") {
            Outcome::Failed { error, .. } => assert_eq!(error, "Wonde asked to wait 7 s"),
            other => panic!("expected a 429 failure, got {other:?}"),
        }
        let mut pooled = app.db.conn().await.expect("connection");
        let job = voicemark::jobs::find(&mut pooled.db(), &job_id).await.expect("find").expect("job");
        let wait = (job.run_at - before).num_seconds();
        assert!((6..=8).contains(&wait), "Retry-After honoured, not the 30 s backoff: {wait}");
        assert_eq!(job.status, "QUEUED");

        // The next delta and full sync are queued for the school (each once).
        let kinds: Vec<(String, Option<String>)> = with_conn!(&mut pooled.db(), |c| voicemark::db::schema::jobs::table
            .filter(voicemark::db::schema::jobs::kind.eq(<SyncMis as BackgroundJob>::KIND))
            .select((voicemark::db::schema::jobs::status, voicemark::db::schema::jobs::idempotency_key))
            .load(c).await).expect("jobs");
        let keys: Vec<&str> = kinds.iter().filter_map(|(_, k)| k.as_deref()).collect();
        // Except in the last delta slot before the nightly full sync (by default from 01:00 to
        // 02:00 UTC): a delta there would only repeat the full sync, so none is queued.
        let mis = &state.config.mis;
        let delta_due = next_delta_slot(before, mis.delta_minutes) != next_full_slot(before, mis.full_sync_hour);
        assert_eq!(keys.len(), if delta_due { 3 } else { 2 }, "{keys:?}");
        assert_eq!(keys.iter().any(|k| k.contains(":DELTA:")), delta_due, "{keys:?}");
        assert!(keys.iter().any(|k| k.contains(":FULL:")), "{keys:?}");
    }
);

// ---------------------------------------------------------------------------------------
// Figures (ignored: run by name, prints figures)

async fn figures(backend: crate::support::TestBackend) {
    let app = TestApp::new(backend).await;
    let (base, stub) = wonde_stub(generate(&Sizes { pupils: 2000, contacts: 2, classes: 80, staff: 60 })).await;
    let contacts: usize = stub.lock().unwrap().students.iter().map(|s| s["contacts"]["data"].as_array().map_or(0, Vec::len)).sum();
    assert_eq!(contacts, 3000);
    let state = state_with(&app, &base);
    let school = connected_school(&app, &state, 200).await;
    reset_peak();
    let before = peak_mb();
    let started = std::time::Instant::now();
    let full = sync_school(&state, &school, SyncKind::Full).await.expect("full").expect("ran");
    let full_time = started.elapsed();
    let after = peak_mb();
    assert_eq!(full.applied.added, 2000);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    {
        let mut school_data = stub.lock().unwrap();
        for n in 0..50 {
            let pupil = &mut school_data.students[n * 37];
            pupil["surname"] = json!(format!("Changed{n}"));
            touch(pupil);
        }
    }
    let started = std::time::Instant::now();
    let delta = sync_school(&state, &school, SyncKind::Delta).await.expect("delta").expect("ran");
    let delta_time = started.elapsed();
    assert_eq!((delta.applied.updated, delta.kind), (50, SyncKind::Delta));
    println!(
        "FIGURES {backend:?}: full sync of 2,000 pupils / 3,000 contacts / 80 classes / 60 staff: {:.2} s, peak RSS {before:.0} MB before -> {after:.0} MB after; delta of 50 changes: {:.3} s",
        full_time.as_secs_f64(),
        delta_time.as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: run by name"]
async fn wonde_sync_figures_sqlite() {
    figures(crate::support::TestBackend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: run by name"]
async fn wonde_sync_figures_postgres() {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    figures(crate::support::TestBackend::Postgres).await;
}
