//! Privacy requests about one pupil: the export zip (`GET /api/privacy/pupils/{id}/export`),
//! erasure (`admin.erasePupil`) and the profile-view log (`admin.profileViews`). The export
//! holds the pupil's data and files and nothing of another pupil; erasure leaves nothing
//! that names the pupil in any table (every column of every table is searched) or the
//! store; both refuse other schools and other roles and are audited.

use std::io::Read;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{erased_receipts, notifications, students};
use voicemark::db::Backend;
use voicemark::models::now;
use voicemark::models::receipts::{self, NewReceipt};
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{hand_in, mutate, query, staff, world, World};
use crate::support::TestApp;

const AMELIA_EMAIL: &str = "amelia.pupil@pupils.test";
const AMELIA_PARENT: &str = "amelia.parent@home.test";
const OLIVER_PARENT: &str = "oliver.parent@home.test";

/// Hands a file in for a submission through the pupil's upload route.
async fn upload(app: &TestApp, (id, token): &(String, String), filename: &str, body: &'static [u8]) {
    let request = Request::post(format!("/api/submissions/{id}/{token}/files"))
        .header("x-filename", filename)
        .header("content-type", "text/plain")
        .body(Body::from(body))
        .expect("request");
    let response = app.request(request).await;
    assert_eq!(response.status, StatusCode::CREATED, "{}", response.text());
}

/// The world of the submission tests, plus for both pupils: addresses, a handed-in file and
/// a comment, a sent receipt, the notification's audience naming them, a marked submission
/// (which queues feedback e-mail jobs) and a profile view.
async fn scene(app: &TestApp) -> World {
    let w = world(app).await;
    let mut pooled = app.db.conn().await.expect("connection");
    let [amelia, oliver] = &w.pupils;
    with_conn!(pooled.db(), |c| async {
        diesel::update(students::table.find(amelia))
            .set((students::email.eq(AMELIA_EMAIL), students::parent_email.eq(AMELIA_PARENT)))
            .execute(c)
            .await?;
        diesel::update(students::table.find(oliver))
            .set(students::parent_email.eq(OLIVER_PARENT))
            .execute(c)
            .await?;
        diesel::update(notifications::table.find(&w.notification))
            .set(notifications::filters.eq(json!({"students": [amelia, oliver]}).to_string()))
            .execute(c)
            .await
    }
    .await)
    .expect("addresses");
    for pupil in [amelia, oliver] {
        receipts::insert_receipt(
            &mut pooled.db(),
            &NewReceipt { notification_id: w.notification.clone(), student_id: pupil.clone(), sent_at: Some(now()) },
        )
        .await
        .expect("receipt");
    }
    drop(pooled);
    upload(app, &w.submissions[0], "amelia-letter.txt", b"Dear Sir, Amelia's letter").await;
    upload(app, &w.submissions[1], "oliver-letter.txt", b"Dear Madam, Oliver's letter").await;
    hand_in(app, &w.submissions[0], "Amelia's answer").await.data();
    hand_in(app, &w.submissions[1], "Oliver's answer").await.data();
    for (i, pupil) in w.pupils.iter().enumerate() {
        mutate(app, "feedback.mark", json!({"submissionId": w.submissions[i].0, "feedback": format!("Feedback for {i}"), "sentiment": "POSITIVE"}), Some(&w.teacher.cookie)).await.data();
        mutate(app, "student.addComment", json!({"studentId": pupil, "comment": format!("Comment on pupil {i}")}), Some(&w.teacher.cookie)).await.data();
        query(app, "student.get", json!({"id": pupil}), Some(&w.colleague.cookie)).await.data();
    }
    w
}

async fn export(app: &TestApp, pupil: &str, cookie: Option<&str>) -> crate::support::TestResponse {
    let mut request = Request::get(format!("/api/privacy/pupils/{pupil}/export"));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    app.request(request.body(Body::empty()).expect("request")).await
}

/// Every entry of a zip: (name, bytes).
fn entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a zip");
    (0..zip.len())
        .map(|i| {
            let mut file = zip.by_index(i).expect("entry");
            let mut data = Vec::new();
            file.read_to_end(&mut data).expect("read");
            (file.name().expect("entry name").to_string(), data)
        })
        .collect()
}

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// For every table of the database, how many rows hold `needle` (case-insensitive) in any
/// column: `(table, rows)` for the tables where some do.
async fn tables_holding(app: &TestApp, needle: &str) -> Vec<(String, i64)> {
    let mut pooled = app.db.conn().await.expect("connection");
    let (tables_sql, columns_sql): (&str, fn(&str) -> String) = match app.backend() {
        Backend::Sqlite => (
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__diesel%'",
            |t| format!("SELECT name FROM pragma_table_info('{t}')"),
        ),
        Backend::Postgres => (
            "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE '__diesel%'",
            |t| format!("SELECT column_name::text AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '{t}'"),
        ),
    };
    let tables: Vec<Name> = with_conn!(pooled.db(), |c| diesel::sql_query(tables_sql).load(c).await).expect("tables");
    let mut found = Vec::new();
    for table in tables {
        let columns: Vec<Name> =
            with_conn!(pooled.db(), |c| diesel::sql_query(columns_sql(&table.name)).load(c).await).expect("columns");
        let row = columns
            .iter()
            .map(|col| format!("COALESCE(CAST(\"{}\" AS TEXT), '')", col.name))
            .collect::<Vec<_>>()
            .join(" || '|' || ");
        let sql = format!(
            "SELECT COUNT(*) AS n FROM \"{}\" WHERE LOWER({row}) LIKE '%{}%'",
            table.name,
            needle.to_lowercase().replace('\'', "''")
        );
        let count: Count = with_conn!(pooled.db(), |c| diesel::sql_query(&sql).get_result(c).await).expect("count");
        if count.n > 0 {
            found.push((table.name, count.n));
        }
    }
    found
}

fn files_on_disk(app: &TestApp, submission: &str) -> usize {
    std::fs::read_dir(app.dir.join("files/submissions").join(submission)).map_or(0, |d| d.count())
}

dual_test!(
    async fn the_export_holds_the_pupils_data_and_files_and_nothing_of_another_pupil(app: TestApp) {
        let w = scene(&app).await;
        let [amelia, oliver] = &w.pupils;
        let answer = export(&app, amelia, Some(&w.admin.cookie)).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.header("content-type"), Some("application/zip"));
        assert!(answer.header("content-disposition").unwrap_or("").contains("Amelia Pupil - data export.zip"));
        let zip = entries(&answer.body);
        let names: Vec<&str> = zip.iter().map(|(n, _)| n.as_str()).collect();
        for expected in ["profile.json", "contacts.json", "submissions.json", "feedback.json", "comments.json", "notification-receipts.json", "audit-log.json"] {
            assert!(names.contains(&expected), "{expected} in {names:?}");
        }
        let letter = format!("files/{}/amelia-letter.txt", w.submissions[0].0);
        let file = zip.iter().find(|(n, _)| *n == letter).unwrap_or_else(|| panic!("{letter} in {names:?}"));
        assert_eq!(file.1, b"Dear Sir, Amelia's letter");

        let doc = |name: &str| -> Value {
            serde_json::from_slice(&zip.iter().find(|(n, _)| n == name).expect("document").1).expect("JSON")
        };
        assert_eq!(doc("profile.json")["forename"], "Amelia");
        assert_eq!(doc("profile.json")["classes"], json!(["Year 7 English"]));
        assert_eq!(doc("contacts.json")["parentEmail"], AMELIA_PARENT);
        assert_eq!(doc("submissions.json")[0]["content"], "Amelia's answer");
        assert_eq!(doc("feedback.json")[0]["feedback"], "Feedback for 0");
        assert_eq!(doc("comments.json")[0]["comment"], "Comment on pupil 0");
        assert_eq!(doc("notification-receipts.json")[0]["title"], "Persuasive letter");
        let audit = doc("audit-log.json");
        assert!(audit.as_array().expect("rows").iter().any(|r| r["action"] == "READ" && r["entity"] == "student" && r["by"] == "Colin Staff"), "{audit}");

        // Nothing of Oliver anywhere in the zip.
        for (name, bytes) in &zip {
            let text = String::from_utf8_lossy(bytes).to_lowercase();
            for other in [oliver.as_str(), w.submissions[1].0.as_str(), "oliver", OLIVER_PARENT, "pupil 1", "feedback for 1"] {
                assert!(!text.contains(&other.to_lowercase()), "{name} mentions {other}");
            }
        }

        // The export is audited.
        let mut pooled = app.db.conn().await.expect("connection");
        let rows = voicemark::models::audit::for_entity(&mut pooled.db(), "student", amelia).await.expect("audit");
        assert!(rows.contains(&("READ".to_owned(), Some(w.admin.id.clone()))), "{rows:?}");
        drop(pooled);

        // Signed out 401, a teacher 403, another school's admin 404, an unknown id 404.
        assert_eq!(export(&app, amelia, None).await.status, StatusCode::UNAUTHORIZED);
        assert_eq!(export(&app, amelia, Some(&w.teacher.cookie)).await.status, StatusCode::FORBIDDEN);
        let outsider = staff(&app, Some(&crate::support::make_school(&app, "Faraway").await), UserRole::Admin, "Olga").await;
        assert_eq!(export(&app, amelia, Some(&outsider.cookie)).await.status, StatusCode::NOT_FOUND);
        assert_eq!(export(&app, "no-such-pupil", Some(&w.admin.cookie)).await.status, StatusCode::NOT_FOUND);
    }
);

dual_test!(
    async fn erasure_leaves_nothing_of_the_pupil_in_the_database_or_the_store(app: TestApp) {
        let w = scene(&app).await;
        let [amelia, oliver] = &w.pupils;
        let needles = [amelia.as_str(), w.submissions[0].0.as_str(), "amelia", AMELIA_EMAIL, AMELIA_PARENT, "comment on pupil 0", "feedback for 0"];
        for needle in needles {
            assert!(!tables_holding(&app, needle).await.is_empty(), "{needle} is there before");
        }
        assert_eq!(files_on_disk(&app, &w.submissions[0].0), 1);

        // Only an admin of the pupil's school may erase.
        let refused = mutate(&app, "admin.erasePupil", json!({"id": amelia}), Some(&w.teacher.cookie)).await;
        assert_eq!(refused.code(), "FORBIDDEN");
        let outsider = staff(&app, Some(&crate::support::make_school(&app, "Faraway").await), UserRole::Admin, "Olga").await;
        let refused = mutate(&app, "admin.erasePupil", json!({"id": amelia}), Some(&outsider.cookie)).await;
        assert_eq!(refused.code(), "NOT_FOUND");
        assert_eq!(refused.message(), "Pupil not found.");

        mutate(&app, "admin.erasePupil", json!({"id": amelia}), Some(&w.admin.cookie)).await.data();

        for needle in needles {
            assert_eq!(tables_holding(&app, needle).await, Vec::<(String, i64)>::new(), "{needle} is left");
        }
        assert_eq!(files_on_disk(&app, &w.submissions[0].0), 0);

        // The sent message's receipt stays, without the pupil.
        let mut pooled = app.db.conn().await.expect("connection");
        let kept: i64 = with_conn!(pooled.db(), |c| erased_receipts::table
            .filter(erased_receipts::notification_id.eq(&w.notification))
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(kept, 1);
        drop(pooled);

        // Oliver is untouched: his data, file, audience place and export.
        for needle in [oliver.as_str(), "oliver", OLIVER_PARENT, "comment on pupil 1"] {
            assert!(!tables_holding(&app, needle).await.is_empty(), "{needle} is kept");
        }
        assert_eq!(files_on_disk(&app, &w.submissions[1].0), 1);
        assert_eq!(export(&app, oliver, Some(&w.admin.cookie)).await.status, StatusCode::OK);

        // The erasure is audited without the pupil; the profile-view log says who looked.
        let views = query(&app, "admin.profileViews", json!({}), Some(&w.admin.cookie)).await;
        let views = views.data().clone();
        let rows = views["views"].as_array().expect("views");
        assert_eq!(views["total"], 2);
        assert!(rows.iter().any(|r| r["pupil"] == "Erased pupil" && r["viewer"] == "Colin Staff"), "{views}");
        assert!(rows.iter().any(|r| r["pupil"] == "Oliver Pupil"), "{views}");
        let erased = tables_holding(&app, "erase").await;
        assert!(erased.iter().any(|(t, n)| t == "audit_log" && *n >= 1), "{erased:?}");

        // Erasing again: the pupil is not found.
        let again = mutate(&app, "admin.erasePupil", json!({"id": amelia}), Some(&w.admin.cookie)).await;
        assert_eq!(again.code(), "NOT_FOUND");
    }
);

dual_test!(
    async fn the_profile_view_log_is_the_schools_own_newest_first_and_admin_only(app: TestApp) {
        let w = world(&app).await;
        let [amelia, oliver] = &w.pupils;
        query(&app, "student.get", json!({"id": amelia}), Some(&w.teacher.cookie)).await.data();
        query(&app, "student.get", json!({"id": oliver}), Some(&w.colleague.cookie)).await.data();
        let page = query(&app, "admin.profileViews", json!({"page": 1}), Some(&w.admin.cookie)).await;
        let page = page.data().clone();
        assert_eq!(page["total"], 2);
        assert_eq!(page["views"][0]["pupil"], "Oliver Pupil");
        assert_eq!(page["views"][0]["viewer"], "Colin Staff");
        assert_eq!(page["views"][1]["pupil"], "Amelia Pupil");
        assert!(page["views"][0]["at"].is_string());
        let teacher = query(&app, "admin.profileViews", json!({}), Some(&w.teacher.cookie)).await;
        assert_eq!(teacher.code(), "FORBIDDEN");
        let outsider = staff(&app, Some(&crate::support::make_school(&app, "Faraway").await), UserRole::Admin, "Olga").await;
        let other = query(&app, "admin.profileViews", json!({}), Some(&outsider.cookie)).await;
        assert_eq!(other.data()["total"], 0);
    }
);
