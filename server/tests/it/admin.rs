//! `admin.*` (Manage School): CRUD scoped to the admin's school, the role guard, and the
//! all-or-nothing pupil CSV import with line-numbered errors. The helpers here are shared
//! with `notifications.rs`.

use axum::body::Body;
use axum::http::Request;
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::students;
use voicemark::with_conn;

use crate::dual_test;
use crate::auth::session_count;
use crate::support::{make_pro, make_school, session_cookie, TestApp};

/// A signed-in user of `school_id` with `role`: (user id, cookie).
pub async fn signed_in(app: &TestApp, school_id: &str, role: UserRole) -> (String, String) {
    let id = crate::support::make_user(app, Some(school_id), role, "Sam", &role.as_str().to_lowercase()).await;
    let cookie = crate::support::session_cookie(app, &id).await;
    (id, cookie)
}

/// The outcome of one call: `Ok(json)` or `Err((code, message, fieldErrors))`.
pub type Outcome = Result<Value, (String, String, Value)>;

fn outcome(element: &Value) -> Outcome {
    if let Some(error) = element.get("error") {
        let e = &error["json"];
        return Err((
            e["data"]["code"].as_str().unwrap_or_default().to_owned(),
            e["message"].as_str().unwrap_or_default().to_owned(),
            e["data"]["zodError"]["fieldErrors"].clone(),
        ));
    }
    Ok(element["result"]["data"]["json"].clone())
}

/// The superjson payload of `input`, marking the top-level fields in `dates` as Dates.
fn payload(input: &Value, dates: &[&str]) -> Value {
    let present: Vec<&&str> = dates.iter().filter(|d| !input[**d].is_null()).collect();
    if present.is_empty() {
        return json!({ "json": input });
    }
    let values: serde_json::Map<String, Value> = present
        .iter()
        .map(|d| ((**d).to_owned(), json!(["Date"])))
        .collect();
    json!({ "json": input, "meta": { "values": values, "v": 1 } })
}

/// A query as `@trpc/client` sends it.
pub async fn query(app: &TestApp, cookie: &str, path: &str, input: Value) -> Outcome {
    let batch = json!({ "0": payload(&input, &[]) }).to_string();
    let encoded: String = url::form_urlencoded::byte_serialize(batch.as_bytes()).collect();
    let request = Request::get(format!("/api/trpc/{path}?batch=1&input={encoded}"))
        .header("cookie", cookie)
        .body(Body::empty())
        .expect("request");
    let response = app.request(request).await;
    outcome(&response.json()[0])
}

/// A mutation as `@trpc/client` sends it; `dates` names the input's Date fields.
pub async fn mutate(
    app: &TestApp,
    cookie: &str,
    path: &str,
    input: Value,
    dates: &[&str],
) -> Outcome {
    let request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(Body::from(
            json!({ "0": payload(&input, dates) }).to_string(),
        ))
        .expect("request");
    let response = app.request(request).await;
    outcome(&response.json()[0])
}

fn pupil(forename: &str, class_ids: Vec<&str>) -> Value {
    json!({
        "id": null, "forename": forename, "surname": "Pupil", "email": null,
        "parentEmail": "parent@families.test", "upn": null, "yearGroupId": null,
        "formGroupId": null, "classIds": class_ids,
    })
}

async fn pupil_count(app: &TestApp, school_id: &str) -> i64 {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| students::table
        .filter(students::school_id.eq(school_id))
        .count()
        .get_result(c)
        .await)
    .expect("count")
}

dual_test!(
    async fn an_admin_manages_their_own_school_only(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let other = make_school(&app, "Riverside").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let (_, other_admin) = signed_in(&app, &other, UserRole::Admin).await;
        let (_, teacher) = signed_in(&app, &school, UserRole::Teacher).await;

        let class = mutate(
            &app,
            &admin,
            "admin.saveClass",
            json!({"id": null, "name": " 7 English "}),
            &[],
        )
        .await
        .expect("class");
        assert_eq!(class["name"], "7 English");
        assert_eq!(class["pupils"], 0);
        let class_id = class["id"].as_str().expect("id").to_owned();
        let duplicate = mutate(
            &app,
            &admin,
            "admin.saveClass",
            json!({"id": null, "name": "7 english"}),
            &[],
        )
        .await;
        assert_eq!(
            duplicate.expect_err("duplicate").2,
            json!({"name": ["A class with this name already exists."]})
        );

        let year = mutate(
            &app,
            &admin,
            "admin.saveYearGroup",
            json!({"id": null, "name": "Year 7"}),
            &[],
        )
        .await
        .expect("year group");
        let form = mutate(
            &app,
            &admin,
            "admin.saveFormGroup",
            json!({"id": null, "name": "7A"}),
            &[],
        )
        .await
        .expect("form group");
        let mut input = pupil("Ada", vec![&class_id]);
        input["yearGroupId"] = year["id"].clone();
        input["formGroupId"] = form["id"].clone();
        input["upn"] = json!("A123");
        let ada = mutate(&app, &admin, "admin.savePupil", input.clone(), &[])
            .await
            .expect("pupil");
        assert_eq!(ada["yearGroup"], "Year 7");
        assert_eq!(ada["formGroup"], "7A");
        assert_eq!(ada["classIds"], json!([class_id]));
        // The same pupil sent again (a double submit) answers the pupil already made;
        // another pupil with the same UPN is refused.
        let again = mutate(&app, &admin, "admin.savePupil", input.clone(), &[])
            .await
            .expect("the same pupil again");
        assert_eq!(again["id"], ada["id"]);
        let mut clash = input;
        clash["forename"] = json!("Bea");
        let refused = mutate(&app, &admin, "admin.savePupil", clash, &[]).await;
        assert_eq!(
            refused.expect_err("upn").2,
            json!({"upn": ["Another pupil already has this UPN."]})
        );
        // Field errors, all at once.
        let mut bad = pupil(" ", vec![]);
        bad["email"] = json!("not-an-email");
        let err = mutate(&app, &admin, "admin.savePupil", bad, &[])
            .await
            .expect_err("invalid");
        assert_eq!(err.0, "BAD_REQUEST");
        assert_eq!(
            err.2,
            json!({"forename": ["Enter the pupil's forename."], "email": ["Enter a valid e-mail address."]})
        );

        let list = query(
            &app,
            &admin,
            "admin.listPupils",
            json!({"search": "ad", "cursor": null}),
        )
        .await
        .expect("list");
        assert_eq!(list["total"], 1);
        assert_eq!(list["pupils"][0]["forename"], "Ada");
        let classes = query(&app, &admin, "admin.listClasses", Value::Null)
            .await
            .expect("classes");
        assert_eq!(classes[0]["pupils"], 1);

        // Another school's admin sees none of it and cannot change it.
        let theirs = query(
            &app,
            &other_admin,
            "admin.listPupils",
            json!({"search": null, "cursor": null}),
        )
        .await
        .expect("their list");
        assert_eq!(theirs["total"], 0);
        let mut edit = pupil("Mallory", vec![]);
        edit["id"] = ada["id"].clone();
        let err = mutate(&app, &other_admin, "admin.savePupil", edit, &[])
            .await
            .expect_err("not theirs");
        assert_eq!(err.0, "NOT_FOUND");
        let err = mutate(
            &app,
            &other_admin,
            "admin.saveClass",
            json!({"id": class_id, "name": "Hacked"}),
            &[],
        )
        .await
        .expect_err("not theirs");
        assert_eq!(err.0, "NOT_FOUND");
        // Nor may they put their pupils in our class.
        let err = mutate(
            &app,
            &other_admin,
            "admin.savePupil",
            pupil("Eve", vec![&class_id]),
            &[],
        )
        .await
        .expect_err("foreign class");
        assert_eq!(
            err.2,
            json!({"classIds": ["Choose classes from the list."]})
        );

        // A teacher is not an admin.
        for path in [
            "admin.listPupils",
            "admin.listStaff",
            "admin.schoolSettings",
        ] {
            let err = query(&app, &teacher, path, json!({"search": null, "cursor": null}))
                .await
                .expect_err("teacher");
            assert_eq!(err.0, "FORBIDDEN", "{path}");
        }
        let err = mutate(
            &app,
            &teacher,
            "admin.saveClass",
            json!({"id": null, "name": "X"}),
            &[],
        )
        .await
        .expect_err("teacher");
        assert_eq!(err.0, "FORBIDDEN");
    }
);

dual_test!(
    async fn a_parents_language_is_chosen_on_the_pupil_record(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let mut input = pupil("Ola", vec![]);
        input["parentLanguage"] = json!("pl");
        let ola = mutate(&app, &admin, "admin.savePupil", input.clone(), &[])
            .await
            .expect("pupil");
        assert_eq!(ola["parentLanguage"], "pl");
        // It is the parent address's e-mail language, as the preferences page shows it.
        let mut pooled = app.db.conn().await.expect("connection");
        let stored = voicemark::models::email_preferences::find(&mut pooled.db(), "parent@families.test")
            .await
            .expect("query")
            .expect("a preference row");
        assert_eq!(stored.language, "pl");
        let list = query(&app, &admin, "admin.listPupils", json!({"search": "ola", "cursor": null}))
            .await
            .expect("list");
        assert_eq!(list["pupils"][0]["parentLanguage"], "pl");

        // Absent leaves it; a language not on the list, or one without a parent address,
        // is refused and nothing changes.
        let mut edit = input.clone();
        edit["id"] = ola["id"].clone();
        edit["parentLanguage"] = Value::Null;
        let kept = mutate(&app, &admin, "admin.savePupil", edit.clone(), &[]).await.expect("saved");
        assert_eq!(kept["parentLanguage"], "pl");
        edit["parentLanguage"] = json!("xx");
        let err = mutate(&app, &admin, "admin.savePupil", edit.clone(), &[]).await.expect_err("refused");
        assert_eq!(err.2, json!({"parentLanguage": ["Choose a language."]}));
        edit["parentLanguage"] = json!("de");
        edit["parentEmail"] = Value::Null;
        let err = mutate(&app, &admin, "admin.savePupil", edit, &[]).await.expect_err("refused");
        assert_eq!(err.2, json!({"parentLanguage": ["Enter the parent's e-mail to choose their language."]}));
        let stored = voicemark::models::email_preferences::find(&mut pooled.db(), "parent@families.test")
            .await
            .expect("query")
            .expect("row");
        assert_eq!(stored.language, "pl");
    }
);

dual_test!(
    async fn staff_and_settings_are_edited_by_the_admin(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let other = make_school(&app, "Riverside").await;
        let (admin_id, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let (other_teacher, _) = signed_in(&app, &other, UserRole::Teacher).await;
        make_pro(&app, &school, None).await;

        let staff = mutate(
            &app,
            &admin,
            "admin.saveStaff",
            json!({"id": null, "forename": "Tom", "surname": "Reed", "email": " Tom.Reed@School.test ",
                   "role": "TEACHER", "classIds": [], "activated": true, "disabled": false}),
            &[],
        )
        .await
        .expect("staff");
        assert_eq!(staff["email"], "tom.reed@school.test");
        assert_eq!(staff["hasPassword"], false);
        // Activated without a password yet: active, by the one rule Manage Users uses too.
        assert_eq!(staff["status"], "active");
        let listed = query(&app, &admin, "admin.listStaff", Value::Null)
            .await
            .expect("list");
        assert_eq!(listed["staff"].as_array().expect("array").len(), 2);
        assert_eq!(listed["total"], 2);
        assert_eq!(listed["nextCursor"], Value::Null);
        // The same address again, another school's user, a bad role, and self-disabling.
        let err = mutate(
            &app,
            &admin,
            "admin.saveStaff",
            json!({"id": null, "forename": "T", "surname": "R", "email": "tom.reed@school.test",
                   "role": "TEACHER", "classIds": [], "activated": true, "disabled": false}),
            &[],
        )
        .await
        .expect_err("duplicate");
        assert_eq!(
            err.2,
            json!({"email": ["Another account already uses this e-mail address."]})
        );
        let err = mutate(
            &app,
            &admin,
            "admin.saveStaff",
            json!({"id": other_teacher, "forename": "T", "surname": "R", "email": "x@school.test",
                   "role": "TEACHER", "classIds": [], "activated": true, "disabled": false}),
            &[],
        )
        .await
        .expect_err("other school");
        assert_eq!(err.0, "NOT_FOUND");
        let err = mutate(
            &app,
            &admin,
            "admin.saveStaff",
            json!({"id": admin_id, "forename": "A", "surname": "B", "email": "me@school.test",
                   "role": "SUPERADMIN", "classIds": [], "activated": true, "disabled": true}),
            &[],
        )
        .await
        .expect_err("self");
        assert_eq!(
            err.2,
            json!({"role": ["Choose Teacher or Admin.", "You cannot remove your own admin role."],
                   "disabled": ["You cannot disable your own account."]})
        );

        let settings = query(&app, &admin, "admin.schoolSettings", Value::Null)
            .await
            .expect("settings");
        assert_eq!(settings["name"], "Northbridge");
        assert_eq!(settings["type"], "SCHOOL");
        let saved = mutate(
            &app,
            &admin,
            "admin.saveSchoolSettings",
            json!({"name": "Northbridge Academy", "postcode": "nb1 2ab", "type": "BUSINESS",
                   "notifyParentsGeneral": false, "notifyParentsAssignment": true,
                   "notificationsFrequency": "WEEKLY"}),
            &[],
        )
        .await
        .expect("saved");
        assert_eq!(saved["postcode"], "NB1 2AB");
        let settings = query(&app, &admin, "admin.schoolSettings", Value::Null)
            .await
            .expect("settings");
        assert_eq!(settings["type"], "BUSINESS");
        assert_eq!(settings["notificationsFrequency"], "WEEKLY");
        assert_eq!(settings["notifyParentsGeneral"], false);
        let err = mutate(
            &app,
            &admin,
            "admin.saveSchoolSettings",
            json!({"name": " ", "postcode": null, "type": "CLUB", "notifyParentsGeneral": false,
                   "notifyParentsAssignment": true, "notificationsFrequency": "WEEKLY"}),
            &[],
        )
        .await
        .expect_err("invalid");
        assert_eq!(
            err.2,
            json!({"name": ["Enter the school's name."], "type": ["Choose School or Business."]})
        );
    }
);

async fn count(app: &TestApp, cookie: &str) -> usize {
    let page = query(app, cookie, "admin.listStaff", Value::Null).await.expect("list");
    let listed = page["staff"].as_array().expect("array").len();
    assert_eq!(page["total"], listed as i64, "one page holds every member of a small school");
    listed
}

fn staff_member(forename: &str, email: &str, disabled: bool) -> Value {
    json!({"id": null, "forename": forename, "surname": "Reed", "email": email,
           "role": "TEACHER", "classIds": [], "activated": true, "disabled": disabled})
}

dual_test!(
    async fn staff_added_in_manage_school_take_seats(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;

        // Basic: the first admin is the one user.
        let err = mutate(&app, &admin, "admin.saveStaff", staff_member("Tom", "tom@school.test", false), &[])
            .await
            .expect_err("basic is full");
        assert_eq!(err.0, "FORBIDDEN");
        assert_eq!(
            err.1,
            "There are no free seats left: the Basic plan has one user. Choose Upgrade to Pro to invite colleagues."
        );
        assert_eq!(count(&app, &admin).await, 1, "nothing written");
        // A disabled member holds no seat, so Basic may keep a record of one.
        let kept = mutate(&app, &admin, "admin.saveStaff", staff_member("Kim", "kim@school.test", true), &[])
            .await
            .expect("a disabled member");
        assert_eq!(kept["disabled"], true);

        // Pro with two seats: the admin and Tom.
        make_pro(&app, &school, Some(2)).await;
        let tom = mutate(&app, &admin, "admin.saveStaff", staff_member("Tom", "tom@school.test", false), &[])
            .await
            .expect("second seat");
        let tom_id = tom["id"].as_str().expect("id").to_owned();
        let err = mutate(&app, &admin, "admin.saveStaff", staff_member("Ann", "ann@school.test", false), &[])
            .await
            .expect_err("pro is full");
        assert_eq!(
            err.1,
            "There are no free seats left: all 2 seats are taken or invited. Choose Manage subscription to buy more seats."
        );
        // Enabling Kim would take a third seat.
        let mut enable_kim = staff_member("Kim", "kim@school.test", false);
        enable_kim["id"] = kept["id"].clone();
        let err = mutate(&app, &admin, "admin.saveStaff", enable_kim.clone(), &[])
            .await
            .expect_err("enable beyond seats");
        assert_eq!(err.0, "FORBIDDEN");

        // Disabling Tom ends his sessions at once and frees his seat for Kim.
        session_cookie(&app, &tom_id).await;
        assert_eq!(session_count(&app, &tom_id).await, 1);
        let mut disable_tom = staff_member("Tom", "tom@school.test", true);
        disable_tom["id"] = json!(tom_id);
        mutate(&app, &admin, "admin.saveStaff", disable_tom, &[])
            .await
            .expect("disable");
        assert_eq!(session_count(&app, &tom_id).await, 0, "Tom's sessions ended");
        let kim = mutate(&app, &admin, "admin.saveStaff", enable_kim, &[])
            .await
            .expect("Kim takes the freed seat");
        assert_eq!(kim["disabled"], false);
        // Editing a member who already holds a seat needs no new one.
        let mut rename_kim = staff_member("Kimberley", "kim@school.test", false);
        rename_kim["id"] = kept["id"].clone();
        let renamed = mutate(&app, &admin, "admin.saveStaff", rename_kim, &[])
            .await
            .expect("rename with full seats");
        assert_eq!(renamed["forename"], "Kimberley");
    }
);

dual_test!(
    async fn a_csv_import_is_all_or_nothing_with_numbered_lines(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let header = "forename,surname,email,parentEmail,upn,yearGroup,formGroup\n";
        let bad = format!(
            "{header}Ada,Lovelace,ada@pupils.test,mum@families.test,U1,Year 7,7A\n\
             ,Babbage,,,U2,Year 7,7A\n\
             Grace,Hopper,grace@,,U1,Year 8,8B\n"
        );
        let err = mutate(&app, &admin, "admin.importPupils", json!({"csv": bad}), &[])
            .await
            .expect_err("bad file");
        assert_eq!(err.0, "BAD_REQUEST");
        assert_eq!(err.1, "Line 3: the forename is missing.");
        assert_eq!(
            err.2,
            json!({"csv": [
                "Line 3: the forename is missing.",
                "Line 4: \"grace@\" is not a valid e-mail address.",
                "Line 4: the UPN U1 is also on line 2."
            ]})
        );
        assert_eq!(pupil_count(&app, &school).await, 0, "nothing was imported");

        let good = format!(
            "{header}Ada,Lovelace,ada@pupils.test,mum@families.test,U1,Year 7,7A\n\
             Charles,Babbage,,,U2,Year 7,7A\n\
             \"Grace \"\"Amazing\"\"\",Hopper,,,U3,Year 8,8B\n"
        );
        let done = mutate(
            &app,
            &admin,
            "admin.importPupils",
            json!({"csv": good}),
            &[],
        )
        .await
        .expect("imported");
        assert_eq!(done, json!({"imported": 3}));
        assert_eq!(pupil_count(&app, &school).await, 3);
        let forms = query(&app, &admin, "admin.listFormGroups", Value::Null)
            .await
            .expect("forms");
        assert_eq!(
            forms,
            json!([
                {"id": forms[0]["id"], "name": "7A", "pupils": 2},
                {"id": forms[1]["id"], "name": "8B", "pupils": 1}
            ])
        );
        // Importing the same file again clashes with the UPNs now in the school.
        let again = format!("{header}Ada,Lovelace,,,U1,,\n");
        let err = mutate(
            &app,
            &admin,
            "admin.importPupils",
            json!({"csv": again}),
            &[],
        )
        .await
        .expect_err("existing upn");
        assert_eq!(
            err.2,
            json!({"csv": ["Line 2: a pupil with the UPN U1 already exists."]})
        );
        // Too large.
        let huge = format!("{header}{}", "Ada,Lovelace,,,,,\n".repeat(70_000));
        let err = mutate(
            &app,
            &admin,
            "admin.importPupils",
            json!({"csv": huge}),
            &[],
        )
        .await
        .expect_err("too large");
        assert_eq!(
            err.1,
            "The file is larger than 1 MB. Split it into smaller files."
        );
        let many = format!("{header}{}", "Ada,Lovelace,,,,,\n".repeat(5_001));
        let err = mutate(
            &app,
            &admin,
            "admin.importPupils",
            json!({"csv": many}),
            &[],
        )
        .await
        .expect_err("too many");
        assert!(err.1.contains("at most 5,000"), "{}", err.1);
        assert_eq!(pupil_count(&app, &school).await, 3);
    }
);
