//! The roster (`school.listStudents`) is encoded once per school and sent from memory
//! (`models::roster::ROSTERS`, issue 15). After every kind of change to pupils or groups,
//! with the roster warm in the cache just before it, the answer equals the database's list:
//! a pupil added, a pupil edited (renamed, moved to another form group), a year group
//! renamed, a pupil leaving the MIS, a pupil erased. Another school never sees it. The
//! audience pickers' answer (`notification.filterOptions`, `models::roster::AUDIENCES`) is
//! kept the same way and also follows classes: made, renamed, and who is in them, by hand
//! and by the MIS.

use axum::body::Body;
use axum::http::{header, Request};
use serde_json::{json, Value};
use diesel_async::RunQueryDsl;
use voicemark::models::students::{self, PupilFields};
use voicemark::models::{groups, now, privacy};
use voicemark::with_conn;

use crate::dual_test;
use crate::sending::{make_form_group, make_pupil, make_school, make_teacher, simple};
use crate::support::{session_cookie, TestApp};

/// `procedure`'s answer (no input) to `cookie`'s holder.
async fn answer(app: &TestApp, cookie: &str, procedure: &str) -> Value {
    let request = Request::get(format!("/api/trpc/{procedure}")).header(header::COOKIE, cookie);
    let response = app.request(request.body(Body::empty()).expect("request")).await;
    response.json()["result"]["data"]["json"].clone()
}

async fn roster(app: &TestApp, cookie: &str) -> Value {
    answer(app, cookie, "school.listStudents").await
}

#[derive(diesel::QueryableByName)]
struct Listed {
    #[diesel(sql_type = diesel::sql_types::Text)]
    id: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    forename: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    surname: String,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    year_group: Option<String>,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    form_group: Option<String>,
}

/// The roster as the database has it now, in the answer's shape: read here with a join,
/// independently of the model (which reads the groups apart), and put in the answer's
/// order (surname, forename, id, by code point).
async fn from_database(app: &TestApp, school: &str) -> Value {
    let sql = format!(
        "SELECT s.id, s.forename, s.surname, y.name AS year_group, f.name AS form_group \
         FROM students s LEFT JOIN year_groups y ON y.id = s.year_group_id \
         LEFT JOIN form_groups f ON f.id = s.form_group_id \
         WHERE s.school_id = '{school}' AND s.archived_at IS NULL"
    );
    let mut pooled = app.db.conn().await.expect("connection");
    let mut rows: Vec<Listed> =
        with_conn!(pooled.db(), |c| diesel::sql_query(sql.clone()).load(c).await).expect("list");
    rows.sort_by(|a, b| (&a.surname, &a.forename, &a.id).cmp(&(&b.surname, &b.forename, &b.id)));
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

/// Two schools with a teacher of each signed in (`cookie`, `outsider`); the other school has
/// one pupil, Zed Elsewhere. (Also the set-up of `roster_wire`.)
pub(crate) struct TwoSchools {
    pub school: String,
    pub cookie: String,
    pub outsider: String,
}

pub(crate) async fn two_schools(app: &TestApp, name: &str) -> TwoSchools {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let school = make_school(&mut conn, name).await;
    let other = make_school(&mut conn, &format!("Other {name}")).await;
    let teacher = make_teacher(&mut conn, &school).await;
    let outsider = make_teacher(&mut conn, &other).await;
    make_pupil(&mut conn, &other, simple("Zed", "Elsewhere")).await;
    drop(conn);
    drop(pooled);
    TwoSchools {
        school,
        cookie: session_cookie(app, &teacher).await,
        outsider: session_cookie(app, &outsider).await,
    }
}

dual_test! {
    async fn the_kept_roster_equals_the_database_after_every_kind_of_change(app: TestApp) {
        let TwoSchools { school, cookie, outsider } = two_schools(&app, "Roster School").await;
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
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
        drop(conn);
        drop(pooled);
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

dual_test! {
    async fn names_holding_the_separators_of_the_aggregated_read_are_listed_as_stored(app: TestApp) {
        // The model reads the pupils as one text joined by ASCII unit and record separators
        // and reads rows instead when a name holds one: the answer is the database's either way.
        let TwoSchools { school, cookie, .. } = two_schools(&app, "Separator School").await;
        assert_eq!(roster(&app, &cookie).await, serde_json::json!([]), "no pupils yet");
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let form = make_form_group(&mut conn, &school, "7\u{1e}A").await;
        let mut spec = simple("Al\u{1f}ex", "Ro\u{1e}se");
        spec.form_group_id = Some(form.clone());
        make_pupil(&mut conn, &school, spec).await;
        make_pupil(&mut conn, &school, simple("Bea", "Plain")).await;
        drop(conn);
        drop(pooled);
        let expected = from_database(&app, &school).await;
        assert_eq!(expected.as_array().map(Vec::len), Some(2));
        let listed = roster(&app, &cookie).await;
        assert_eq!(listed, expected);
        assert_eq!(listed[1]["forename"], "Al\u{1f}ex");
        assert_eq!(listed[1]["formGroup"]["name"], "7\u{1e}A");
    }
}

async fn audiences(app: &TestApp, cookie: &str) -> Value {
    answer(app, cookie, "notification.filterOptions").await
}

#[derive(diesel::QueryableByName)]
struct Counted {
    #[diesel(sql_type = diesel::sql_types::Text)]
    id: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pupils: i64,
}

/// What the audience pickers should offer now, read here with SQL of its own: the school's
/// classes (who is in each), year and form groups (their current pupils), each by name, and
/// the roster's pupils as "forename surname".
async fn audiences_from_database(app: &TestApp, school: &str) -> Value {
    let groups = |table: &str, counted: &str| {
        format!("SELECT g.id, g.name, ({counted}) AS pupils FROM {table} g WHERE g.school_id = '{school}'")
    };
    let statements = [
        groups("classes", "SELECT count(*) FROM class_students m WHERE m.class_id = g.id"),
        groups(
            "year_groups",
            "SELECT count(*) FROM students s WHERE s.year_group_id = g.id AND s.archived_at IS NULL",
        ),
        groups(
            "form_groups",
            "SELECT count(*) FROM students s WHERE s.form_group_id = g.id AND s.archived_at IS NULL",
        ),
    ];
    let mut lists = Vec::new();
    for sql in statements {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut rows: Vec<Counted> =
            with_conn!(pooled.db(), |c| diesel::sql_query(sql.clone()).load(c).await).expect("groups");
        rows.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
        lists.push(Value::Array(
            rows.into_iter().map(|g| json!({"id": g.id, "name": g.name, "pupils": g.pupils})).collect(),
        ));
    }
    let students: Vec<Value> = from_database(app, school)
        .await
        .as_array()
        .expect("pupils")
        .iter()
        .map(|p| {
            json!({
                "id": p["id"],
                "name": format!("{} {}", p["forename"].as_str().unwrap_or(""), p["surname"].as_str().unwrap_or("")),
                "yearGroup": p["yearGroup"]["name"],
                "formGroup": p["formGroup"]["name"],
            })
        })
        .collect();
    let [classes, year_groups, form_groups]: [Value; 3] = lists.try_into().expect("three lists");
    json!({"classes": classes, "yearGroups": year_groups, "formGroups": form_groups, "students": students})
}

/// The audience pickers' answer equals the database's after `after`, read twice (the second
/// past the settling second, so it comes from the cache and the next change meets it kept).
async fn audiences_agree(app: &TestApp, cookie: &str, school: &str, after: &str) -> Value {
    let expected = audiences_from_database(app, school).await;
    assert_eq!(audiences(app, cookie).await, expected, "the audience pickers after {after}");
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(audiences(app, cookie).await, expected, "the audience pickers after {after}, read again");
    expected
}

dual_test! {
    async fn the_kept_audience_choices_equal_the_database_after_every_kind_of_change(app: TestApp) {
        // notification.filterOptions is kept per school like the roster
        // (`models::roster::AUDIENCES`) and must follow classes and who is in them too.
        let TwoSchools { school, cookie, outsider } = two_schools(&app, "Audience School").await;
        let mut pooled = app.db.conn().await.expect("connection");
        let form = make_form_group(&mut pooled.db(), &school, "8A").await;
        let year = groups::year_group_id(&mut pooled.db(), &school, "Year 8").await.expect("year group");
        let mut pupils = Vec::new();
        for name in ["Ann", "Bob"] {
            let mut spec = simple(name, "Pupil");
            spec.year_group_id = Some(year.clone());
            spec.form_group_id = Some(form.clone());
            pupils.push(make_pupil(&mut pooled.db(), &school, spec).await);
        }
        let outsiders = audiences(&app, &outsider).await;
        assert_eq!(outsiders["students"].as_array().map(Vec::len), Some(1), "the other school's pupil only");
        let first = audiences_agree(&app, &cookie, &school, "the set-up").await;
        assert_eq!(first["classes"], json!([]));
        assert_eq!(first["yearGroups"][0]["pupils"], 2);

        // A class made by hand, then by the MIS.
        let history = groups::save_class(&mut pooled.db(), &school, None, "History 8")
            .await
            .expect("class")
            .expect("made");
        audiences_agree(&app, &cookie, &school, "a class made").await;
        let science = voicemark::models::mis::insert_class(
            &mut pooled.db(),
            &school,
            voicemark::mis::Source::Wonde,
            "wonde-science",
            "Science 8",
        )
        .await
        .expect("MIS class");
        audiences_agree(&app, &cookie, &school, "a class from the MIS").await;

        // Who is in a class: added by hand and by the MIS, then removed by the MIS.
        students::add_to_class(&mut pooled.db(), &pupils[0], &history).await.expect("add");
        let listed = audiences_agree(&app, &cookie, &school, "a pupil put in a class").await;
        assert_eq!(listed["classes"][0]["name"], "History 8");
        assert_eq!(listed["classes"][0]["pupils"], 1);
        let links = vec![(science.clone(), pupils[0].clone()), (science.clone(), pupils[1].clone())];
        voicemark::models::mis::add_class_links(&mut pooled.db(), &links).await.expect("links");
        let listed = audiences_agree(&app, &cookie, &school, "pupils put in a class by the MIS").await;
        assert_eq!(listed["classes"][1]["pupils"], 2);
        voicemark::models::mis::remove_class_link(&mut pooled.db(), &science, &pupils[1]).await.expect("unlink");
        let listed = audiences_agree(&app, &cookie, &school, "a pupil taken out of a class").await;
        assert_eq!(listed["classes"][1]["pupils"], 1);

        // Renamed by hand and by the MIS.
        groups::save_class(&mut pooled.db(), &school, Some(&history), "Ancient History 8")
            .await
            .expect("rename");
        let listed = audiences_agree(&app, &cookie, &school, "a class renamed").await;
        assert_eq!(listed["classes"][0]["name"], "Ancient History 8");
        voicemark::models::mis::update_class(
            &mut pooled.db(),
            &science,
            voicemark::mis::Source::Wonde,
            "wonde-science",
            "Physics 8",
        )
        .await
        .expect("MIS rename");
        let listed = audiences_agree(&app, &cookie, &school, "a class renamed by the MIS").await;
        assert_eq!(listed["classes"][1]["name"], "Physics 8");

        // Pupils and groups, as for the roster.
        make_pupil(&mut pooled.db(), &school, simple("Cat", "Pupil")).await;
        let listed = audiences_agree(&app, &cookie, &school, "a pupil added").await;
        assert_eq!(listed["students"].as_array().map(Vec::len), Some(3));
        assert!(groups::rename_year_group(&mut pooled.db(), &school, &year, "Year Eight").await.expect("rename"));
        let listed = audiences_agree(&app, &cookie, &school, "a year group renamed").await;
        assert_eq!(listed["yearGroups"][0]["name"], "Year Eight");
        voicemark::models::mis::archive_pupils(&mut pooled.db(), &school, &[pupils[1].clone()], now())
            .await
            .expect("archive");
        let listed = audiences_agree(&app, &cookie, &school, "a pupil leaving").await;
        assert_eq!(listed["yearGroups"][0]["pupils"], 1);
        assert_eq!(audiences(&app, &outsider).await, outsiders, "the other school's choices");
    }
}
