//! `template.*`: visibility (PERSONAL, SCHOOL, MAT) for list, get and duplicate; the editor
//! roles; validation; the order of questions; delete versus archive; the rule that a
//! question with answers cannot be removed.

use core_wasm::{NotificationFrequency, OrgType, UserRole};
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::{question_responses, task_submissions};
use voicemark::ids::new_id;
use voicemark::models::{now, organisations};
use voicemark::with_conn;

use crate::admin::{mutate, query, signed_in};
use crate::dual_test;
use crate::support::{make_school, TestApp};

/// A school in trust `trust_id`; its id.
async fn school_in_trust(app: &TestApp, name: &str, trust_id: &str) -> String {
    let at = now();
    let school = organisations::NewSchool {
        id: new_id(),
        trust_id: Some(trust_id.to_owned()),
        created_at: at,
        updated_at: at,
        name: name.into(),
        postcode: None,
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

async fn trust(app: &TestApp) -> String {
    let at = now();
    let trust = organisations::NewTrust {
        id: new_id(),
        name: "Riverside Trust".into(),
        created_at: at,
        updated_at: at,
    };
    let mut pooled = app.db.conn().await.expect("connection");
    organisations::insert_trust(&mut pooled.db(), &trust)
        .await
        .expect("trust");
    trust.id
}

/// Creates a template; its id.
async fn create(app: &TestApp, cookie: &str, title: &str, visibility: &str) -> String {
    let saved = mutate(
        app,
        cookie,
        "template.save",
        json!({
            "title": title, "tags": ["Year 7"], "visibility": visibility,
            "questions": [{"text": "What went well?", "required": true}, {"text": "What next?", "required": false}],
        }),
        &[],
    )
    .await
    .expect("saved");
    saved["id"].as_str().expect("id").to_owned()
}

async fn titles(app: &TestApp, cookie: &str, input: Value) -> Vec<String> {
    let list = query(app, cookie, "template.list", input)
        .await
        .expect("list");
    list.as_array()
        .expect("array")
        .iter()
        .map(|t| t["title"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn code(outcome: crate::admin::Outcome) -> String {
    outcome.expect_err("refused").0
}

/// A task (`task_submissions`) of `user_id` started from template `template_id`, with an
/// answer to `question_id` when given.
async fn use_template(
    app: &TestApp,
    template_id: &str,
    user_id: &str,
    school_id: &str,
    question_id: Option<&str>,
) {
    use diesel::ExpressionMethods;
    let at = now();
    let submission = new_id();
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    with_conn!(&mut conn, |c| diesel::insert_into(task_submissions::table)
        .values((
            task_submissions::id.eq(&submission),
            task_submissions::created_at.eq(at),
            task_submissions::updated_at.eq(at),
            task_submissions::draft.eq(true),
            task_submissions::title.eq("A task"),
            task_submissions::tags.eq("[]"),
            task_submissions::task_id.eq(template_id),
            task_submissions::user_id.eq(user_id),
            task_submissions::school_id.eq(Some(school_id)),
        ))
        .execute(c)
        .await)
    .expect("task");
    if let Some(question_id) = question_id {
        with_conn!(&mut conn, |c| diesel::insert_into(
            question_responses::table
        )
        .values((
            question_responses::id.eq(new_id()),
            question_responses::created_at.eq(at),
            question_responses::updated_at.eq(at),
            question_responses::submission_id.eq(&submission),
            question_responses::question_id.eq(question_id),
            question_responses::answer.eq("An answer"),
        ))
        .execute(c)
        .await)
        .expect("answer");
    }
}

dual_test!(
    async fn template_visibility_is_enforced_for_list_get_and_duplicate(app: TestApp) {
        let trust_id = trust(&app).await;
        let north = school_in_trust(&app, "North", &trust_id).await;
        let south = school_in_trust(&app, "South", &trust_id).await;
        let outside = make_school(&app, "Outside").await;
        let (_, admin) = signed_in(&app, &north, UserRole::Admin).await;
        let (_, colleague) = signed_in(&app, &north, UserRole::Admin).await;
        let (_, teacher) = signed_in(&app, &north, UserRole::Teacher).await;
        let (_, south_admin) = signed_in(&app, &south, UserRole::OrgAdmin).await;
        let (_, outsider) = signed_in(&app, &outside, UserRole::Admin).await;

        let personal = create(&app, &admin, "Personal one", "PERSONAL").await;
        let school = create(&app, &admin, "School one", "SCHOOL").await;
        let mat = create(&app, &admin, "Trust one", "MAT").await;

        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        assert_eq!(
            sorted(titles(&app, &admin, json!({})).await),
            ["Personal one", "School one", "Trust one"]
        );
        assert_eq!(
            sorted(titles(&app, &colleague, json!({})).await),
            ["School one", "Trust one"]
        );
        assert_eq!(
            sorted(titles(&app, &teacher, json!({})).await),
            ["School one", "Trust one"]
        );
        assert_eq!(titles(&app, &south_admin, json!({})).await, ["Trust one"]);
        assert!(titles(&app, &outsider, json!({})).await.is_empty());
        // Filters: visibility and search (title or tag).
        assert_eq!(
            titles(&app, &admin, json!({"visibility": "MAT"})).await,
            ["Trust one"]
        );
        assert_eq!(
            titles(&app, &admin, json!({"search": "SCHOOL"})).await,
            ["School one"]
        );
        assert_eq!(
            titles(&app, &admin, json!({"search": "year 7"}))
                .await
                .len(),
            3
        );

        // get: the same rule; invisible is NOT_FOUND.
        let got = query(&app, &admin, "template.get", json!({"id": personal}))
            .await
            .expect("own personal");
        assert_eq!(got["canEdit"], true);
        assert_eq!(got["ownerName"], "Sam admin");
        assert_eq!(got["questions"][0]["text"], "What went well?");
        assert_eq!(got["questions"][0]["required"], true);
        assert_eq!(got["questions"][1]["position"], 1);
        for (cookie, id) in [
            (&colleague, &personal),
            (&outsider, &school),
            (&outsider, &mat),
            (&south_admin, &school),
        ] {
            assert_eq!(
                code(query(&app, cookie, "template.get", json!({"id": id})).await),
                "NOT_FOUND"
            );
            assert_eq!(
                code(mutate(&app, cookie, "template.duplicate", json!({"id": id}), &[]).await),
                "NOT_FOUND"
            );
        }
        let seen = query(&app, &teacher, "template.get", json!({"id": school}))
            .await
            .expect("teacher sees a school template");
        assert_eq!(seen["canEdit"], false);
        let seen = query(&app, &south_admin, "template.get", json!({"id": mat}))
            .await
            .expect("trust template");
        assert_eq!(seen["canEdit"], false);

        // Another school of the trust sees but cannot change; it can duplicate.
        let refused = mutate(
            &app,
            &south_admin,
            "template.delete",
            json!({"id": mat}),
            &[],
        )
        .await;
        assert_eq!(code(refused), "FORBIDDEN");
        let copy = mutate(
            &app,
            &south_admin,
            "template.duplicate",
            json!({"id": mat}),
            &[],
        )
        .await
        .expect("duplicate");
        let copy = query(
            &app,
            &south_admin,
            "template.get",
            json!({"id": copy["id"]}),
        )
        .await
        .expect("copy");
        assert_eq!(copy["title"], "Copy of Trust one");
        assert_eq!(copy["visibility"], "PERSONAL");
        assert_eq!(copy["canEdit"], true);
        assert_eq!(copy["questions"].as_array().map(Vec::len), Some(2));
        assert_eq!(copy["tags"], json!(["Year 7"]));
        // The copy is the south admin's own: the north admin does not see it.
        assert_eq!(
            code(query(&app, &admin, "template.get", json!({"id": copy["id"]})).await),
            "NOT_FOUND"
        );
    }
);

dual_test!(
    async fn only_editors_save_and_the_input_is_checked(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let (_, teacher) = signed_in(&app, &school, UserRole::Teacher).await;
        let id = create(&app, &admin, "Review", "SCHOOL").await;

        let input = json!({"title": "Mine", "tags": [], "visibility": "SCHOOL",
            "questions": [{"text": "Q", "required": false}]});
        let refused = mutate(&app, &teacher, "template.save", input, &[]).await;
        let (code, message, _) = refused.expect_err("teacher");
        assert_eq!(code, "FORBIDDEN");
        assert_eq!(
            message,
            "Only admins and organisation admins can manage templates."
        );
        for path in ["template.duplicate", "template.delete", "template.restore"] {
            let refused = mutate(&app, &teacher, path, json!({"id": id}), &[]).await;
            assert_eq!(refused.expect_err(path).0, "FORBIDDEN");
        }

        let bad = mutate(
            &app,
            &admin,
            "template.save",
            json!({"title": "  ", "tags": vec!["t"; 11], "visibility": "SCHOOL",
                "questions": [{"text": " ", "required": false}, {"text": "x".repeat(2001), "required": true}]}),
            &[],
        )
        .await;
        let (code, _, fields) = bad.expect_err("invalid");
        assert_eq!(code, "BAD_REQUEST");
        assert_eq!(fields["title"], json!(["Enter a title."]));
        // Repeated tags count once.
        assert!(fields["tags"].is_null());
        assert_eq!(fields["questions[0].text"], json!(["Enter the question."]));
        assert_eq!(
            fields["questions[1].text"],
            json!(["Use at most 2000 characters."])
        );
        let tags: Vec<String> = (0..11).map(|i| format!("tag {i}")).collect();
        let bad = mutate(
            &app,
            &admin,
            "template.save",
            json!({"title": "x".repeat(201), "tags": tags, "visibility": "SCHOOL", "questions": []}),
            &[],
        )
        .await;
        let fields = bad.expect_err("invalid").2;
        assert_eq!(fields["title"], json!(["Use at most 200 characters."]));
        assert_eq!(fields["tags"], json!(["Use at most 10 tags."]));
        assert_eq!(fields["questions"], json!(["Add at least one question."]));
        let bad = mutate(
            &app,
            &admin,
            "template.save",
            json!({"title": "T", "tags": [], "visibility": "EVERYONE", "questions": []}),
            &[],
        )
        .await;
        assert_eq!(bad.expect_err("visibility").0, "BAD_REQUEST");
    }
);

dual_test!(
    async fn questions_keep_their_order_and_answered_ones_stay(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (admin_id, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let saved = mutate(
            &app,
            &admin,
            "template.save",
            json!({"title": "Review", "tags": [], "visibility": "SCHOOL",
                "questions": [{"text": "One", "required": false}, {"text": "Two", "required": false}, {"text": "Three", "required": true}]}),
            &[],
        )
        .await
        .expect("saved");
        let id = saved["id"].as_str().expect("id").to_owned();
        let got = query(&app, &admin, "template.get", json!({"id": id}))
            .await
            .expect("get");
        let q = |i: usize| got["questions"][i]["id"].as_str().expect("qid").to_owned();
        let (one, two, three) = (q(0), q(1), q(2));

        // Reorder (Three, One), remove Two, add Four, mark One required.
        mutate(
            &app,
            &admin,
            "template.save",
            json!({"id": id, "title": "Review 2", "tags": ["a"], "visibility": "PERSONAL",
                "questions": [{"id": three, "text": "Three", "required": true},
                              {"id": one, "text": "One!", "required": true},
                              {"text": "Four", "required": false}]}),
            &[],
        )
        .await
        .expect("edited");
        let got = query(&app, &admin, "template.get", json!({"id": id}))
            .await
            .expect("get");
        let texts: Vec<&str> = got["questions"]
            .as_array()
            .expect("questions")
            .iter()
            .map(|q| q["text"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(texts, ["Three", "One!", "Four"]);
        assert_eq!(got["questions"][0]["id"], three.as_str());
        assert_eq!(got["questions"][1]["required"], true);
        assert_eq!(got["title"], "Review 2");
        assert_eq!(got["visibility"], "PERSONAL");
        let _ = two;

        // A task answers One: removing One is refused, nothing changes.
        use_template(&app, &id, &admin_id, &school, Some(&one)).await;
        let refused = mutate(
            &app,
            &admin,
            "template.save",
            json!({"id": id, "title": "Review 3", "tags": [], "visibility": "SCHOOL",
                "questions": [{"id": three, "text": "Three", "required": true}]}),
            &[],
        )
        .await;
        let (code, _, fields) = refused.expect_err("answered");
        assert_eq!(code, "BAD_REQUEST");
        assert!(fields["questions"][0]
            .as_str()
            .unwrap_or_default()
            .contains("already has answers"));
        let got = query(&app, &admin, "template.get", json!({"id": id}))
            .await
            .expect("get");
        assert_eq!(got["title"], "Review 2");
        assert_eq!(got["questions"].as_array().map(Vec::len), Some(3));
        assert_eq!(got["taskCount"], 1);
        // An id of another template's question is refused.
        let other = create(&app, &admin, "Other", "SCHOOL").await;
        let refused = mutate(
            &app,
            &admin,
            "template.save",
            json!({"id": other, "title": "Other", "tags": [], "visibility": "SCHOOL",
                "questions": [{"id": three, "text": "Stolen", "required": true}]}),
            &[],
        )
        .await;
        assert!(!refused.expect_err("foreign question").2["questions[0].id"].is_null());
    }
);

dual_test!(
    async fn delete_removes_unused_templates_and_archives_used_ones(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (admin_id, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let unused = create(&app, &admin, "Unused", "SCHOOL").await;
        let used = create(&app, &admin, "Used", "SCHOOL").await;
        use_template(&app, &used, &admin_id, &school, None).await;

        let gone = mutate(&app, &admin, "template.delete", json!({"id": unused}), &[])
            .await
            .expect("deleted");
        assert_eq!(gone["outcome"], "DELETED");
        assert_eq!(
            code(query(&app, &admin, "template.get", json!({"id": unused})).await),
            "NOT_FOUND"
        );
        let kept = mutate(&app, &admin, "template.delete", json!({"id": used}), &[])
            .await
            .expect("archived");
        assert_eq!(kept["outcome"], "ARCHIVED");
        assert!(titles(&app, &admin, json!({})).await.is_empty());
        assert_eq!(
            titles(&app, &admin, json!({"archived": true})).await,
            ["Used"]
        );
        let got = query(&app, &admin, "template.get", json!({"id": used}))
            .await
            .expect("archived is still readable");
        assert_eq!(got["archived"], true);

        mutate(&app, &admin, "template.restore", json!({"id": used}), &[])
            .await
            .expect("restored");
        assert_eq!(titles(&app, &admin, json!({})).await, ["Used"]);
        let list = query(&app, &admin, "template.list", json!({}))
            .await
            .expect("list");
        assert_eq!(list[0]["taskCount"], 1);
        assert_eq!(list[0]["questionCount"], 2);
        assert_eq!(list[0]["archived"], false);
    }
);
