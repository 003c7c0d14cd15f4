//! Organisations (docs/organisations.md): the session's active school for MAT users and
//! superadmins (`organisation.list`, `organisation.switch`), the superadmin's `/schools`
//! (`organisation.adminList`, `organisation.save`), and sign-up creating an organisation
//! when the address is confirmed.

use core_wasm::{NotificationFrequency, OrgType, UserRole};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::auth::accounts::{self, RegisterForm};
use voicemark::db::schema::{audit_log, schools, students, users};
use voicemark::ids::new_id;
use voicemark::models::{now, organisations};
use voicemark::with_conn;

use crate::admin::{mutate, query};
use crate::auth::{add_user, link, outbox, token_of, Browser};
use crate::dual_test;
use crate::support::{make_school, session_cookie, TestApp};

async fn make_trust(app: &TestApp, name: &str) -> String {
    let at = now();
    let trust = organisations::NewTrust {
        id: new_id(),
        name: name.into(),
        created_at: at,
        updated_at: at,
    };
    let mut pooled = app.db.conn().await.expect("connection");
    organisations::insert_trust(&mut pooled.db(), &trust)
        .await
        .expect("trust");
    trust.id
}

async fn school_in(app: &TestApp, name: &str, trust_id: Option<&str>) -> String {
    let at = now();
    let school = organisations::NewSchool {
        id: new_id(),
        trust_id: trust_id.map(str::to_owned),
        created_at: at,
        updated_at: at,
        name: name.into(),
        postcode: Some("AB1 2CD".into()),
        org_type: OrgType::School,
        redirect_to_leaders: false,
        notifications_frequency: NotificationFrequency::Immediately,
    };
    let mut pooled = app.db.conn().await.expect("connection");
    organisations::insert_school(&mut pooled.db(), &school)
        .await
        .expect("school");
    school.id
}

/// A signed-in user of `role` at `school_id` (none for a superadmin): (id, cookie).
async fn user(app: &TestApp, school_id: Option<&str>, role: UserRole) -> (String, String) {
    let id = crate::support::make_user(app, school_id, role, "Max", &role.as_str().to_lowercase()).await;
    crate::support::set_flags(app, &id, true, false).await;
    (id.clone(), session_cookie(app, &id).await)
}

async fn pupil(app: &TestApp, school_id: &str, forename: &str) {
    let at = now();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(students::table)
        .values((
            students::id.eq(new_id()),
            students::created_at.eq(at),
            students::updated_at.eq(at),
            students::forename.eq(forename),
            students::surname.eq("Pupil"),
            students::school_id.eq(school_id),
        ))
        .execute(c)
        .await)
    .expect("pupil");
}

fn forenames(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|s| s["forename"].as_str().unwrap_or_default().to_owned())
        .collect()
}

async fn switch_audit_rows(app: &TestApp, user_id: &str) -> Vec<String> {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| audit_log::table
        .filter(audit_log::user_id.eq(user_id))
        .filter(audit_log::entity.eq("session.activeSchool"))
        .select(audit_log::entity_id)
        .load(c)
        .await)
    .expect("audit")
}

dual_test!(
    async fn a_mat_user_switches_within_the_trust_and_never_outside(app: TestApp) {
        let trust = make_trust(&app, "Northbridge Learning Trust").await;
        let home = school_in(&app, "Northbridge Academy", Some(&trust)).await;
        let sister = school_in(&app, "Riverside Primary", Some(&trust)).await;
        let other_trust = make_trust(&app, "Elsewhere Trust").await;
        let outside = school_in(&app, "Hillcrest School", Some(&other_trust)).await;
        let lone = make_school(&app, "Lone School").await;
        pupil(&app, &home, "Nia").await;
        pupil(&app, &sister, "Rio").await;
        pupil(&app, &sister, "Sol").await;
        pupil(&app, &outside, "Xan").await;
        let (mat_id, mat) = user(&app, Some(&home), UserRole::MatUser).await;

        let list = query(&app, &mat, "organisation.list", Value::Null)
            .await
            .expect("list");
        let names: Vec<&str> = list["organisations"]
            .as_array()
            .expect("organisations")
            .iter()
            .map(|o| o["name"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(names, ["Northbridge Academy", "Riverside Primary"]);
        let riverside = &list["organisations"][1];
        assert_eq!(riverside["pupils"], 2);
        assert_eq!(riverside["active"], false);
        assert_eq!(list["organisations"][0]["active"], true);
        assert_eq!(list["organisations"][0]["home"], true);
        assert_eq!(list["organisations"][0]["users"], 1);

        let before = query(&app, &mat, "school.listStudents", Value::Null)
            .await
            .expect("pupils");
        assert_eq!(forenames(&before), ["Nia"]);

        let switched = mutate(
            &app,
            &mat,
            "organisation.switch",
            json!({ "schoolId": sister }),
            &[],
        )
        .await
        .expect("switch");
        assert_eq!(switched["name"], "Riverside Primary");
        let after = query(&app, &mat, "school.listStudents", Value::Null)
            .await
            .expect("pupils");
        assert_eq!(
            forenames(&after),
            ["Rio", "Sol"],
            "tenant queries follow the active school"
        );
        let list = query(&app, &mat, "organisation.list", Value::Null)
            .await
            .expect("list");
        assert_eq!(list["organisations"][1]["active"], true);

        // Outside the trust (or no trust at all): NOT_FOUND, and nothing changes.
        for target in [&outside, &lone, &"no-such-school".to_owned()] {
            let refused = mutate(
                &app,
                &mat,
                "organisation.switch",
                json!({ "schoolId": target }),
                &[],
            )
            .await;
            assert_eq!(
                refused.expect_err("refused").0,
                "NOT_FOUND",
                "a MAT user cannot switch into {target}"
            );
        }
        let still = query(&app, &mat, "school.listStudents", Value::Null)
            .await
            .expect("pupils");
        assert_eq!(forenames(&still), ["Rio", "Sol"]);

        // A session whose stored choice is outside the trust acts in the home school.
        let mut pooled = app.db.conn().await.expect("connection");
        with_conn!(pooled.db(), |c| diesel::update(
            voicemark::db::schema::sessions::table
        )
        .filter(voicemark::db::schema::sessions::user_id.eq(&mat_id))
        .set(voicemark::db::schema::sessions::active_school_id.eq(&outside))
        .execute(c)
        .await)
        .expect("tamper");
        // Behind the models' back, as another process would write it: the test stands for
        // the session cache's few seconds having passed.
        voicemark::auth::session_cache::invalidate();
        let home_again = query(&app, &mat, "school.listStudents", Value::Null)
            .await
            .expect("pupils");
        assert_eq!(forenames(&home_again), ["Nia"]);

        // Back home through the procedure too; two switches, two audit rows.
        mutate(
            &app,
            &mat,
            "organisation.switch",
            json!({ "schoolId": home }),
            &[],
        )
        .await
        .expect("home");
        assert_eq!(
            switch_audit_rows(&app, &mat_id).await,
            [sister.clone(), home.clone()]
        );
    }
);

dual_test!(
    async fn admins_and_teachers_cannot_switch(app: TestApp) {
        let trust = make_trust(&app, "A Trust").await;
        let home = school_in(&app, "Home School", Some(&trust)).await;
        let sister = school_in(&app, "Sister School", Some(&trust)).await;
        for role in [UserRole::Admin, UserRole::Teacher] {
            let (_, cookie) = user(&app, Some(&home), role).await;
            let refused = mutate(
                &app,
                &cookie,
                "organisation.switch",
                json!({ "schoolId": sister }),
                &[],
            )
            .await;
            assert_eq!(refused.expect_err("refused").0, "FORBIDDEN", "{role:?}");
            let list = query(&app, &cookie, "organisation.list", Value::Null).await;
            assert_eq!(list.expect_err("refused").0, "FORBIDDEN");
        }
    }
);

dual_test!(
    async fn a_superadmin_acts_in_any_organisation_with_an_audit_row_each_time(app: TestApp) {
        let trust = make_trust(&app, "A Trust").await;
        let first = school_in(&app, "First School", Some(&trust)).await;
        let second = make_school(&app, "Second School").await;
        pupil(&app, &second, "Zed").await;
        let (admin_id, superadmin) = user(&app, None, UserRole::Superadmin).await;

        let before = query(&app, &superadmin, "school.listStudents", Value::Null).await;
        let (code, message, _) = before.expect_err("no organisation yet");
        assert_eq!(code, "FORBIDDEN");
        assert_eq!(
            message,
            "No organisation chosen. Choose one with the Organisation picker in the header."
        );
        let all = query(&app, &superadmin, "organisation.list", Value::Null)
            .await
            .expect("list");
        assert_eq!(all["organisations"].as_array().map(Vec::len), Some(2));

        for target in [&first, &second] {
            mutate(
                &app,
                &superadmin,
                "organisation.switch",
                json!({ "schoolId": target }),
                &[],
            )
            .await
            .expect("switch");
        }
        let pupils = query(&app, &superadmin, "school.listStudents", Value::Null)
            .await
            .expect("pupils");
        assert_eq!(forenames(&pupils), ["Zed"]);
        // Manage School works inside the chosen organisation.
        let settings = query(&app, &superadmin, "admin.schoolSettings", Value::Null)
            .await
            .expect("Manage School");
        assert_eq!(settings["name"], "Second School");
        let dashboard = query(&app, &superadmin, "dashboard.summary", Value::Null).await;
        assert!(dashboard.is_ok(), "{dashboard:?}");
        assert_eq!(switch_audit_rows(&app, &admin_id).await, [first, second]);
        let unknown = mutate(
            &app,
            &superadmin,
            "organisation.switch",
            json!({ "schoolId": "nope" }),
            &[],
        )
        .await;
        assert_eq!(unknown.expect_err("refused").0, "NOT_FOUND");
    }
);

fn organisation(name: &str) -> Value {
    json!({
        "id": null, "name": name, "postcode": "ab1 2cd", "orgType": "BUSINESS", "seats": 25,
        "plan": "Pro", "redirectToLeaders": true, "trustId": null, "newTrustName": "New Trust"
    })
}

dual_test!(
    async fn the_superadmin_creates_and_edits_organisations_with_field_errors(app: TestApp) {
        let school = make_school(&app, "Existing School").await;
        let (_, admin) = user(&app, Some(&school), UserRole::Admin).await;
        let refused = mutate(&app, &admin, "organisation.save", organisation("X"), &[]).await;
        assert_eq!(refused.expect_err("admins may not").0, "FORBIDDEN");
        let (_, superadmin) = user(&app, None, UserRole::Superadmin).await;

        let mut bad = organisation("  ");
        bad["orgType"] = json!("CHARITY");
        bad["seats"] = json!(-1);
        bad["plan"] = json!("Gold");
        bad["postcode"] = json!("<script>");
        let (code, _, fields) = mutate(&app, &superadmin, "organisation.save", bad, &[])
            .await
            .expect_err("invalid");
        assert_eq!(code, "BAD_REQUEST");
        assert_eq!(fields["name"][0], "Enter the organisation's name.");
        assert_eq!(fields["orgType"][0], "Choose School or Business.");
        assert_eq!(
            fields["seats"][0],
            "Enter a number of seats from 0 to 100000."
        );
        assert_eq!(fields["plan"][0], "Choose Basic, Pro or Enterprise.");
        assert_eq!(fields["postcode"][0], "Enter a valid postcode.");
        let mut unknown_trust = organisation("Trustless");
        unknown_trust["newTrustName"] = json!(null);
        unknown_trust["trustId"] = json!("made-up");
        let (_, _, fields) = mutate(&app, &superadmin, "organisation.save", unknown_trust, &[])
            .await
            .expect_err("unknown trust");
        assert_eq!(fields["trustId"][0], "Choose a trust from the list.");
        let list = query(&app, &superadmin, "organisation.adminList", Value::Null)
            .await
            .expect("list");
        assert_eq!(
            list.as_array().map(Vec::len),
            Some(1),
            "nothing half-written"
        );

        let created = mutate(
            &app,
            &superadmin,
            "organisation.save",
            organisation("Acme Ltd"),
            &[],
        )
        .await
        .expect("created");
        assert_eq!(created["postcode"], "AB1 2CD");
        assert_eq!(created["orgType"], "BUSINESS");
        assert_eq!(created["plan"], "Pro");
        assert_eq!(created["stripeProductId"], "manual:pro");
        assert_eq!(created["seats"], 25);
        assert_eq!(created["trustName"], "New Trust");
        assert_eq!(created["redirectToLeaders"], true);

        // Edit: rename, back to Basic, join an existing trust by id.
        let trusts = query(&app, &superadmin, "organisation.trusts", Value::Null)
            .await
            .expect("trusts");
        assert_eq!(trusts[0]["name"], "New Trust");
        let edited = mutate(
            &app,
            &superadmin,
            "organisation.save",
            json!({
                "id": school, "name": "Existing School (renamed)", "postcode": null,
                "orgType": "SCHOOL", "seats": null, "plan": "Basic", "redirectToLeaders": false,
                "trustId": trusts[0]["id"], "newTrustName": null
            }),
            &[],
        )
        .await
        .expect("edited");
        assert_eq!(edited["name"], "Existing School (renamed)");
        assert_eq!(edited["plan"], "Basic");
        assert_eq!(edited["trustName"], "New Trust");
        assert_eq!(edited["users"], 1);
        let list = query(&app, &superadmin, "organisation.adminList", Value::Null)
            .await
            .expect("list");
        let names: Vec<&str> = list
            .as_array()
            .expect("list")
            .iter()
            .map(|o| o["name"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(names, ["Acme Ltd", "Existing School (renamed)"]);
        let missing = mutate(
            &app,
            &superadmin,
            "organisation.save",
            json!({
                "id": "nope", "name": "N", "postcode": null, "orgType": "SCHOOL", "seats": null,
                "plan": "Basic", "redirectToLeaders": false, "trustId": null, "newTrustName": null
            }),
            &[],
        )
        .await;
        assert_eq!(missing.expect_err("missing").0, "NOT_FOUND");
    }
);

fn signup(email: &str, organisation: &str) -> RegisterForm {
    RegisterForm {
        forename: "Grace".into(),
        surname: "Hopper".into(),
        email: email.into(),
        password: "Compiler1".into(),
        organisation_name: organisation.into(),
        postcode: "cb2 1tn".into(),
        org_type: "SCHOOL".into(),
    }
}

dual_test!(
    async fn sign_up_creates_the_organisation_with_its_admin_once_confirmed(app: TestApp) {
        add_user(&app, "taken@school.test", true, false).await;
        let missing = accounts::register(&app.state, signup("a@school.test", " "), None).await;
        assert!(matches!(
            missing,
            Err(accounts::AccountError::Field {
                field: "organisationName",
                ..
            })
        ));
        let taken = accounts::register(
            &app.state,
            signup("Taken@school.test", "Taken Academy"),
            None,
        )
        .await;
        let fresh = accounts::register(
            &app.state,
            signup("grace@school.test", "Hopper Academy"),
            None,
        )
        .await;
        assert!(
            taken.is_ok() && fresh.is_ok(),
            "the same neutral answer either way"
        );

        let count_schools = || async {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| schools::table
                .count()
                .get_result::<i64>(c)
                .await)
            .expect("count")
        };
        assert_eq!(
            count_schools().await,
            0,
            "no organisation before confirmation"
        );

        let mails = outbox(&app).await;
        let confirmation = mails
            .iter()
            .find(|m| m.contains("To: grace@school.test"))
            .expect("confirmation");
        let token = token_of(&link(
            confirmation,
            "http://127.0.0.1:3000/account/confirm?token=",
        ));
        let created = accounts::confirm_email(&app.state, &token)
            .await
            .expect("confirm");
        assert_eq!(created.as_deref(), Some("Hopper Academy"));
        assert_eq!(
            count_schools().await,
            1,
            "only the confirmed sign-up made one"
        );

        let mut pooled = app.db.conn().await.expect("connection");
        let (role, activated, school_id): (UserRole, bool, Option<String>) =
            with_conn!(pooled.db(), |c| users::table
                .filter(users::email.eq("grace@school.test"))
                .select((users::role, users::activated, users::school_id))
                .first(c)
                .await)
            .expect("user");
        assert_eq!(role, UserRole::Admin);
        assert!(activated);
        let school = organisations::school_record(&mut pooled.db(), &school_id.expect("school"))
            .await
            .expect("read")
            .expect("school");
        assert_eq!(school.name, "Hopper Academy");
        assert_eq!(school.postcode.as_deref(), Some("CB2 1TN"));
        assert_eq!(school.stripe_product_id, None, "the Basic plan");

        // The registrant signs in as the new school's admin.
        let mut browser = Browser::new(&app);
        browser.sign_in("grace@school.test", "Compiler1").await;
        let session = browser.session().await;
        assert_eq!(session["user"]["role"], "ADMIN");
        assert_eq!(session["user"]["schoolName"], "Hopper Academy");
        assert_eq!(session["user"]["orgType"], "SCHOOL");
        assert_eq!(session["user"]["pro"], false);

        // The link works once; the owner of the taken address got a note, not an organisation.
        assert!(accounts::confirm_email(&app.state, &token).await.is_err());
        assert!(mails.iter().any(
            |m| m.contains("To: taken@school.test") && m.contains("Someone tried to register")
        ));
    }
);
