//! Year groups belong to a school: one school cannot list, rename or use another's, and
//! the hardening migration splits a year group that several schools shared into one per
//! school, re-pointing pupils and notification filters.

use core_wasm::UserRole;
use diesel::sql_types::Text;
use diesel::QueryableByName;
use diesel_async::{RunQueryDsl, SimpleAsyncConnection};
use serde_json::{json, Value};
use voicemark::db::Db;
use voicemark::with_conn;

use crate::admin::{mutate, query, signed_in};
use crate::dual_test;
use crate::support::{fresh_database, make_school, TestBackend};

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|g| g["name"].as_str().expect("name").to_owned())
        .collect()
}

dual_test!(
    async fn a_school_cannot_see_or_change_another_schools_year_groups(app: TestApp) {
        let north = make_school(&app, "Northbridge").await;
        let river = make_school(&app, "Riverside").await;
        let (_, north_admin) = signed_in(&app, &north, UserRole::Admin).await;
        let (_, river_admin) = signed_in(&app, &river, UserRole::Admin).await;
        let (_, river_teacher) = signed_in(&app, &river, UserRole::Teacher).await;

        let save = |cookie: String, body: Value| {
            let app = &app;
            async move { mutate(app, &cookie, "admin.saveYearGroup", body, &[]).await }
        };
        let north_y7 = save(north_admin.clone(), json!({"id": null, "name": "Year 7"}))
            .await
            .expect("north's year 7");
        let north_secret = save(north_admin.clone(), json!({"id": null, "name": "Nurture"}))
            .await
            .expect("north's own group");
        // The same name in another school is another year group.
        let river_y7 = save(river_admin.clone(), json!({"id": null, "name": "Year 7"}))
            .await
            .expect("river's year 7");
        assert_ne!(north_y7["id"], river_y7["id"]);

        // Lists show the school's own only.
        let river_list = query(&app, &river_admin, "admin.listYearGroups", json!(null))
            .await
            .expect("list");
        assert_eq!(names(&river_list), vec!["Year 7"]);
        let north_list = query(&app, &north_admin, "admin.listYearGroups", json!(null))
            .await
            .expect("list");
        assert_eq!(names(&north_list), vec!["Nurture", "Year 7"]);

        // Renaming another school's year group is NOT_FOUND, and it keeps its name.
        let rename = save(
            river_admin.clone(),
            json!({"id": north_secret["id"], "name": "Renamed by Riverside"}),
        )
        .await;
        assert_eq!(rename.expect_err("not theirs").0, "NOT_FOUND");
        let north_list = query(&app, &north_admin, "admin.listYearGroups", json!(null))
            .await
            .expect("list");
        assert_eq!(names(&north_list), vec!["Nurture", "Year 7"]);

        // A pupil cannot be put in another school's year group.
        let pupil = json!({
            "id": null, "forename": "Ada", "surname": "Pupil", "email": null,
            "parentEmail": null, "upn": null, "yearGroupId": north_y7["id"],
            "formGroupId": null, "classIds": [],
        });
        let refused = mutate(&app, &river_admin, "admin.savePupil", pupil.clone(), &[]).await;
        assert_eq!(
            refused.expect_err("foreign year group").2,
            json!({"yearGroupId": ["Choose a year group from the list."]})
        );
        let mut own = pupil;
        own["yearGroupId"] = river_y7["id"].clone();
        let ada = mutate(&app, &river_admin, "admin.savePupil", own, &[])
            .await
            .expect("own year group");
        assert_eq!(ada["yearGroup"], "Year 7");

        // The notification audience picker offers the school's own year groups only.
        let options = query(
            &app,
            &river_teacher,
            "notification.filterOptions",
            json!(null),
        )
        .await
        .expect("filter options");
        assert_eq!(names(&options["yearGroups"]), vec!["Year 7"]);
        assert_eq!(options["yearGroups"][0]["id"], river_y7["id"]);

        // Renaming one's own year group works and leaves the other school's alone.
        let renamed = save(
            river_admin.clone(),
            json!({"id": river_y7["id"], "name": "Y7"}),
        )
        .await
        .expect("rename own");
        assert_eq!(renamed["name"], "Y7");
        let north_list = query(&app, &north_admin, "admin.listYearGroups", json!(null))
            .await
            .expect("list");
        assert_eq!(names(&north_list), vec!["Nurture", "Year 7"]);

        // A CSV import makes and finds year groups in the importing school only.
        let csv = "forename,surname,email,parentEmail,upn,yearGroup,formGroup\n\
                   Bea,Pupil,,,,Nurture,\nCy,Pupil,,,,y7,\n";
        mutate(
            &app,
            &river_admin,
            "admin.importPupils",
            json!({"csv": csv}),
            &[],
        )
        .await
        .expect("import");
        let river_list = query(&app, &river_admin, "admin.listYearGroups", json!(null))
            .await
            .expect("list");
        assert_eq!(names(&river_list), vec!["Nurture", "Y7"]);
        let nurture = river_list
            .as_array()
            .expect("list")
            .iter()
            .find(|g| g["name"] == "Nurture")
            .expect("nurture");
        assert_ne!(nurture["id"], north_secret["id"]);
        assert_eq!(nurture["pupils"], 1);
        let north_list = query(&app, &north_admin, "admin.listYearGroups", json!(null))
            .await
            .expect("list");
        assert_eq!(north_list[0]["pupils"], 0, "{north_list}");
    }
);

#[derive(QueryableByName, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct YearGroupRow {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    school_id: String,
}

#[derive(QueryableByName)]
struct One {
    #[diesel(sql_type = Text)]
    value: String,
}

/// Data of the shape before the hardening migration: year groups shared by all schools.
const OLD_SHAPE: &str = "
INSERT INTO schools (id, created_at, updated_at, name) VALUES
    ('s1', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'One'),
    ('s2', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'Two'),
    ('s3', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'Three');
INSERT INTO users (id, created_at, updated_at, forename, surname, email, school_id, role)
    VALUES ('u2', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'T', 'Two', 't@two.test', 's2', 'TEACHER');
INSERT INTO year_groups (id, created_at, updated_at, name) VALUES
    ('y7', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'Year 7'),
    ('y7-lower', '2026-01-02 00:00:00', '2026-01-02 00:00:00', 'year 7'),
    ('y8', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'Year 8'),
    ('y9', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'Year 9');
INSERT INTO classes (id, created_at, updated_at, name, school_id) VALUES
    ('c1', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '7 English', 's1'),
    ('c2', '2026-01-02 00:00:00', '2026-01-02 00:00:00', '7 english', 's1'),
    ('c3', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '7 English', 's2');
INSERT INTO students (id, created_at, updated_at, forename, surname, upn, school_id, year_group_id) VALUES
    ('p1', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'A', 'One', 'U1', 's1', 'y7'),
    ('p2', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'B', 'Two', 'U1', 's2', 'y7'),
    ('p3', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'C', 'One', 'U3', 's1', 'y8'),
    ('p4', '2026-01-02 00:00:00', '2026-01-02 00:00:00', 'D', 'One', 'U1', 's1', 'y7-lower');
INSERT INTO notifications (id, created_at, updated_at, \"type\", title, filters, sender_id, school_id)
    VALUES ('n2', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'GENERAL', 'Trip',
        '{\"classes\":[],\"yearGroups\":[\"y7\"],\"formGroups\":[],\"students\":[]}', 'u2', 's2');
";

async fn migration_splits_shared_year_groups(backend: TestBackend) {
    let (url, _dir, _guard) = fresh_database(backend).await;
    let db = Db::connect(&url, 2).await.expect("connect");
    let ran = db
        .migrate_through("2026-11-22-000001_stored_files")
        .await
        .expect("the migrations before hardening");
    assert_eq!(ran, 2);
    let mut pooled = db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| c.batch_execute(OLD_SHAPE).await).expect("old-shape data");
    drop(pooled);
    assert_eq!(
        db.migrate_through("2026-11-23-000001_hardening")
            .await
            .expect("the hardening migration"),
        1
    );

    let mut pooled = db.conn().await.expect("connection");
    let mut groups: Vec<YearGroupRow> = with_conn!(pooled.db(), |c| diesel::sql_query(
        "SELECT id, name, school_id FROM year_groups ORDER BY school_id, name"
    )
    .load(c)
    .await)
    .expect("year groups");
    groups.sort();
    let by_school = |school: &str| -> Vec<&str> {
        let mut names: Vec<&str> = groups
            .iter()
            .filter(|g| g.school_id == school)
            .map(|g| g.name.as_str())
            .collect();
        names.sort();
        names
    };
    // School one had pupils in Year 7, year 7 and Year 8; the case twin was renamed.
    let one = by_school("s1");
    assert_eq!(one.len(), 3, "{groups:?}");
    assert!(
        one.contains(&"Year 7") && one.contains(&"Year 8"),
        "{one:?}"
    );
    assert!(
        one.iter().any(|n| n.starts_with("year 7 (")),
        "the twin is renamed: {one:?}"
    );
    assert_eq!(by_school("s2"), vec!["Year 7"]);
    // Nobody used Year 9 and there are several schools: it is gone.
    assert!(by_school("s3").is_empty());
    assert!(groups.iter().all(|g| g.name != "Year 9"));

    let pupil_group = |pupil: &'static str| {
        let sql = format!(
            "SELECT y.school_id || '|' || y.name || '|' || y.id AS value FROM students s \
             JOIN year_groups y ON y.id = s.year_group_id WHERE s.id = '{pupil}'"
        );
        sql
    };
    async fn read(pooled: &mut voicemark::db::PooledConn, sql: String) -> String {
        let rows: Vec<One> =
            with_conn!(pooled.db(), |c| diesel::sql_query(sql).load(c).await).expect("query");
        rows.into_iter().map(|r| r.value).next().unwrap_or_default()
    }
    let p1 = read(&mut pooled, pupil_group("p1")).await;
    let p2 = read(&mut pooled, pupil_group("p2")).await;
    assert!(p1.starts_with("s1|Year 7|"), "{p1}");
    assert!(p2.starts_with("s2|Year 7|"), "{p2}");
    assert_ne!(p1, p2);
    let p2_group = p2.rsplit('|').next().expect("id").to_owned();
    // School two's notification now filters on school two's own Year 7.
    let filters = read(
        &mut pooled,
        "SELECT filters AS value FROM notifications WHERE id = 'n2'".into(),
    )
    .await;
    let filters: Value = serde_json::from_str(&filters).expect("filters JSON");
    assert_eq!(filters["yearGroups"], json!([p2_group]));
    // The second "7 english" of school one was renamed; school two's is untouched.
    let c2 = read(
        &mut pooled,
        "SELECT name AS value FROM classes WHERE id = 'c2'".into(),
    )
    .await;
    assert!(c2.starts_with("7 english ("), "{c2}");
    let c3 = read(
        &mut pooled,
        "SELECT name AS value FROM classes WHERE id = 'c3'".into(),
    )
    .await;
    assert_eq!(c3, "7 English");
    // Twin UPNs in one school: the later one got a suffix; school two keeps its U1.
    let p4 = read(
        &mut pooled,
        "SELECT upn AS value FROM students WHERE id = 'p4'".into(),
    )
    .await;
    assert!(p4.starts_with("U1-"), "{p4}");
    let p2_upn = read(
        &mut pooled,
        "SELECT upn AS value FROM students WHERE id = 'p2'".into(),
    )
    .await;
    assert_eq!(p2_upn, "U1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_migration_splits_shared_year_groups_sqlite() {
    migration_splits_shared_year_groups(TestBackend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_migration_splits_shared_year_groups_postgres() {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    migration_splits_shared_year_groups(TestBackend::Postgres).await;
}
