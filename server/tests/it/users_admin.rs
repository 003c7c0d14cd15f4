//! Manage Users: invite → link → activated and signed in; seats (Basic one user, Pro with
//! its seats); the role picker's rules; disabling ends sessions; another school's users are
//! NOT_FOUND; the CSV batch is all or nothing; the superadmin's directory.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::auth::accounts;
use voicemark::db::schema::{audit_log, users};
use voicemark::with_conn;

use crate::admin::{mutate, query, signed_in};
use crate::auth::session_count;
use crate::dual_test;
use crate::support::{make_pro, make_school, TestApp};

const PASSWORD: &str = "Voicemark1";

/// The audit rows about user `id`: (action, by whom, detail), sorted.
async fn audit_of(app: &TestApp, id: &str) -> Vec<(String, String, String)> {
    let mut pooled = app.db.conn().await.expect("conn");
    let mut rows: Vec<(String, Option<String>, Option<String>)> = with_conn!(pooled.db(), |c| audit_log::table
        .filter(audit_log::entity.eq("user"))
        .filter(audit_log::entity_id.eq(id))
        .select((audit_log::action, audit_log::user_id, audit_log::detail))
        .load(c)
        .await)
    .expect("audit");
    rows.sort();
    rows.into_iter()
        .map(|(a, u, d)| (a, u.unwrap_or_default(), d.unwrap_or_default()))
        .collect()
}

fn row(action: &str, by: &str, detail: &str) -> (String, String, String) {
    (action.to_owned(), by.to_owned(), detail.to_owned())
}

/// The messages in the outbox after running the queued jobs, oldest first.
async fn outbox(app: &TestApp) -> Vec<String> {
    crate::sending::drain(&app.state).await;
    let mut messages: Vec<(std::time::SystemTime, String)> =
        std::fs::read_dir(app.dir.join("outbox"))
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| {
                        let raw = std::fs::read_to_string(e.path()).expect("read eml");
                        let at = e.metadata().and_then(|m| m.modified()).expect("mtime");
                        (at, raw.replace("=\r\n", "").replace("=\n", "").replace("=3D", "="))
                    })
                    .collect()
            })
            .unwrap_or_default();
    messages.sort_by_key(|(t, _)| *t);
    messages.into_iter().map(|(_, m)| m).collect()
}

/// The invitation token in `message`.
fn invite_token(message: &str) -> String {
    let start = message
        .find("/account/reset?token=")
        .unwrap_or_else(|| panic!("no invitation link in:\n{message}"));
    message[start + "/account/reset?token=".len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// Signs in through the credentials endpoint; answers the JSON body's URL.
async fn sign_in(app: &TestApp, email: &str, password: &str) -> String {
    let csrf = app.get("/api/auth/csrf").await;
    let cookie = csrf
        .headers
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join("; ");
    let token = csrf.json()["csrfToken"].as_str().expect("csrf").to_owned();
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("email", email),
            ("password", password),
            ("redirect", "false"),
            ("csrfToken", &token),
            ("callbackUrl", "/"),
            ("json", "true"),
        ])
        .finish();
    let request = Request::post("/api/auth/callback/credentials")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, cookie)
        .body(Body::from(body))
        .expect("request");
    let mut request = request;
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from(([203, 0, 113, 9], 40000))));
    let response = app.request(request).await;
    // 200 with the callback URL, or 401 with an `?error=` URL.
    assert!(
        matches!(response.status, StatusCode::OK | StatusCode::UNAUTHORIZED),
        "{}",
        response.text()
    );
    response.json()["url"].as_str().unwrap_or_default().to_owned()
}

fn invitee(email: &str, role: &str) -> Value {
    json!({ "forename": "Tess", "surname": "Teacher", "email": email, "role": role, "schoolId": null })
}

async fn activated(app: &TestApp, id: &str) -> (bool, bool) {
    let mut pooled = app.db.conn().await.expect("conn");
    with_conn!(pooled.db(), |c| users::table
        .find(id)
        .select((users::activated, users::email_verified.is_not_null()))
        .first(c)
        .await)
    .expect("user")
}

dual_test!(
    async fn an_invited_teacher_sets_a_password_and_signs_in(app: TestApp) {
        let school = make_school(&app, "Hill School").await;
        make_pro(&app, &school, Some(3)).await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;

        let user = mutate(&app, &admin, "user.invite", invitee("Tess@School.test", "TEACHER"), &[])
            .await
            .expect("invited");
        assert_eq!(user["email"], "tess@school.test");
        assert_eq!(user["status"], "pending");
        let id = user["id"].as_str().unwrap().to_owned();

        let seats = query(&app, &admin, "leader.getSeatInfo", json!(null)).await.unwrap();
        assert_eq!(seats, json!({ "seats": 3, "used": 1, "pending": 1, "available": 1 }));

        let mails = outbox(&app).await;
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains("Subject: You have been invited to Voicemark"), "{}", mails[0]);
        assert!(mails[0].contains("Hill School"));
        assert!(mails[0].contains("&invite=1"));
        let first = invite_token(&mails[0]);

        // Resending spends the first link.
        mutate(&app, &admin, "user.resendInvite", json!({ "id": id }), &[]).await.expect("resent");
        let mails = outbox(&app).await;
        assert_eq!(mails.len(), 2);
        let second = invite_token(&mails[1]);
        assert_ne!(first, second);
        let stale = accounts::reset_password(&app.state, &first, PASSWORD, None).await;
        assert!(matches!(stale, Err(accounts::AccountError::InvalidToken)), "{stale:?}");

        // Before the link: pending users cannot sign in.
        assert!(sign_in(&app, "tess@school.test", PASSWORD).await.contains("error="));
        accounts::reset_password(&app.state, &second, PASSWORD, None)
            .await
            .expect("password set");
        assert_eq!(activated(&app, &id).await, (true, true));
        // The link works once.
        let again = accounts::reset_password(&app.state, &second, "Another1pass", None).await;
        assert!(matches!(again, Err(accounts::AccountError::InvalidToken)));

        let url = sign_in(&app, "tess@school.test", PASSWORD).await;
        assert!(!url.contains("error="), "signed in: {url}");

        let list = query(&app, &admin, "user.list", json!(null)).await.unwrap();
        let tess = list["users"].as_array().unwrap().iter().find(|u| u["id"] == id).expect("listed").clone();
        assert_eq!(tess["status"], "active");
        assert_eq!(tess["role"], "TEACHER");
        assert!(tess["lastActive"].is_string(), "signed in once: {tess}");
    }
);

dual_test!(
    async fn seats_limit_invitations(app: TestApp) {
        // Basic: the first admin is the only user.
        let basic = make_school(&app, "Basic School").await;
        let (_, admin) = signed_in(&app, &basic, UserRole::Admin).await;
        let seats = query(&app, &admin, "leader.getSeatInfo", json!(null)).await.unwrap();
        assert_eq!(seats, json!({ "seats": null, "used": 1, "pending": 0, "available": 0 }));
        let refused = mutate(&app, &admin, "user.invite", invitee("a@school.test", "TEACHER"), &[])
            .await
            .unwrap_err();
        assert_eq!(refused.0, "FORBIDDEN");
        assert!(refused.1.contains("Upgrade to Pro"), "{}", refused.1);
        assert!(outbox(&app).await.is_empty(), "nothing sent");

        // Pro with 3 seats: two more people, then full.
        let pro = make_school(&app, "Pro School").await;
        make_pro(&app, &pro, Some(3)).await;
        let (pro_admin_id, admin) = signed_in(&app, &pro, UserRole::Admin).await;
        for email in ["b@school.test", "c@school.test"] {
            mutate(&app, &admin, "user.invite", invitee(email, "TEACHER"), &[]).await.expect("fits");
        }
        let refused = mutate(&app, &admin, "user.invite", invitee("d@school.test", "TEACHER"), &[])
            .await
            .unwrap_err();
        assert!(refused.1.contains("Manage subscription"), "{}", refused.1);
        let seats = query(&app, &admin, "leader.getSeatInfo", json!(null)).await.unwrap();
        assert_eq!(seats, json!({ "seats": 3, "used": 1, "pending": 2, "available": 0 }));

        // Revoking a pending invitation frees its seat and its address.
        let list = query(&app, &admin, "user.list", json!(null)).await.unwrap();
        let pending = list["users"].as_array().unwrap().iter().find(|u| u["email"] == "b@school.test").unwrap();
        mutate(&app, &admin, "user.revokeInvite", json!({ "id": pending["id"] }), &[]).await.expect("revoked");
        assert_eq!(
            audit_of(&app, pending["id"].as_str().unwrap()).await,
            vec![row("CREATE", &pro_admin_id, "invite"), row("DELETE", &pro_admin_id, "revoke invite")]
        );
        mutate(&app, &admin, "user.invite", invitee("b@school.test", "ADMIN"), &[]).await.expect("free again");

        // An address in use is a field error.
        let taken = mutate(&app, &admin, "user.invite", invitee("c@school.test", "TEACHER"), &[])
            .await
            .unwrap_err();
        assert_eq!(taken.2["email"][0], "An account already uses this e-mail address.");
    }
);

dual_test!(
    async fn the_role_picker_keeps_to_its_rules(app: TestApp) {
        let school = make_school(&app, "Role School").await;
        make_pro(&app, &school, None).await;
        let (admin_id, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let (teacher, _) = signed_in(&app, &school, UserRole::Teacher).await;
        let (org_admin, org) = signed_in(&app, &school, UserRole::OrgAdmin).await;

        let raised = mutate(&app, &admin, "user.setRole", json!({ "id": teacher, "role": "ADMIN" }), &[])
            .await
            .expect("admin gives admin");
        assert_eq!(raised["role"], "ADMIN");
        let above = mutate(&app, &admin, "user.setRole", json!({ "id": teacher, "role": "ORG_ADMIN" }), &[])
            .await
            .unwrap_err();
        assert_eq!((above.0.as_str(), above.1.as_str()), ("FORBIDDEN", "You cannot give a role above your own."));
        let flagged = mutate(&app, &org, "user.setRole", json!({ "id": teacher, "role": "ORG_ADMIN" }), &[])
            .await
            .unwrap_err();
        assert_eq!(flagged.1, "Only Voicemark staff can give this role.");
        let higher = mutate(&app, &admin, "user.setRole", json!({ "id": org_admin, "role": "TEACHER" }), &[])
            .await
            .unwrap_err();
        assert_eq!(higher.1, "You cannot change someone above your own role.");
        let own = mutate(&app, &admin, "user.setRole", json!({ "id": admin_id, "role": "TEACHER" }), &[])
            .await
            .unwrap_err();
        assert_eq!(own.1, "You cannot change your own role.");
        let invite = mutate(&app, &admin, "user.invite", invitee("x@school.test", "MAT_USER"), &[])
            .await
            .unwrap_err();
        assert_eq!(invite.2["role"][0], "You cannot give this role.");
        let teacher_call = signed_in(&app, &school, UserRole::Teacher).await.1;
        let refused = query(&app, &teacher_call, "user.list", json!(null)).await.unwrap_err();
        assert_eq!(refused.0, "FORBIDDEN");

        // A superadmin gives any role, anywhere.
        let (superadmin_id, superadmin) = signed_in(&app, &school, UserRole::Superadmin).await;
        let mat = mutate(&app, &superadmin, "user.setRole", json!({ "id": teacher, "role": "MAT_USER" }), &[])
            .await
            .expect("superadmin gives MAT user");
        assert_eq!(mat["role"], "MAT_USER");
        let mut expected = vec![row("UPDATE", &admin_id, "role ADMIN"), row("UPDATE", &superadmin_id, "role MAT_USER")];
        expected.sort();
        assert_eq!(audit_of(&app, &teacher).await, expected, "refused changes leave no row");
    }
);

dual_test!(
    async fn disabling_ends_sessions_and_enabling_needs_a_seat(app: TestApp) {
        let school = make_school(&app, "Quiet School").await;
        make_pro(&app, &school, Some(2)).await;
        let (admin_id, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let (teacher, teacher_cookie) = signed_in(&app, &school, UserRole::Teacher).await;
        assert_eq!(session_count(&app, &teacher).await, 1);

        let own = mutate(&app, &admin, "user.setDisabled", json!({ "id": admin_id, "disabled": true }), &[])
            .await
            .unwrap_err();
        assert_eq!(own.1, "You cannot disable your own account.");

        let off = mutate(&app, &admin, "user.setDisabled", json!({ "id": teacher, "disabled": true }), &[])
            .await
            .expect("disabled");
        assert_eq!(off["status"], "inactive");
        assert_eq!(session_count(&app, &teacher).await, 0, "signed out at once");
        let after = query(&app, &teacher_cookie, "user.settings", json!(null)).await.unwrap_err();
        assert_eq!(after.0, "UNAUTHORIZED");

        // Its seat is free: someone else takes it, and the disabled user cannot come back.
        mutate(&app, &admin, "user.invite", invitee("new@school.test", "TEACHER"), &[]).await.expect("seat free");
        let full = mutate(&app, &admin, "user.setDisabled", json!({ "id": teacher, "disabled": false }), &[])
            .await
            .unwrap_err();
        assert!(full.1.contains("Manage subscription"), "{}", full.1);

        let led = mutate(&app, &admin, "user.setLeader", json!({ "id": teacher, "leader": true }), &[])
            .await
            .expect("leader");
        assert_eq!(led["leader"], true);
        assert_eq!(
            audit_of(&app, &teacher).await,
            vec![row("UPDATE", &admin_id, "disable"), row("UPDATE", &admin_id, "leader on")],
            "the refused enable left no row"
        );
    }
);

dual_test!(
    async fn another_schools_users_are_not_found(app: TestApp) {
        let mine = make_school(&app, "Mine").await;
        let theirs = make_school(&app, "Theirs").await;
        make_pro(&app, &mine, None).await;
        let (_, admin) = signed_in(&app, &mine, UserRole::Admin).await;
        let (other, _) = signed_in(&app, &theirs, UserRole::Teacher).await;

        let list = query(&app, &admin, "user.list", json!(null)).await.unwrap();
        assert!(list["users"].as_array().unwrap().iter().all(|u| u["id"] != other.as_str()));
        for (path, input) in [
            ("user.setRole", json!({ "id": other, "role": "ADMIN" })),
            ("user.setDisabled", json!({ "id": other, "disabled": true })),
            ("user.setLeader", json!({ "id": other, "leader": true })),
            ("user.resendInvite", json!({ "id": other })),
            ("user.revokeInvite", json!({ "id": other })),
        ] {
            let refused = mutate(&app, &admin, path, input, &[]).await.unwrap_err();
            assert_eq!(refused.0, "NOT_FOUND", "{path}");
        }
        // An admin cannot invite into another school by naming it.
        let mut input = invitee("sneaky@school.test", "TEACHER");
        input["schoolId"] = json!(theirs);
        let user = mutate(&app, &admin, "user.invite", input, &[]).await.expect("invited");
        assert_eq!(user["schoolId"], mine.as_str());
        // Only a superadmin sees every school's users.
        let refused = query(&app, &admin, "user.listAll", json!({})).await.unwrap_err();
        assert_eq!(refused.0, "FORBIDDEN");
    }
);

dual_test!(
    async fn a_csv_batch_is_all_or_nothing(app: TestApp) {
        let school = make_school(&app, "Batch School").await;
        make_pro(&app, &school, Some(4)).await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
        signed_in(&app, &school, UserRole::Teacher).await;

        let bad = "forename,surname,email,role\nAda,Lovelace,ada@school.test,Standard\n,Hopper,grace@school.test,\nAlan,Turing,not-an-address,\nKat,J,kat@school.test,SUPERADMIN\n";
        let refused = mutate(&app, &admin, "user.inviteFromCsv", json!({ "csv": bad, "schoolId": null }), &[])
            .await
            .unwrap_err();
        let lines: Vec<&str> = refused.2["csv"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0], "Line 3: the forename is missing.");
        assert!(lines[1].starts_with("Line 4: "), "{lines:?}");

        // Three people for two free seats: refused as a whole.
        let three = "forename,surname,email\nA,One,a1@school.test\nB,Two,b2@school.test\nC,Three,c3@school.test\n";
        let full = mutate(&app, &admin, "user.inviteFromCsv", json!({ "csv": three, "schoolId": null }), &[])
            .await
            .unwrap_err();
        assert_eq!(full.0, "FORBIDDEN");
        assert!(full.1.starts_with("Only 2 of the 3 seats needed are free"), "{}", full.1);
        let list = query(&app, &admin, "user.list", json!(null)).await.unwrap();
        assert_eq!(list["users"].as_array().unwrap().len(), 2, "nothing written");
        assert!(outbox(&app).await.is_empty());

        let two = "forename,surname,email,role\nA,One,a1@school.test,Staff\nB,Two,b2@school.test,\n";
        let done = mutate(&app, &admin, "user.inviteFromCsv", json!({ "csv": two, "schoolId": null }), &[])
            .await
            .expect("invited");
        assert_eq!(done["invited"], 2);
        let list = query(&app, &admin, "user.list", json!(null)).await.unwrap();
        let a1 = list["users"].as_array().unwrap().iter().find(|u| u["email"] == "a1@school.test").unwrap();
        assert_eq!(a1["role"], "ADMIN");
        assert_eq!(outbox(&app).await.len(), 2);
    }
);

dual_test!(
    async fn the_superadmin_searches_every_school(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        signed_in(&app, &north, UserRole::Teacher).await;
        signed_in(&app, &south, UserRole::Admin).await;
        let (_, superadmin) = signed_in(&app, &north, UserRole::Superadmin).await;

        let all = query(&app, &superadmin, "user.listAll", json!({ "search": null, "schoolId": null, "role": null }))
            .await
            .unwrap();
        assert_eq!(all["page"]["total"], 3);
        assert_eq!(all["schools"].as_array().unwrap().len(), 2);
        let admins = query(&app, &superadmin, "user.listAll", json!({ "search": "", "schoolId": south, "role": "ADMIN" }))
            .await
            .unwrap();
        assert_eq!(admins["page"]["total"], 1);
        assert_eq!(admins["page"]["users"][0]["schoolName"], "South");
        let searched = query(&app, &superadmin, "user.listAll", json!({ "search": "TEACH", "schoolId": null, "role": null }))
            .await
            .unwrap();
        assert_eq!(searched["page"]["total"], 1, "{searched}");
    }
);
