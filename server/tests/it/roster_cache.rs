//! The roster (`school.listStudents`) is encoded once per school and sent from memory
//! (`models::students::ROSTERS`, issue 15). After every kind of change to pupils or groups,
//! with the roster warm in the cache just before it, the answer equals the database's list:
//! a pupil added, a pupil edited (renamed, moved to another form group), a year group
//! renamed, a pupil leaving the MIS, a pupil erased. Another school never sees it.

use axum::body::Body;
use axum::http::{header, Request};
use serde_json::{json, Value};
use voicemark::models::students::{self, PupilFields};
use voicemark::models::{groups, now, privacy};

use crate::dual_test;
use crate::sending::{make_form_group, make_pupil, make_school, make_teacher, simple};
use crate::support::{session_cookie, TestApp};

async fn roster(app: &TestApp, cookie: &str) -> Value {
    let request = Request::get("/api/trpc/school.listStudents").header(header::COOKIE, cookie);
    let response = app.request(request.body(Body::empty()).expect("request")).await;
    response.json()["result"]["data"]["json"].clone()
}

/// The roster as the database has it now, in the answer's shape.
async fn from_database(app: &TestApp, school: &str) -> Value {
    let mut pooled = app.db.conn().await.expect("connection");
    let rows = students::list_for_school(&mut pooled.db(), school).await.expect("list");
    Value::Array(
        rows.into_iter()
            .map(|r| {
                json!({
                    "id": r.id, "forename": r.forename, "surname": r.surname,
                    "yearGroup": r.year_group.map(|name| json!({"name": name})),
                    "formGroup": r.form_group.map(|name| json!({"name": name})),
                })
            })
            .collect(),
    )
}

async fn agrees(app: &TestApp, cookie: &str, school: &str, pupils: usize, after: &str) {
    let expected = from_database(app, school).await;
    assert_eq!(expected.as_array().map(Vec::len), Some(pupils), "the database after {after}");
    assert_eq!(roster(app, cookie).await, expected, "the roster after {after}");
    // Warm again, past the settling second, so the next change meets a kept roster.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(roster(app, cookie).await, expected, "the roster after {after}, read again");
}

dual_test! {
    async fn the_kept_roster_equals_the_database_after_every_kind_of_change(app: TestApp) {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = make_school(&mut conn, "Roster School").await;
        let other = make_school(&mut conn, "Other School").await;
        let teacher = make_teacher(&mut conn, &school).await;
        let outsider = make_teacher(&mut conn, &other).await;
        let form_a = make_form_group(&mut conn, &school, "7A").await;
        let form_b = make_form_group(&mut conn, &school, "7B").await;
        let year = groups::year_group_id(&mut conn, &school, "Year 7").await.expect("year group");
        let mut pupils = Vec::new();
        for name in ["Ann", "Bob", "Cat"] {
            let mut spec = simple(name, "Pupil");
            spec.year_group_id = Some(year.clone());
            spec.form_group_id = Some(form_a.clone());
            pupils.push(make_pupil(&mut conn, &school, spec).await);
        }
        make_pupil(&mut conn, &other, simple("Zed", "Elsewhere")).await;
        drop(conn);
        drop(pooled);
        let cookie = session_cookie(&app, &teacher).await;
        let outsider = session_cookie(&app, &outsider).await;
        agrees(&app, &cookie, &school, 3, "the set-up").await;
        assert_eq!(roster(&app, &outsider).await.as_array().map(Vec::len), Some(1));

        let mut pooled = app.db.conn().await.expect("connection");
        make_pupil(&mut pooled.db(), &school, simple("Dan", "Pupil")).await;
        agrees(&app, &cookie, &school, 4, "a pupil added").await;

        let fields = PupilFields {
            forename: "Annabel".into(),
            surname: "Pupil".into(),
            email: None,
            parent_email: None,
            upn: None,
            year_group_id: Some(year.clone()),
            form_group_id: Some(form_b.clone()),
            class_ids: Vec::new(),
        };
        students::save_pupil(&mut pooled.db(), &school, Some(&pupils[0]), &fields).await.expect("save");
        agrees(&app, &cookie, &school, 4, "a pupil renamed and moved").await;
        let list = roster(&app, &cookie).await;
        let annabel = list.as_array().unwrap().iter().find(|p| p["id"] == pupils[0].as_str()).cloned().expect("Annabel");
        assert_eq!(annabel["forename"], "Annabel");
        assert_eq!(annabel["formGroup"]["name"], "7B");

        assert!(groups::rename_year_group(&mut pooled.db(), &school, &year, "Year Seven").await.expect("rename"));
        agrees(&app, &cookie, &school, 4, "a year group renamed").await;
        assert!(roster(&app, &cookie).await.to_string().contains("Year Seven"));

        voicemark::models::mis::archive_pupils(&mut pooled.db(), &school, &[pupils[1].clone()], now())
            .await
            .expect("archive");
        agrees(&app, &cookie, &school, 3, "a pupil leaving").await;

        privacy::erase(&mut pooled.db(), &school, &pupils[2], "erased").await.expect("erase");
        agrees(&app, &cookie, &school, 2, "a pupil erased").await;
        assert_eq!(roster(&app, &outsider).await.as_array().map(Vec::len), Some(1), "the other school's roster");
    }
}
