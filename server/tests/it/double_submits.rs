//! A create sent eight times at once (a double-clicked button, a retried request) makes
//! one row and every answer is the one a single submit gets: the unique indexes per
//! school plus "insert, or return the row that is there".

use axum::body::Body;
use axum::http::Request;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{class_staff, classes, form_groups, students, users, year_groups};
use voicemark::with_conn;

use crate::admin::{mutate, signed_in, Outcome};
use crate::dual_test;
use crate::support::{make_pro, make_school, send, TestApp};

const TIMES: usize = 8;

/// Sends `input` to `path` [`TIMES`] times at once, each on its own task; every answer.
async fn at_once(app: &TestApp, cookie: &str, path: &str, input: Value) -> Vec<Outcome> {
    let started = std::time::Instant::now();
    let body = json!({ "0": { "json": input } }).to_string();
    let tasks: Vec<_> = (0..TIMES)
        .map(|_| {
            let request = Request::post(format!("/api/trpc/{path}?batch=1"))
                .header("content-type", "application/json")
                .header("cookie", cookie)
                .body(Body::from(body.clone()))
                .expect("request");
            tokio::spawn(send(app.router.clone(), request))
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        let response = task.await.expect("the call finished");
        let element = response.json()[0].clone();
        answers.push(match element.get("error") {
            Some(error) => Err((
                error["json"]["data"]["code"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                error["json"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                error["json"]["data"]["zodError"]["fieldErrors"].clone(),
            )),
            None => Ok(element["result"]["data"]["json"].clone()),
        });
    }
    eprintln!(
        "{path}: {TIMES} concurrent creates answered in {:?} on {}",
        started.elapsed(),
        app.backend().as_str()
    );
    answers
}

/// Every answer is a success with the same id; returns it.
fn one_id(path: &str, answers: Vec<Outcome>) -> String {
    let ids: Vec<String> = answers
        .into_iter()
        .map(|a| {
            let data = a.unwrap_or_else(|e| panic!("{path} answered an error: {e:?}"));
            data["id"].as_str().expect("an id").to_owned()
        })
        .collect();
    assert!(ids.iter().all(|id| id == &ids[0]), "{path}: {ids:?}");
    ids[0].clone()
}

dual_test!(
    async fn eight_concurrent_creates_leave_one_row(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        // Pro without a seat limit: the staff member created here takes a seat.
        make_pro(&app, &school, None).await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;

        let class = one_id(
            "admin.saveClass",
            at_once(
                &app,
                &admin,
                "admin.saveClass",
                json!({"id": null, "name": "7 English"}),
            )
            .await,
        );
        let form = one_id(
            "admin.saveFormGroup",
            at_once(
                &app,
                &admin,
                "admin.saveFormGroup",
                json!({"id": null, "name": "7A"}),
            )
            .await,
        );
        let year = one_id(
            "admin.saveYearGroup",
            at_once(
                &app,
                &admin,
                "admin.saveYearGroup",
                json!({"id": null, "name": "Year 7"}),
            )
            .await,
        );
        let pupil = json!({
            "id": null, "forename": "Ada", "surname": "Lovelace", "email": null,
            "parentEmail": null, "upn": "A123456789012", "yearGroupId": year,
            "formGroupId": form, "classIds": [class],
        });
        let ada = one_id(
            "admin.savePupil",
            at_once(&app, &admin, "admin.savePupil", pupil).await,
        );

        let staff = json!({
            "id": null, "forename": "Tess", "surname": "Teacher", "email": "tess@school.test",
            "role": "TEACHER", "classIds": [class], "activated": false, "disabled": false,
        });
        let tess = one_id(
            "admin.saveStaff",
            at_once(&app, &admin, "admin.saveStaff", staff).await,
        );

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let counts: (i64, i64, i64, i64) = (
            with_conn!(&mut conn, |c| classes::table
                .filter(classes::school_id.eq(&school))
                .count()
                .get_result(c)
                .await)
            .expect("classes"),
            with_conn!(&mut conn, |c| form_groups::table
                .filter(form_groups::school_id.eq(&school))
                .count()
                .get_result(c)
                .await)
            .expect("form groups"),
            with_conn!(&mut conn, |c| year_groups::table
                .filter(year_groups::school_id.eq(&school))
                .count()
                .get_result(c)
                .await)
            .expect("year groups"),
            with_conn!(&mut conn, |c| students::table
                .filter(students::school_id.eq(&school))
                .count()
                .get_result(c)
                .await)
            .expect("pupils"),
        );
        assert_eq!(counts, (1, 1, 1, 1));
        let in_class: i64 = with_conn!(&mut conn, |c| voicemark::db::schema::class_students::table
            .filter(voicemark::db::schema::class_students::student_id.eq(&ada))
            .count()
            .get_result(c)
            .await)
        .expect("class members");
        assert_eq!(in_class, 1);
        let tesses: i64 = with_conn!(&mut conn, |c| users::table
            .filter(users::email.eq("tess@school.test"))
            .count()
            .get_result(c)
            .await)
        .expect("staff");
        assert_eq!(tesses, 1);
        let teaching: i64 = with_conn!(&mut conn, |c| class_staff::table
            .filter(class_staff::user_id.eq(&tess))
            .count()
            .get_result(c)
            .await)
        .expect("class staff");
        assert_eq!(teaching, 1);

        // A later, different request that meets the same natural key is still refused.
        let clash = mutate(
            &app,
            &admin,
            "admin.saveClass",
            json!({"id": null, "name": "7 ENGLISH"}),
            &[],
        )
        .await;
        assert_eq!(
            clash.expect_err("case twin").2,
            json!({"name": ["A class with this name already exists."]})
        );
    }
);
