//! Tasks (`task.*`, docs/leaders.md): starting one from a visible template, the Basic weekly
//! limit, saving and reading answers, the compare-and-set that keeps two editors from
//! overwriting each other, sharing with colleagues (Pro), submitting and deleting.

use axum::http::StatusCode;
use chrono::Duration;
use core_wasm::plan::{weekly_task_limit_message, COLLABORATE_NEEDS_PRO_MESSAGE};
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{questions, task_submissions, tasks, users};
use voicemark::ids::new_id;
use voicemark::models::now;
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::{mutate, query, school, staff, Answer, Staff};
use crate::support::TestApp;

/// A template of `school_id` owned by `owner` with `visibility`, and its questions
/// (text, required); returns (template id, question ids).
async fn template(
    app: &TestApp,
    school_id: &str,
    owner: &str,
    visibility: &str,
    title: &str,
    questions_: &[(&str, bool)],
) -> (String, Vec<String>) {
    let at = now();
    let id = new_id();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(tasks::table)
        .values((
            tasks::id.eq(&id),
            tasks::created_at.eq(at),
            tasks::updated_at.eq(at),
            tasks::title.eq(title),
            tasks::visibility.eq(visibility),
            tasks::tags.eq("[]"),
            tasks::user_id.eq(owner),
            tasks::school_id.eq(school_id),
        ))
        .execute(c)
        .await)
    .expect("template");
    let mut ids = Vec::new();
    for (position, (text, required)) in questions_.iter().enumerate() {
        let qid = new_id();
        with_conn!(pooled.db(), |c| diesel::insert_into(questions::table)
            .values((
                questions::id.eq(&qid),
                questions::created_at.eq(at),
                questions::updated_at.eq(at),
                questions::text.eq(*text),
                questions::type_.eq("TEXTAREA"),
                questions::required.eq(*required),
                questions::position.eq(position as i32),
                questions::task_id.eq(&id),
            ))
            .execute(c)
            .await)
        .expect("question");
        ids.push(qid);
    }
    (id, ids)
}

async fn make_pro(app: &TestApp, user_id: &str) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::update(users::table.find(user_id))
        .set(users::pro.eq(true))
        .execute(c)
        .await)
    .expect("pro");
    // Written behind the models' back, as an operator would: the test stands for the
    // session cache's few seconds having passed (auth::session_cache).
    voicemark::auth::session_cache::invalidate();
}

async fn archive(app: &TestApp, template_id: &str) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::update(tasks::table.find(template_id))
        .set(tasks::archived_at.eq(Some(now())))
        .execute(c)
        .await)
    .expect("archive");
}

async fn create(app: &TestApp, who: &Staff, template_id: &str, title: &str) -> Answer {
    mutate(
        app,
        "task.create",
        json!({"title": title, "templateId": template_id}),
        Some(&who.cookie),
    )
    .await
}

async fn create_id(app: &TestApp, who: &Staff, template_id: &str, title: &str) -> String {
    create(app, who, template_id, title).await.data()["id"]
        .as_str()
        .expect("id")
        .to_owned()
}

async fn save(app: &TestApp, who: &Staff, input: Value) -> Answer {
    mutate(app, "task.save", input, Some(&who.cookie)).await
}

async fn get(app: &TestApp, who: &Staff, id: &str) -> Answer {
    query(app, "task.get", json!({"id": id}), Some(&who.cookie)).await
}

/// Northbridge: Ann (owner), Ben and Cat (colleagues); Elsewhere: Sid. A SCHOOL template
/// with a required and an optional question.
struct World {
    ann: Staff,
    ben: Staff,
    cat: Staff,
    sid: Staff,
    school: String,
    template: String,
    questions: Vec<String>,
}

async fn world(app: &TestApp) -> World {
    let school_id = school(app, "Northbridge").await;
    let other = school(app, "Elsewhere").await;
    let ann = staff(app, Some(&school_id), UserRole::Teacher, "Ann").await;
    let ben = staff(app, Some(&school_id), UserRole::Teacher, "Ben").await;
    let cat = staff(app, Some(&school_id), UserRole::Admin, "Cat").await;
    let sid = staff(app, Some(&other), UserRole::Teacher, "Sid").await;
    let (template, questions) = template(
        app,
        &school_id,
        &cat.id,
        "SCHOOL",
        "Lesson observation",
        &[("What went well?", true), ("Even better if?", false)],
    )
    .await;
    World {
        ann,
        ben,
        cat,
        sid,
        school: school_id,
        template,
        questions,
    }
}

dual_test!(
    async fn a_task_starts_from_a_visible_template_only(app: TestApp) {
        let w = world(&app).await;
        let (personal, _) = template(&app, &w.school, &w.cat.id, "PERSONAL", "Cat's own", &[]).await;
        let other_school = school(&app, "Faraway").await;
        let far = staff(&app, Some(&other_school), UserRole::Admin, "Far").await;
        let (foreign, _) = template(&app, &other_school, &far.id, "SCHOOL", "Faraway's", &[]).await;
        let (archived, _) = template(&app, &w.school, &w.cat.id, "SCHOOL", "Old form", &[]).await;
        archive(&app, &archived).await;

        let choices = query(&app, "task.templateChoices", Value::Null, Some(&w.ann.cookie)).await;
        assert_eq!(
            choices.data(),
            &json!([{"id": w.template, "title": "Lesson observation", "questionCount": 2}])
        );

        for id in [&personal, &foreign, &archived, &"nope".to_owned()] {
            let answer = create(&app, &w.ann, id, "Mine").await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{id}");
        }
        assert_eq!(
            create(&app, &w.ann, &w.template, "  ").await.field_error("title"),
            "Enter a title."
        );
        assert_eq!(
            create(&app, &w.ann, &w.template, &"a".repeat(201)).await.field_error("title"),
            "Use at most 200 characters."
        );
        let id = create_id(&app, &w.ann, &w.template, " Observation of 7B ").await;
        let task = get(&app, &w.ann, &id).await.data().clone();
        assert_eq!(task["title"], "Observation of 7B");
        assert_eq!(task["draft"], true);
        assert_eq!(task["access"], "OWNER");
        assert_eq!(task["plan"], "BASIC");
        assert_eq!(task["template"]["title"], "Lesson observation");
        assert_eq!(task["questions"][0]["text"], "What went well?");
        assert_eq!(task["questions"][0]["required"], true);
        assert_eq!(task["answers"], json!([]));
        // The owner of the personal template may use it.
        assert_eq!(create(&app, &w.cat, &personal, "Mine").await.status, StatusCode::OK);
    }
);

dual_test!(
    async fn basic_may_start_five_tasks_in_seven_days(app: TestApp) {
        let w = world(&app).await;
        let mut ids = Vec::new();
        for n in 0..5 {
            ids.push(create_id(&app, &w.ann, &w.template, &format!("Task {n}")).await);
        }
        let refused = create(&app, &w.ann, &w.template, "Task 6").await;
        assert_eq!(refused.code(), "FORBIDDEN");
        assert_eq!(refused.message(), weekly_task_limit_message());
        assert!(refused.message().contains("5") && refused.message().contains("Pro"));

        // A task made 8 days ago no longer counts.
        let mut pooled = app.db.conn().await.expect("connection");
        let old = now() - Duration::days(8);
        with_conn!(pooled.db(), |c| diesel::update(task_submissions::table.find(&ids[0]))
            .set(task_submissions::created_at.eq(old))
            .execute(c)
            .await)
        .expect("age a task");
        drop(pooled);
        assert_eq!(create(&app, &w.ann, &w.template, "Task 6").await.status, StatusCode::OK);
        assert_eq!(create(&app, &w.ann, &w.template, "Task 7").await.code(), "FORBIDDEN");

        // Pro has no limit.
        make_pro(&app, &w.ben.id).await;
        for n in 0..7 {
            let made = create(&app, &w.ben, &w.template, &format!("Pro {n}")).await;
            assert_eq!(made.status, StatusCode::OK);
        }
    }
);

dual_test!(
    async fn eight_simultaneous_creates_never_pass_the_weekly_limit(app: TestApp) {
        let w = world(&app).await;
        for n in 0..3 {
            create_id(&app, &w.ann, &w.template, &format!("Task {n}")).await;
        }
        let titles: Vec<String> = (0..8).map(|n| format!("At once {n}")).collect();
        let answers = futures_util::future::join_all(
            titles.iter().map(|title| create(&app, &w.ann, &w.template, title)),
        )
        .await;
        let made = answers.iter().filter(|a| a.status == StatusCode::OK).count();
        assert_eq!(made, 2, "two places were left of five");
        assert!(answers
            .iter()
            .filter(|a| a.status != StatusCode::OK)
            .all(|a| a.code() == "FORBIDDEN" && a.message() == weekly_task_limit_message()));
        let mut pooled = app.db.conn().await.expect("connection");
        let n: i64 = with_conn!(pooled.db(), |c| task_submissions::table
            .filter(task_submissions::user_id.eq(&w.ann.id))
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(n, 5);
    }
);

dual_test!(
    async fn saving_and_reading_a_task(app: TestApp) {
        let w = world(&app).await;
        let id = create_id(&app, &w.ann, &w.template, "Observation").await;
        let saved = save(
            &app,
            &w.ann,
            json!({"id": id, "title": "Observation of 7B", "tags": ["English", " english ", "Y7", ""],
                "answers": [{"questionId": w.questions[0], "answer": "Clear starter", "baseVersion": 0}]}),
        )
        .await
        .data()
        .clone();
        assert_eq!(saved["conflicts"], json!([]));
        assert_eq!(saved["answers"][0]["version"], 1);
        assert_eq!(saved["answers"][0]["updatedByName"], "Ann Staff");

        let task = get(&app, &w.ann, &id).await.data().clone();
        assert_eq!(task["title"], "Observation of 7B");
        assert_eq!(task["tags"], json!(["English", "Y7"]));
        assert_eq!(task["answers"][0]["answer"], "Clear starter");
        assert_eq!(task["answers"][0]["questionId"], w.questions[0].as_str());

        // Saving the same text again is no change, whatever the base.
        let again = save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": w.questions[0], "answer": "Clear starter", "baseVersion": 0}]})).await;
        assert_eq!(again.data()["conflicts"], json!([]));
        assert_eq!(again.data()["answers"][0]["version"], 1);

        // A question of another template, and a blank title, are refused.
        let (_, other_questions) = template(&app, &w.school, &w.cat.id, "SCHOOL", "Other", &[("Q", false)]).await;
        let wrong = save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": other_questions[0], "answer": "x", "baseVersion": 0}]})).await;
        assert_eq!(wrong.code(), "BAD_REQUEST");
        assert_eq!(save(&app, &w.ann, json!({"id": id, "title": " ", "answers": []})).await.field_error("title"), "Enter a title.");

        // The list, with its filters.
        create_id(&app, &w.ann, &w.template, "Book scrutiny").await;
        let list = |input: Value| {
            let app = &app;
            let cookie = w.ann.cookie.clone();
            async move { query(app, "task.list", input, Some(&cookie)).await.data()["tasks"].clone() }
        };
        let all = list(json!({})).await;
        assert_eq!(all.as_array().expect("tasks").len(), 2);
        assert_eq!(all[0]["title"], "Book scrutiny", "most recently changed first");
        assert_eq!(all[1]["templateTitle"], "Lesson observation");
        assert_eq!(all[1]["ownerName"], "Ann Staff");
        assert_eq!(all[1]["shared"], false);
        assert_eq!(list(json!({"search": "7b"})).await.as_array().expect("tasks").len(), 1);
        assert_eq!(list(json!({"tag": "y7"})).await[0]["id"], id.as_str());
        assert_eq!(list(json!({"status": "SUBMITTED"})).await, json!([]));
        assert_eq!(list(json!({"status": "DRAFT", "search": null})).await.as_array().expect("tasks").len(), 2);
    }
);

dual_test!(
    async fn two_editors_never_overwrite_each_other_silently(app: TestApp) {
        let w = world(&app).await;
        make_pro(&app, &w.ann.id).await;
        let id = create_id(&app, &w.ann, &w.template, "Shared observation").await;
        let added = mutate(&app, "task.addCollaborator", json!({"id": id, "userId": w.ben.id}), Some(&w.ann.cookie)).await;
        assert_eq!(added.data(), &json!([{"id": w.ben.id, "name": "Ben Staff"}]));
        let q = &w.questions[0];
        save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": q, "answer": "First draft", "baseVersion": 0}]})).await.data();

        // Both edit from version 1; Ann saves first.
        let ann = save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": q, "answer": "Ann's text", "baseVersion": 1}]})).await;
        assert_eq!(ann.data()["conflicts"], json!([]));
        let ben = save(&app, &w.ben, json!({"id": id, "answers": [{"questionId": q, "answer": "Ben's text", "baseVersion": 1}]})).await;
        assert_eq!(
            ben.data()["conflicts"],
            json!([{"questionId": q, "theirAnswer": "Ann's text", "theirVersion": 2, "updatedByName": "Ann Staff"}])
        );
        let task = get(&app, &w.ben, &id).await.data().clone();
        assert_eq!(task["answers"][0]["answer"], "Ann's text");
        assert_eq!(task["access"], "COLLABORATOR");

        // "Keep mine": Ben saves again over Ann's version and wins.
        let ben = save(&app, &w.ben, json!({"id": id, "answers": [{"questionId": q, "answer": "Ben's text", "baseVersion": 2}]})).await;
        assert_eq!(ben.data()["conflicts"], json!([]));
        let task = get(&app, &w.ann, &id).await.data().clone();
        assert_eq!(task["answers"][0]["answer"], "Ben's text");
        assert_eq!(task["answers"][0]["version"], 3);
        assert_eq!(task["answers"][0]["updatedByName"], "Ben Staff");

        // Two first answers at once: the second is a conflict too.
        let q2 = &w.questions[1];
        save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": q2, "answer": "A", "baseVersion": 0}]})).await.data();
        let late = save(&app, &w.ben, json!({"id": id, "answers": [{"questionId": q2, "answer": "B", "baseVersion": 0}]})).await;
        assert_eq!(late.data()["conflicts"][0]["theirAnswer"], "A");
    }
);

dual_test!(
    async fn sharing_is_for_the_owner_on_pro_within_the_school(app: TestApp) {
        let w = world(&app).await;
        let id = create_id(&app, &w.ann, &w.template, "Observation").await;
        let share = |who: &Staff, user_id: &str| {
            let (app, cookie) = (&app, who.cookie.clone());
            let input = json!({"id": id, "userId": user_id});
            async move { mutate(app, "task.addCollaborator", input, Some(&cookie)).await }
        };

        // Basic cannot share.
        let refused = share(&w.ann, &w.ben.id).await;
        assert_eq!(refused.code(), "FORBIDDEN");
        assert_eq!(refused.message(), COLLABORATE_NEEDS_PRO_MESSAGE);

        make_pro(&app, &w.ann.id).await;
        let colleagues = query(&app, "task.colleagues", json!({"id": id}), Some(&w.ann.cookie)).await;
        let names: Vec<&str> = colleagues.data().as_array().expect("colleagues").iter().map(|c| c["name"].as_str().unwrap_or("")).collect();
        assert_eq!(names, vec!["Ben Staff", "Cat Staff"]);
        assert_eq!(share(&w.ann, &w.sid.id).await.code(), "NOT_FOUND", "another school");
        share(&w.ann, &w.ben.id).await.data();

        // Ben sees it in his list, marked shared; Cat and Sid cannot reach it.
        let list = query(&app, "task.list", json!({}), Some(&w.ben.cookie)).await;
        assert_eq!(list.data()["tasks"][0]["id"], id.as_str());
        assert_eq!(list.data()["tasks"][0]["shared"], true);
        assert_eq!(query(&app, "task.list", json!({}), Some(&w.cat.cookie)).await.data()["tasks"], json!([]));
        for who in [&w.cat, &w.sid] {
            assert_eq!(get(&app, who, &id).await.status, StatusCode::NOT_FOUND);
            let saved = save(&app, who, json!({"id": id, "answers": []})).await;
            assert_eq!(saved.status, StatusCode::NOT_FOUND);
        }

        // A collaborator may neither share nor delete.
        make_pro(&app, &w.ben.id).await;
        assert_eq!(share(&w.ben, &w.cat.id).await.code(), "FORBIDDEN");
        let delete = mutate(&app, "task.delete", json!({"id": id}), Some(&w.ben.cookie)).await;
        assert_eq!(delete.code(), "FORBIDDEN");
        assert_eq!(get(&app, &w.ben, &id).await.status, StatusCode::OK);

        // The owner removes Ben, then deletes the task.
        let left = mutate(&app, "task.removeCollaborator", json!({"id": id, "userId": w.ben.id}), Some(&w.ann.cookie)).await;
        assert_eq!(left.data(), &json!([]));
        assert_eq!(get(&app, &w.ben, &id).await.status, StatusCode::NOT_FOUND);
        mutate(&app, "task.delete", json!({"id": id}), Some(&w.ann.cookie)).await.data();
        assert_eq!(get(&app, &w.ann, &id).await.status, StatusCode::NOT_FOUND);
    }
);

dual_test!(
    async fn submitting_needs_every_required_answer(app: TestApp) {
        let w = world(&app).await;
        let id = create_id(&app, &w.ann, &w.template, "Observation").await;
        let submit = || {
            let app = &app;
            let (cookie, input) = (w.ann.cookie.clone(), json!({"id": id}));
            async move { mutate(app, "task.submit", input, Some(&cookie)).await }
        };
        let refused = submit().await;
        assert_eq!(refused.code(), "BAD_REQUEST");
        let field = format!("answers.{}", w.questions[0]);
        assert!(refused.field_error(&field).contains("What went well?"));
        assert_eq!(refused.field_error(&format!("answers.{}", w.questions[1])), "");

        save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": w.questions[0], "answer": "   ", "baseVersion": 0}]})).await.data();
        assert_eq!(submit().await.code(), "BAD_REQUEST", "a blank answer is no answer");
        save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": w.questions[0], "answer": "Pace", "baseVersion": 1}]})).await.data();
        assert!(submit().await.data()["submittedAt"].is_string());
        let task = get(&app, &w.ann, &id).await.data().clone();
        assert_eq!(task["draft"], false);
        assert!(task["submittedAt"].is_string());
        // Editing a submitted task keeps it submitted.
        save(&app, &w.ann, json!({"id": id, "answers": [{"questionId": w.questions[1], "answer": "More", "baseVersion": 0}]})).await.data();
        let listed = query(&app, "task.list", json!({"status": "SUBMITTED"}), Some(&w.ann.cookie)).await;
        assert_eq!(listed.data()["tasks"][0]["id"], id.as_str());
    }
);
