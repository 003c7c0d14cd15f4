//! The cross-tenant sweep. School A is seeded with data in every table the procedures read
//! (pupils, staff, classes, form and year groups, notifications, submissions, comments,
//! voice notes, uploaded files), each text carrying [`MARKER`]. Then EVERY registered
//! procedure (from the registry, so a new one is covered without anyone remembering) is
//! called (a) signed out and (b) as an admin of school B, with inputs built from its input
//! shape where every id-like string takes each of A's ids in turn; and (c) every admin-only
//! procedure as a teacher of A. It fails when an answer carries A's marker, when (c)
//! succeeds, or when A's marked rows changed. Procedures covered and leaks are printed.
//!
//! Legitimately public procedures (answer a signed-out caller): `system.support`,
//! `system.time`, `account.*` (register, confirm, reset: they take a token or create an
//! account, never read a school's data), `submission.public` / `submission.submit` (the
//! submission's random token is the credential), `preferences.get` / `preferences.update`
//! (the preference link's token is the credential). None may answer with A's data unless
//! given A's token, which the sweep never sends.

use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::ids::new_id;
use voicemark::models::{comments, now, stored_files};
use voicemark::rpc::registry::{procedures, Procedure};
use voicemark::rpc::shape::Shape;
use voicemark::with_conn;

use crate::admin::mutate as admin_mutate;
use crate::dual_test;
use crate::fuzz::{send, Input};
use crate::submissions::{hand_in, staff, world};
use crate::support::{make_school, TestApp};
use core_wasm::UserRole;

/// In every text of school A; no answer to another school or a stranger may contain it.
const MARKER: &str = "Qzmark7";

/// School A's ids, by what they name.
struct SchoolA {
    ids: Vec<(String, &'static str)>,
    teacher_cookie: String,
    admin_cookie: String,
}

async fn execute(app: &TestApp, sql: String) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::sql_query(sql.clone())
        .execute(c)
        .await)
    .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Seeds school A: the submissions world, groups and a marked pupil through the API, a
/// comment, a voice note and an upload as rows, a handed-in answer; then appends the
/// marker to every text of A that the seeding did not already mark.
async fn seed_school_a(app: &TestApp) -> SchoolA {
    let w = world(app).await;
    let a = w.school.clone();
    let admin = &w.admin.cookie;
    let year = admin_mutate(
        app,
        admin,
        "admin.saveYearGroup",
        json!({"id": null, "name": format!("{MARKER} yeargroup")}),
        &[],
    )
    .await
    .expect("year group");
    let form = admin_mutate(
        app,
        admin,
        "admin.saveFormGroup",
        json!({"id": null, "name": format!("{MARKER} formgroup")}),
        &[],
    )
    .await
    .expect("form group");
    let pupil = admin_mutate(
        app,
        admin,
        "admin.savePupil",
        json!({
            "id": null, "forename": format!("{MARKER} pupil"), "surname": "Pupil",
            "email": null, "parentEmail": "marked@families.test", "upn": "A123456789012",
            "yearGroupId": year["id"], "formGroupId": form["id"], "classIds": [w.class_id],
        }),
        &[],
    )
    .await
    .expect("pupil");
    let comment_id = new_id();
    let file_id = new_id();
    let upload_id = new_id();
    {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        comments::insert_comment(
            &mut conn,
            &comment_id,
            &w.teacher.id,
            &w.pupils[0],
            &format!("{MARKER} comment"),
            now(),
        )
        .await
        .expect("comment");
        for (id, kind, personal) in [
            (&file_id, stored_files::FileKind::VoiceNote, true),
            (&upload_id, stored_files::FileKind::Upload, false),
        ] {
            stored_files::insert(
                &mut conn,
                &stored_files::NewStoredFile {
                    id: id.clone(),
                    key: format!("sweep/{id}"),
                    school_id: Some(a.clone()),
                    user_id: Some(w.teacher.id.clone()),
                    task_id: None,
                    kind: kind.as_str().to_owned(),
                    filename: format!("{MARKER} file.webm"),
                    content_type: "audio/webm".into(),
                    size_bytes: Some(10),
                    in_personal_folder: personal,
                    expires_at: None,
                    created_at: now(),
                    updated_at: None,
                },
            )
            .await
            .expect("stored file");
        }
    }
    let answer = hand_in(app, &w.submissions[0], &format!("{MARKER} answer")).await;
    answer.data();
    for sql in [
        format!(
            "UPDATE students SET surname = surname || ' {MARKER} student' WHERE school_id = '{a}'"
        ),
        format!("UPDATE users SET surname = surname || ' {MARKER} staff' WHERE school_id = '{a}'"),
        format!("UPDATE classes SET name = name || ' {MARKER} class' WHERE school_id = '{a}'"),
        format!(
            "UPDATE notifications SET title = title || ' {MARKER} notification', \
             body = body || '<p>{MARKER} body</p>' WHERE school_id = '{a}'"
        ),
        format!("UPDATE schools SET name = name || ' {MARKER} school' WHERE id = '{a}'"),
    ] {
        execute(app, sql).await;
    }
    let mut ids = vec![
        (a.clone(), "school"),
        (w.teacher.id.clone(), "teacher"),
        (w.admin.id.clone(), "admin"),
        (w.pupils[0].clone(), "pupil"),
        (pupil["id"].as_str().expect("id").to_owned(), "pupil"),
        (w.class_id.clone(), "class"),
        (year["id"].as_str().expect("id").to_owned(), "year group"),
        (form["id"].as_str().expect("id").to_owned(), "form group"),
        (w.notification.clone(), "notification"),
        (w.submissions[0].0.clone(), "submission"),
        (comment_id, "comment"),
        (file_id, "voice note"),
        (upload_id, "upload"),
    ];
    ids.push((format!("sweep/{}", ids[11].0), "voice note key"));
    SchoolA {
        ids,
        teacher_cookie: w.teacher.cookie.clone(),
        admin_cookie: w.admin.cookie.clone(),
    }
}

/// How many of A's rows carry the marker, table by table: the same before and after the
/// sweep, or another school changed (or deleted) A's data.
async fn marked_rows(app: &TestApp) -> Vec<(&'static str, i64)> {
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut out = Vec::new();
    for (table, column) in [
        ("students", "forename || surname"),
        ("users", "surname"),
        ("classes", "name"),
        ("form_groups", "name"),
        ("year_groups", "name"),
        ("notifications", "title || body"),
        ("submissions", "content"),
        ("student_comments", "comment"),
        ("stored_files", "filename"),
        ("schools", "name"),
    ] {
        let sql = format!("SELECT COUNT(*) AS n FROM {table} WHERE {column} LIKE '%{MARKER}%'");
        let mut pooled = app.db.conn().await.expect("connection");
        let count: Count = with_conn!(pooled.db(), |c| diesel::sql_query(sql.clone())
            .get_result::<Count>(c)
            .await)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
        out.push((table, count.n));
    }
    out
}

fn is_id_like(name: &str) -> bool {
    name == "id"
        || name == "key"
        || name == "token"
        || name.ends_with("Id")
        || name.ends_with("Ids")
        || matches!(name, "classes" | "students" | "yearGroups" | "formGroups")
}

/// A well-formed value of `shape` for field `name`: id-like strings take `id`, other
/// strings a plausible value that passes ordinary validation.
fn build(shape: &Shape, name: &str, id: &str, path: &str, dates: &mut Vec<String>) -> Value {
    match shape {
        Shape::String if is_id_like(name) => json!(id),
        Shape::String if name.to_lowercase().contains("email") => json!("sweep@elsewhere.test"),
        Shape::String if name.to_lowercase().contains("password") => json!("Sweep-Passw0rd"),
        Shape::String if name == "contentType" => json!("audio/webm"),
        Shape::String if name == "filename" => json!("sweep.webm"),
        Shape::String => json!("Sweep text"),
        Shape::Number => json!(1),
        Shape::Bool => json!(false),
        Shape::Date => {
            dates.push(path.to_owned());
            json!("2030-01-15T09:30:00.000Z")
        }
        Shape::Literal(value) => value.clone(),
        // Optional filters (a search, a page) left out, so that lists answer in full.
        Shape::Nullable(inner) if !has_id_field(inner, name) => Value::Null,
        Shape::Nullable(inner) => build(inner, name, id, path, dates),
        Shape::Array(inner) => json!([build(inner, name, id, &format!("{path}.0"), dates)]),
        Shape::Map(_) => json!({}),
        Shape::Object { fields, .. } => Value::Object(
            fields
                .iter()
                .map(|f| {
                    let path = if path.is_empty() {
                        f.name.clone()
                    } else {
                        format!("{path}.{}", f.name)
                    };
                    (f.name.clone(), build(&f.shape, &f.name, id, &path, dates))
                })
                .collect(),
        ),
        Shape::OneOf(all) => all
            .iter()
            .find(|s| !matches!(s, Shape::Literal(Value::Bool(_))))
            .or(all.iter().next())
            .map(|s| build(s, name, id, path, dates))
            .unwrap_or(Value::Null),
        Shape::Void | Shape::Unknown(_) => Value::Null,
    }
}

fn has_id_field(shape: &Shape, name: &str) -> bool {
    match shape {
        Shape::String => is_id_like(name),
        Shape::Nullable(inner) | Shape::Array(inner) => has_id_field(inner, name),
        Shape::Object { fields, .. } => fields.iter().any(|f| has_id_field(&f.shape, &f.name)),
        Shape::OneOf(all) => all.iter().any(|s| has_id_field(s, name)),
        _ => false,
    }
}

/// One input per A id (or one input when the procedure takes no id).
fn inputs_with(procedure: &Procedure, ids: &[(String, &'static str)]) -> Vec<Input> {
    let shape = procedure.input_shape();
    let ids: Vec<&str> = if has_id_field(&shape, "") {
        ids.iter().map(|(id, _)| id.as_str()).collect()
    } else {
        vec!["none"]
    };
    ids.into_iter()
        .map(|id| {
            let mut dates = Vec::new();
            let json = build(&shape, "", id, "", &mut dates);
            Input {
                json,
                dates,
                what: format!("ids = {id}"),
            }
        })
        .collect()
}

/// The word after the marker in `body` ("yeargroup", "pupil", ...), if the marker is there.
fn leaked(body: &str) -> Option<String> {
    let at = body.find(MARKER)?;
    let rest = &body[at + MARKER.len()..];
    Some(
        rest.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect(),
    )
}

dual_test!(
    async fn no_procedure_shows_or_changes_another_schools_data(app: TestApp) {
        let a = seed_school_a(&app).await;
        let before = marked_rows(&app).await;
        assert!(
            before.iter().all(|(_, n)| *n > 0),
            "seeding marked every table: {before:?}"
        );
        // The detector sees A's data when A's own admin asks: a leak would not go unnoticed.
        let own = procedures()
            .iter()
            .find(|p| p.path == "admin.listPupils")
            .expect("registered");
        for input in inputs_with(own, &a.ids).iter().take(1) {
            let (status, body) = send(&app, own, input, Some(&a.admin_cookie)).await;
            assert!(leaked(&body).is_some(), "{status} {body}");
        }
        let school_b = make_school(&app, "Elsewhere B").await;
        let b_admin = staff(&app, Some(&school_b), UserRole::Admin, "Bea").await;

        let mut leaks: Vec<String> = Vec::new();
        let mut sent = 0usize;
        let all = procedures();
        for procedure in all {
            let inputs = inputs_with(procedure, &a.ids);
            for (who, cookie) in [
                ("signed out", None),
                ("school B admin", Some(b_admin.cookie.as_str())),
            ] {
                for input in &inputs {
                    sent += 1;
                    let (status, body) = send(&app, procedure, input, cookie).await;
                    if let Some(what) = leaked(&body) {
                        let entry = format!(
                            "{} as {who} ({}): {status} leaks {what}",
                            procedure.path, input.what
                        );
                        leaks.push(entry);
                    }
                }
            }
            // (c) A teacher of A on the admin-only procedures: always refused.
            if procedure.path.starts_with("admin.") {
                for input in &inputs {
                    sent += 1;
                    let (status, body) =
                        send(&app, procedure, input, Some(&a.teacher_cookie)).await;
                    if status < 300 {
                        leaks.push(format!(
                            "{} as a teacher of A ({}): {status} {}",
                            procedure.path,
                            input.what,
                            body.chars().take(200).collect::<String>()
                        ));
                    }
                }
            }
        }
        let after = marked_rows(&app).await;
        let admin_only = all.iter().filter(|p| p.path.starts_with("admin.")).count();
        eprintln!(
            "sweep on {:?}: {} procedures covered ({} admin-only also as a teacher), {} requests, \
             {} leaks",
            app.backend(),
            all.len(),
            admin_only,
            sent,
            leaks.len(),
        );
        assert!(leaks.is_empty(), "leaks:\n{}", leaks.join("\n"));
        assert_eq!(before, after, "another school changed school A's rows");
    }
);
