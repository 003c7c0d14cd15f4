//! Lists a page at a time (issue 30, docs/scaling.md "Paged lists"): `user.list` pages of
//! 100 and `user.listAll` pages of 200 after a stable cursor cover every user once, in name
//! order, whatever is added or removed between pages; search narrows the pages and the
//! total; a cursor that was tampered with is refused with a plain message; another school's
//! users never appear. Manage School's pupils (`admin.listPupils`) and staff
//! (`admin.listStaff`) page by 50 the same way.
//! Newest first after a (time, id) cursor: tasks (`task.list`, 50 a page, the caller's own
//! and those shared with them), saved reports (`report.list`, 20 a page) and voice notes
//! (`voiceNote.list`, 20 a page); and the jobs view's failed jobs (`/api/bull`, 200 a
//! page, "Older failed jobs" by a cursor in the query string). The report generator's
//! pickers (`report.sources`, then `report.sourcesMore`): tasks 50 and voice notes 20 a page.

use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use chrono::{Duration, NaiveDateTime};
use voicemark::db::schema::{jobs, reports, stored_files, task_submissions, users};
use voicemark::ids::new_id;
use voicemark::models::now;
use voicemark::rpc::cursor::BAD_CURSOR;
use voicemark::with_conn;

use crate::admin::{query, signed_in};
use crate::dual_test;
use crate::support::{make_school, TestApp};

/// Adds a teacher of `school` named `forename surname`; answers their id.
async fn user(app: &TestApp, school: &str, forename: &str, surname: &str) -> String {
    crate::support::make_user(app, Some(school), UserRole::Teacher, forename, surname).await
}

/// Every page of `path` for `input` (plus the cursor), each page's users as they came.
async fn pages(app: &TestApp, cookie: &str, path: &str, input: Value, page_of: fn(&Value) -> &Value) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let mut asked = input.clone();
        asked["cursor"] = cursor;
        let answer = query(app, cookie, path, asked).await.expect("a page");
        let page = page_of(&answer);
        out.push(page["users"].as_array().unwrap().clone());
        cursor = page["nextCursor"].clone();
        if cursor.is_null() {
            return out;
        }
        assert!(out.len() < 20, "the pages never end");
    }
}

/// What the next page holds when `leaving` (on it) is removed between two pages: the rest
/// of that page, then the first row of the page after it, which moves up.
fn after_leaving(page: &[String], after: &[String], leaving: &str) -> Vec<String> {
    let mut still: Vec<String> = page.iter().filter(|id| *id != leaving).cloned().collect();
    still.push(after[0].clone());
    still
}

fn ids(rows: &[Value]) -> Vec<String> {
    rows.iter().map(|u| u["id"].as_str().unwrap().to_owned()).collect()
}

fn same(v: &Value) -> &Value {
    v
}

fn page_field(v: &Value) -> &Value {
    &v["page"]
}

dual_test!(
    async fn the_school_list_comes_a_page_at_a_time_and_never_repeats_or_skips(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (admin_id, admin) = signed_in(&app, &north, UserRole::Admin).await;
        let mut north_ids = vec![admin_id];
        // 249 more: names in groups of three that share surname and forename (the id decides).
        for n in 0..249 {
            north_ids.push(user(&app, &north, &format!("Fore{:02}", (n / 3) % 7), &format!("Sur{:03}", n / 3)).await);
        }
        for n in 0..5 {
            user(&app, &south, "Other", &format!("Sur{n:03}")).await;
        }

        let all = pages(&app, &admin, "user.list", json!({"search": null}), same).await;
        assert_eq!(all.iter().map(Vec::len).collect::<Vec<_>>(), [100, 100, 50]);
        let first = query(&app, &admin, "user.list", json!(null)).await.unwrap();
        assert_eq!(first["total"], 250);
        assert_eq!(ids(first["users"].as_array().unwrap()), ids(&all[0]), "no input = the first page");
        let listed: Vec<Value> = all.concat();
        let mut expected = north_ids.clone();
        expected.sort();
        let mut got = ids(&listed);
        got.sort();
        assert_eq!(got, expected, "every user of the school once, nobody else");
        // In name order: surname, then forename (the generated ones: how the admin's lower-case
        // "admin" sorts among them is each database's collation).
        let names: Vec<(String, String)> = listed
            .iter()
            .filter(|u| u["surname"].as_str().unwrap().starts_with("Sur"))
            .map(|u| (u["surname"].as_str().unwrap().to_owned(), u["forename"].as_str().unwrap().to_owned()))
            .collect();
        assert!(names.windows(2).all(|w| w[0] <= w[1]), "{names:?}");

        // Between pages someone joins before the cursor and someone after it leaves: the
        // next page starts right after the last row shown, repeating and skipping nobody.
        let one = query(&app, &admin, "user.list", json!({"search": null, "cursor": null})).await.unwrap();
        let cursor = one["nextCursor"].clone();
        user(&app, &north, "Early", "Aaa").await;
        let leaving = all[1][5]["id"].as_str().unwrap().to_owned();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(users::table.find(&leaving)).execute(c).await).expect("delete");
        }
        let two = query(&app, &admin, "user.list", json!({"search": null, "cursor": cursor})).await.unwrap();
        let still = after_leaving(&ids(&all[1]), &ids(&all[2]), &leaving);
        assert_eq!(ids(two["users"].as_array().unwrap()), still);
        assert_eq!(two["total"], 250, "one joined, one left");

        // Search narrows the pages and the total.
        let found = pages(&app, &admin, "user.list", json!({"search": "sur01"}), same).await;
        let found: Vec<Value> = found.concat();
        assert_eq!(found.len(), 30, "Sur010 to Sur019, three each");
        assert!(found.iter().all(|u| u["surname"].as_str().unwrap().starts_with("Sur01")));
        let counted = query(&app, &admin, "user.list", json!({"search": "sur01", "cursor": null})).await.unwrap();
        assert_eq!(counted["total"], 30);

        // A cursor made up or cut short is refused in plain words, naming the field.
        for bad in ["nonsense!", "WyJhIl0"] {
            let refused = query(&app, &admin, "user.list", json!({"search": null, "cursor": bad})).await.unwrap_err();
            assert_eq!(refused.0, "BAD_REQUEST");
            assert_eq!(refused.1, BAD_CURSOR);
            assert_eq!(refused.2["cursor"][0], BAD_CURSOR);
        }
    }
);

dual_test!(
    async fn the_superadmin_pages_through_every_school(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (_, superadmin) = signed_in(&app, &north, UserRole::Superadmin).await;
        for n in 0..150 {
            user(&app, &north, "North", &format!("N{n:03}")).await;
            user(&app, &south, "South", &format!("S{n:03}")).await;
        }
        let input = json!({"search": null, "schoolId": null, "role": null});
        let all = pages(&app, &superadmin, "user.listAll", input, page_field).await;
        assert_eq!(all.iter().map(Vec::len).collect::<Vec<_>>(), [200, 101]);
        let mut got = ids(&all.concat());
        got.sort();
        got.dedup();
        assert_eq!(got.len(), 301);
        let south_only = pages(&app, &superadmin, "user.listAll",
                               json!({"search": null, "schoolId": south, "role": null}), page_field).await;
        assert_eq!(south_only.iter().map(Vec::len).collect::<Vec<_>>(), [150]);
        assert!(south_only[0].iter().all(|u| u["schoolName"] == "South"));
    }
);

dual_test!(
    async fn the_pupils_page_by_name_fifty_at_a_time(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (_, admin) = signed_in(&app, &north, UserRole::Admin).await;
        let mut ids = Vec::new();
        // Every surname "Pupil"; forenames in pairs, so the id decides within a pair.
        for n in 0..120 {
            ids.push(crate::submissions::pupil(&app, &north, &format!("P{:03}", n / 2)).await);
        }
        crate::submissions::pupil(&app, &south, "Elsewhere").await;
        let mut pages = Vec::new();
        let mut cursor = Value::Null;
        loop {
            let page = query(&app, &admin, "admin.listPupils", json!({"search": null, "cursor": cursor})).await.unwrap();
            assert_eq!(page["total"], 120);
            pages.push(page["pupils"].as_array().unwrap().clone());
            cursor = page["nextCursor"].clone();
            if cursor.is_null() {
                break;
            }
        }
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [50, 50, 20]);
        let listed: Vec<Value> = pages.concat();
        let forenames: Vec<&str> = listed.iter().map(|p| p["forename"].as_str().unwrap()).collect();
        assert!(forenames.windows(2).all(|w| w[0] <= w[1]), "{forenames:?}");
        let mut got = crate::paging::ids(&listed);
        got.sort();
        ids.sort();
        assert_eq!(got, ids, "each pupil once, none of another school");
        let found = query(&app, &admin, "admin.listPupils", json!({"search": "p05", "cursor": null})).await.unwrap();
        assert_eq!(found["total"], 20, "P050 to P059, two each");
        assert!(found["nextCursor"].is_null());
        let refused = query(&app, &admin, "admin.listPupils", json!({"search": null, "cursor": "x"})).await.unwrap_err();
        assert_eq!(refused.1, BAD_CURSOR);
    }
);

dual_test!(
    async fn manage_schools_staff_page_by_name_fifty_at_a_time(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (admin_id, admin) = signed_in(&app, &north, UserRole::Admin).await;
        let mut expected = vec![admin_id];
        // 120 more: names in pairs that share surname and forename (the id decides).
        for n in 0..120 {
            expected.push(user(&app, &north, &format!("Fore{:02}", n / 2 % 9), &format!("Staff{:03}", n / 2)).await);
        }
        user(&app, &south, "Other", "Staff000").await;

        let all = walk(&app, &admin, "admin.listStaff", json!({"search": null}), "staff").await;
        assert_eq!(all.iter().map(Vec::len).collect::<Vec<_>>(), [50, 50, 21]);
        let first = query(&app, &admin, "admin.listStaff", Value::Null).await.unwrap();
        assert_eq!(first["total"], 121);
        assert_eq!(first["pageSize"], 50);
        assert_eq!(ids(first["staff"].as_array().unwrap()), ids(&all[0]), "no input = the first page");
        let listed: Vec<Value> = all.concat();
        let mut got = ids(&listed);
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "every member of the school once, nobody else");
        let names: Vec<(String, String)> = listed
            .iter()
            .filter(|u| u["surname"].as_str().unwrap().starts_with("Staff"))
            .map(|u| (u["surname"].as_str().unwrap().to_owned(), u["forename"].as_str().unwrap().to_owned()))
            .collect();
        assert!(names.windows(2).all(|w| w[0] <= w[1]), "{names:?}");

        // Someone joins before the cursor and someone after it leaves between two pages.
        let cursor = first["nextCursor"].clone();
        user(&app, &north, "Early", "Aaa").await;
        let leaving = all[1][7]["id"].as_str().unwrap().to_owned();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(users::table.find(&leaving)).execute(c).await).expect("delete");
        }
        let two = query(&app, &admin, "admin.listStaff", json!({"search": null, "cursor": cursor})).await.unwrap();
        assert_eq!(ids(two["staff"].as_array().unwrap()), after_leaving(&ids(&all[1]), &ids(&all[2]), &leaving));
        assert_eq!(two["total"], 121, "one joined, one left");

        // Search by name or e-mail narrows the pages and the total.
        let found = query(&app, &admin, "admin.listStaff", json!({"search": "staff01", "cursor": null})).await.unwrap();
        assert_eq!(found["total"], 20, "Staff010 to Staff019, two each");
        assert!(found["nextCursor"].is_null());
        let email = listed[3]["email"].as_str().unwrap().to_owned();
        let by_email = query(&app, &admin, "admin.listStaff", json!({"search": email, "cursor": null})).await.unwrap();
        assert_eq!(ids(by_email["staff"].as_array().unwrap()), vec![listed[3]["id"].as_str().unwrap().to_owned()]);
        made_up_cursors_are_refused(&app, &admin, "admin.listStaff", json!({"search": null})).await;
    }
);

/// Every page of `path` for `input` (plus the cursor), each page's `field` rows as they came;
/// checks that every page says the same `total`.
async fn walk(app: &TestApp, cookie: &str, path: &str, input: Value, field: &str) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    let mut cursor = Value::Null;
    let mut total = None;
    loop {
        let mut asked = input.clone();
        asked["cursor"] = cursor;
        let page = query(app, cookie, path, asked).await.expect("a page");
        out.push(page[field].as_array().unwrap().clone());
        assert!(total.is_none_or(|t| t == page["total"]), "one total on every page");
        total = Some(page["total"].clone());
        cursor = page["nextCursor"].clone();
        if cursor.is_null() {
            return out;
        }
        assert!(out.len() < 20, "the pages never end");
    }
}

/// A made-up cursor, one cut short and one whose time does not read are refused on the
/// `cursor` field in plain words.
async fn made_up_cursors_are_refused(app: &TestApp, cookie: &str, path: &str, input: Value) {
    let bad_time = voicemark::rpc::cursor::encode(&["last Tuesday", "x"]);
    for bad in ["nonsense!", "WyJhIl0", bad_time.as_str()] {
        let mut asked = input.clone();
        asked["cursor"] = json!(bad);
        let refused = query(app, cookie, path, asked).await.unwrap_err();
        assert_eq!(refused.0, "BAD_REQUEST", "{path} {bad}");
        assert_eq!(refused.1, BAD_CURSOR);
        assert_eq!(refused.2["cursor"][0], BAD_CURSOR);
    }
}

/// Sets a task's last change to `at`.
async fn task_changed_at(app: &TestApp, id: &str, at: NaiveDateTime) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::update(task_submissions::table.find(id))
        .set(task_submissions::updated_at.eq(at))
        .execute(c)
        .await)
    .expect("update");
}

/// `ids` as the list orders them: newest first by `times`, then by id, descending.
fn newest_first(mut rows: Vec<(NaiveDateTime, String)>) -> Vec<String> {
    rows.sort_by(|a, b| b.cmp(a));
    rows.into_iter().map(|(_, id)| id).collect()
}

dual_test!(
    async fn tasks_page_newest_change_first_fifty_at_a_time(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (me, cookie) = signed_in(&app, &north, UserRole::Teacher).await;
        let colleague = user(&app, &north, "Col", "League").await;
        let stranger = user(&app, &south, "Stray", "Anger").await;
        let base = now() - Duration::days(1);
        // 110 of mine and 10 a colleague shared with me; changed in pairs at the same time
        // (the id decides within a pair); every fourth tagged "Y7", every third a draft.
        let mut expected = Vec::new();
        for n in 0..120usize {
            let owner = if n % 12 == 5 { &colleague } else { &me };
            let tags: &[&str] = if n % 4 == 0 { &["Y7", "Maths"] } else { &["y8"] };
            let id = crate::reports::task(&app, &north, owner, &format!("Task {n:03}"), tags, &[], 1).await;
            if owner == &colleague {
                crate::reports::share(&app, &id, &me).await;
            }
            let at = base - Duration::minutes((n / 2) as i64);
            task_changed_at(&app, &id, at).await;
            if n % 3 == 0 {
                let mut pooled = app.db.conn().await.expect("connection");
                with_conn!(pooled.db(), |c| diesel::update(task_submissions::table.find(&id))
                    .set(task_submissions::draft.eq(true))
                    .execute(c)
                    .await)
                .expect("draft");
            }
            expected.push((at, id));
        }
        // Not mine, not shared with me, or another school's: never listed.
        crate::reports::task(&app, &north, &colleague, "Colleague's own", &["Y7"], &[], 1).await;
        crate::reports::task(&app, &south, &stranger, "Elsewhere", &["Y7"], &[], 0).await;

        let all = walk(&app, &cookie, "task.list", json!({}), "tasks").await;
        assert_eq!(all.iter().map(Vec::len).collect::<Vec<_>>(), [50, 50, 20]);
        let listed: Vec<Value> = all.concat();
        assert_eq!(ids(&listed), newest_first(expected.clone()), "each task once, newest change first, none of anyone else's");
        assert_eq!(listed.iter().filter(|t| t["shared"] == true).count(), 10);
        let first = query(&app, &cookie, "task.list", json!(null)).await.unwrap();
        assert_eq!(ids(first["tasks"].as_array().unwrap()), ids(&all[0]), "no input = the first page");
        assert_eq!(first["total"], 120);
        assert_eq!(first["allTags"], json!(["Maths", "Y7", "y8"]), "every tag of my tasks, one spelling each");

        // The filters narrow the pages and the total; the tag in any case, whole tags only.
        let tagged = walk(&app, &cookie, "task.list", json!({"tag": "y7"}), "tasks").await.concat();
        assert_eq!(tagged.len(), 30);
        assert!(tagged.iter().all(|t| t["tags"][0] == "Y7"));
        assert!(walk(&app, &cookie, "task.list", json!({"tag": "Y"}), "tasks").await.concat().is_empty());
        let drafts = walk(&app, &cookie, "task.list", json!({"status": "DRAFT", "tag": "Y8"}), "tasks").await.concat();
        assert!(drafts.iter().all(|t| t["draft"] == true && t["tags"][0] == "y8"));
        assert_eq!(drafts.len(), (0..120).filter(|n| n % 3 == 0 && n % 4 != 0).count());
        let searched = query(&app, &cookie, "task.list", json!({"search": "task 10", "cursor": null})).await.unwrap();
        assert_eq!(searched["total"], 10, "Task 100 to Task 109");
        assert!(searched["nextCursor"].is_null());

        // Between pages a task is started and another changes (both newest: before the
        // cursor) and one after the cursor is deleted: the next page starts right after the
        // last row shown.
        let cursor = first["nextCursor"].clone();
        crate::reports::task(&app, &north, &me, "Just started", &[], &[], 0).await;
        task_changed_at(&app, &ids(&all[2])[3], now()).await;
        let leaving = all[1][7..].iter().find(|t| t["shared"] == false).unwrap()["id"].as_str().unwrap().to_owned();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(task_submissions::table.find(&leaving)).execute(c).await)
                .expect("delete");
        }
        let two = query(&app, &cookie, "task.list", json!({"cursor": cursor})).await.unwrap();
        let still = after_leaving(&ids(&all[1]), &ids(&all[2]), &leaving);
        assert_eq!(ids(two["tasks"].as_array().unwrap()), still);
        assert_eq!(two["total"], 120, "one started, one deleted");

        made_up_cursors_are_refused(&app, &cookie, "task.list", json!({})).await;
    }
);

/// A saved report of `owner` titled `title`, last changed at `at`; answers its id.
async fn report(app: &TestApp, school: &str, owner: &str, title: &str, at: NaiveDateTime) -> String {
    let id = new_id();
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::insert_into(reports::table)
        .values((
            reports::id.eq(&id),
            reports::school_id.eq(school),
            reports::user_id.eq(owner),
            reports::title.eq(title),
            reports::instructions.eq(""),
            reports::body.eq("Body"),
            reports::task_ids.eq("[]"),
            reports::voice_note_ids.eq("[]"),
            reports::created_at.eq(at),
            reports::updated_at.eq(at),
        ))
        .execute(c)
        .await)
    .expect("report");
    id
}

dual_test!(
    async fn saved_reports_page_newest_change_first_twenty_at_a_time(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (me, cookie) = signed_in(&app, &north, UserRole::Teacher).await;
        let colleague = user(&app, &north, "Col", "League").await;
        let stranger = user(&app, &south, "Stray", "Anger").await;
        let base = now() - Duration::days(1);
        let mut expected = Vec::new();
        // In threes at the same time, so the id decides within each three.
        for n in 0..45 {
            let at = base - Duration::minutes(n / 3);
            expected.push((at, report(&app, &north, &me, &format!("Report {n:02}"), at).await));
        }
        report(&app, &north, &colleague, "A colleague's", base).await;
        report(&app, &south, &stranger, "Elsewhere", base).await;

        let all = walk(&app, &cookie, "report.list", json!({}), "reports").await;
        assert_eq!(all.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 5]);
        assert_eq!(ids(&all.concat()), newest_first(expected), "each report once, newest first, only mine");
        let first = query(&app, &cookie, "report.list", json!(null)).await.unwrap();
        assert_eq!(first["total"], 45);
        assert_eq!(ids(first["reports"].as_array().unwrap()), ids(&all[0]), "no input = the first page");

        // Between pages one is saved (newest: before the cursor) and one after it deleted.
        let cursor = first["nextCursor"].clone();
        report(&app, &north, &me, "Just saved", now()).await;
        let leaving = ids(&all[1])[2].clone();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(reports::table.find(&leaving)).execute(c).await).expect("delete");
        }
        let two = query(&app, &cookie, "report.list", json!({"cursor": cursor})).await.unwrap();
        let still = after_leaving(&ids(&all[1]), &ids(&all[2]), &leaving);
        assert_eq!(ids(two["reports"].as_array().unwrap()), still);
        assert_eq!(two["total"], 45, "one saved, one deleted");

        made_up_cursors_are_refused(&app, &cookie, "report.list", json!({})).await;
    }
);

/// Sets a stored file's creation time to `at`; answers (at, id).
async fn note_made_at(app: &TestApp, id: String, at: NaiveDateTime) -> (NaiveDateTime, String) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::update(stored_files::table.find(&id))
        .set(stored_files::created_at.eq(at))
        .execute(c)
        .await)
    .expect("update");
    (at, id)
}

dual_test!(
    async fn voice_notes_page_newest_first_twenty_at_a_time(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (me, cookie) = signed_in(&app, &north, UserRole::Teacher).await;
        let colleague = user(&app, &north, "Col", "League").await;
        let stranger = user(&app, &south, "Stray", "Anger").await;
        let base = now() - Duration::days(1);
        let mut expected = Vec::new();
        // In pairs at the same time, so the id decides within each pair.
        for n in 0..50 {
            let (id, _) = crate::reports::stored_file(&app, &north, &me, &format!("Note {n:02}.webm"), None).await;
            expected.push(note_made_at(&app, id, base - Duration::minutes(n / 2)).await);
        }
        crate::reports::stored_file(&app, &north, &colleague, "Theirs.webm", None).await;
        crate::reports::stored_file(&app, &south, &stranger, "Elsewhere.webm", None).await;

        let all = walk(&app, &cookie, "voiceNote.list", json!({}), "notes").await;
        assert_eq!(all.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 10]);
        assert_eq!(ids(&all.concat()), newest_first(expected), "each note once, newest first, only mine");
        assert!(all.concat().iter().all(|n| n["url"].as_str().is_some_and(|u| !u.is_empty())));
        let first = query(&app, &cookie, "voiceNote.list", json!(null)).await.unwrap();
        assert_eq!(first["total"], 50);
        assert_eq!(ids(first["notes"].as_array().unwrap()), ids(&all[0]), "no input = the first page");

        // Between pages one is recorded (newest: before the cursor) and one after it deleted.
        let cursor = first["nextCursor"].clone();
        crate::reports::stored_file(&app, &north, &me, "Just recorded.webm", None).await;
        let leaving = ids(&all[1])[4].clone();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(stored_files::table.find(&leaving)).execute(c).await)
                .expect("delete");
        }
        let two = query(&app, &cookie, "voiceNote.list", json!({"cursor": cursor})).await.unwrap();
        let still = after_leaving(&ids(&all[1]), &ids(&all[2]), &leaving);
        assert_eq!(ids(two["notes"].as_array().unwrap()), still);
        assert_eq!(two["total"], 50, "one recorded, one deleted");

        made_up_cursors_are_refused(&app, &cookie, "voiceNote.list", json!({})).await;

        // A task's "Pull in voice notes" picker pages the same notes by 50, saying which are
        // in the task already.
        for n in 0..5 {
            crate::reports::stored_file(&app, &north, &me, &format!("More {n}.webm"), None).await;
        }
        let task = crate::reports::task(&app, &north, &me, "Observation", &[], &[], 1).await;
        let listed = walk(&app, &cookie, "voiceNote.list", json!({}), "notes").await.concat();
        let picked = listed[60 - 8]["id"].as_str().unwrap().to_owned();
        let mutated = crate::admin::mutate(&app, &cookie, "taskContent.addVoiceNotes",
                                           json!({"taskId": task, "voiceNoteIds": [picked]}), &[]).await.unwrap();
        assert_eq!(mutated["added"], 1);
        let pages = walk(&app, &cookie, "taskContent.voiceNotes", json!({"taskId": task}), "notes").await;
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [50, 5]);
        let picker: Vec<Value> = pages.concat();
        assert_eq!(ids(&picker), ids(&listed), "the same notes in the same order as the voice notes page");
        let added: Vec<String> = picker.iter().filter(|n| n["added"] == true).map(|n| n["id"].as_str().unwrap().to_owned()).collect();
        assert_eq!(added, vec![picked], "the one on the second page is marked as in the task");
        made_up_cursors_are_refused(&app, &cookie, "taskContent.voiceNotes", json!({"taskId": task})).await;
    }
);

/// The jobs view at `query` (`""` or `"?cursor=…"`): (status, failed job ids in page order,
/// the "Older failed jobs" link's cursor, the page's text).
async fn jobs_page(app: &TestApp, cookie: &str, query: &str) -> (axum::http::StatusCode, Vec<String>, Option<String>, String) {
    let request = axum::http::Request::get(format!("/api/bull{query}"))
        .header("cookie", cookie)
        .body(axum::body::Body::empty())
        .expect("request");
    let text = app.request(request).await;
    let status = text.status;
    let text = text.text();
    let ids = text
        .split("action=\"/api/bull/jobs/")
        .skip(1)
        .filter_map(|rest| rest.split_once("/retry\"").map(|(id, _)| id.to_owned()))
        .collect();
    let older = text
        .split("<a href=\"/api/bull?cursor=")
        .nth(1)
        .and_then(|rest| rest.split_once("\">Older failed jobs</a>"))
        .map(|(cursor, _)| cursor.to_owned());
    (status, ids, older, text)
}

/// Sets a job's last change to `at`; answers (at, id).
async fn job_changed_at(app: &TestApp, id: String, at: NaiveDateTime) -> (NaiveDateTime, String) {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| diesel::update(jobs::table.find(&id))
        .set(jobs::updated_at.eq(at))
        .execute(c)
        .await)
    .expect("update");
    (at, id)
}

dual_test!(
    async fn the_jobs_view_pages_failed_jobs_newest_first_two_hundred_at_a_time(app: TestApp) {
        use voicemark::jobs::status;
        let sa = crate::submissions::staff(&app, None, UserRole::Superadmin, "Sam").await;
        let base = now() - Duration::days(1);
        let mut expected = Vec::new();
        // In pairs at the same time, so the id decides within each pair.
        for n in 0..410 {
            let id = crate::jobs_view::queue(&app, "email.feedback", json!({"n": n}), status::FAILED).await;
            expected.push(job_changed_at(&app, id, base - Duration::seconds(n / 2)).await);
        }
        for _ in 0..3 {
            crate::jobs_view::queue(&app, "email.feedback", json!({}), status::DONE).await;
        }

        let mut pages = Vec::new();
        let mut query = String::new();
        loop {
            let (code, ids, older, text) = jobs_page(&app, &sa.cookie, &query).await;
            assert_eq!(code, axum::http::StatusCode::OK);
            assert_eq!(text.contains(">Newest failed jobs</a>"), !pages.is_empty(), "back to the start from a later page only");
            pages.push(ids);
            match older {
                Some(cursor) => query = format!("?cursor={cursor}"),
                None => break,
            }
            assert!(pages.len() < 10, "the pages never end");
        }
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [200, 200, 10]);
        assert_eq!(pages.concat(), newest_first(expected), "each failed job once, newest first, no other");

        // Between pages a job fails (newest: before the cursor) and one after it is
        // discarded: the next page starts right after the last row shown.
        let (_, first, cursor, _) = jobs_page(&app, &sa.cookie, "").await;
        assert_eq!(first, pages[0]);
        let cursor = cursor.expect("older ones follow");
        crate::jobs_view::queue(&app, "notification.send", json!({}), status::FAILED).await;
        let leaving = pages[1][9].clone();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(jobs::table.find(&leaving)).execute(c).await).expect("delete");
        }
        let shown = {
            let request = axum::http::Request::get(format!("/api/bull?cursor={cursor}"))
                .header("cookie", &sa.cookie)
                .body(axum::body::Body::empty())
                .expect("request");
            app.request(request).await
        };
        let (_, two, _, text) = jobs_page(&app, &sa.cookie, &format!("?cursor={cursor}")).await;
        let still = after_leaving(&pages[1], &pages[2], &leaving);
        assert_eq!(two, still);
        assert!(text.contains(&format!("<input type=\"hidden\" name=\"cursor\" value=\"{cursor}\">")));

        // Retry on that page comes back to it.
        let (token, csrf_cookie) = crate::jobs_view::csrf_of(&shown);
        let request = axum::http::Request::post(format!("/api/bull/jobs/{}/retry", still[0]))
            .header("cookie", format!("{}; {csrf_cookie}", sa.cookie))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(axum::body::Body::from(format!("csrfToken={token}&cursor={cursor}")))
            .expect("request");
        let answer = app.request(request).await;
        assert_eq!(answer.status, axum::http::StatusCode::SEE_OTHER, "{}", answer.text());
        assert!(answer.header("location").unwrap_or("").ends_with(&format!("/api/bull?cursor={cursor}")));

        // A made-up cursor: 400, the plain sentence, and the way back to the newest.
        for bad in ["nonsense!", "WyJhIl0"] {
            let (code, ids, older, text) = jobs_page(&app, &sa.cookie, &format!("?cursor={bad}")).await;
            assert_eq!(code, axum::http::StatusCode::BAD_REQUEST);
            assert!(ids.is_empty() && older.is_none());
            assert!(text.contains(BAD_CURSOR) && text.contains("<a href=\"/api/bull\">Newest failed jobs</a>"), "{text}");
        }
    }
);

/// Adds a submission of `notification` by each of `pupils` (one each, as sending makes
/// them), handed in at `start` plus a second for each pair (so the id decides within a
/// pair); with `marked`, marked at the same times. Answers each row's (time, id).
async fn hand_ins(
    app: &TestApp,
    notification: &str,
    pupils: &[String],
    start: NaiveDateTime,
    marked: bool,
) -> Vec<(NaiveDateTime, String)> {
    use voicemark::db::schema::submissions;
    let rows: Vec<(NaiveDateTime, String)> =
        (0..pupils.len()).map(|n| (start + Duration::seconds((n / 2) as i64), new_id())).collect();
    let values: Vec<_> = rows
        .iter()
        .zip(pupils)
        .map(|((at, id), pupil)| {
            (
                submissions::id.eq(id.clone()),
                submissions::created_at.eq(start),
                submissions::updated_at.eq(*at),
                submissions::token.eq(voicemark::ids::new_token()),
                submissions::notification_id.eq(notification.to_owned()),
                submissions::student_id.eq(pupil.clone()),
                submissions::received_at.eq(Some(*at)),
                submissions::content.eq(Some("My letter.".to_owned())),
                submissions::marked_at.eq(marked.then_some(*at)),
                submissions::feedback.eq(marked.then(|| "Well argued.".to_owned())),
                submissions::feedback_sentiment.eq(marked.then(|| "POSITIVE".to_owned())),
                submissions::feedback_released_at.eq(marked.then_some(*at)),
            )
        })
        .collect();
    let mut pooled = app.db.conn().await.expect("connection");
    // One statement a row: SQLite's batch insert cannot take these tuples.
    for row in values {
        with_conn!(pooled.db(), |c| diesel::insert_into(submissions::table).values(row.clone()).execute(c).await)
            .expect("submission");
    }
    rows
}

/// The ids of `rows` in the order (time, id), ascending or (`newest_first`) descending.
fn in_order(rows: &[(NaiveDateTime, String)], newest_first: bool) -> Vec<String> {
    let mut sorted = rows.to_vec();
    sorted.sort();
    if newest_first {
        sorted.reverse();
    }
    sorted.into_iter().map(|(_, id)| id).collect()
}

fn submission_ids(rows: &Value) -> Vec<String> {
    rows.as_array().unwrap().iter().map(|r| r["submissionId"].as_str().unwrap().to_owned()).collect()
}

dual_test!(
    async fn the_feedback_hubs_lists_page_after_a_cursor(app: TestApp) {
        let school = make_school(&app, "North").await;
        let (teacher_id, teacher) = signed_in(&app, &school, UserRole::Teacher).await;
        let (colleague_id, _) = signed_in(&app, &school, UserRole::Teacher).await;
        let letter = crate::submissions::assignment(&app, &school, &teacher_id, "Letter", 0, 7).await;
        let other = crate::submissions::assignment(&app, &school, &colleague_id, "Not hers", 0, 7).await;
        let mut pupils = Vec::new();
        for n in 0..1240 {
            pupils.push(crate::submissions::pupil(&app, &school, &format!("P{n:04}")).await);
        }
        let start = now() - Duration::days(3);
        let waiting = hand_ins(&app, &letter, &pupils[..1010], start, false).await;
        let marked = hand_ins(&app, &letter, &pupils[1010..], start, true).await;
        hand_ins(&app, &other, &pupils[..5], start, false).await;
        hand_ins(&app, &other, &pupils[5..10], start, true).await;
        let filters = json!({"notificationId": null, "classId": null});

        // The first page of each list, the counts and where each list goes on.
        let hub = query(&app, &teacher, "feedback.list", filters.clone()).await.unwrap();
        assert_eq!(hub["items"].as_array().unwrap().len(), 500);
        assert_eq!(hub["waitingCount"], 1010);
        assert_eq!(hub["marked"].as_array().unwrap().len(), 200);
        assert_eq!(hub["markedCount"], 230);
        let expected = in_order(&waiting, false);
        assert_eq!(submission_ids(&hub["items"]), expected[..500]);
        assert_eq!(submission_ids(&hub["marked"]), in_order(&marked, true)[..200]);

        // The waiting list after its cursor: 500, then 10, oldest first, each once, none of
        // a colleague's assignment.
        let more = |cursor: Value, list: &str| {
            let mut input = filters.clone();
            input["list"] = json!(list);
            input["cursor"] = cursor;
            input
        };
        let two = query(&app, &teacher, "feedback.listMore", more(hub["waitingNext"].clone(), "WAITING")).await.unwrap();
        assert_eq!(two["marked"], json!([]));
        assert_eq!(submission_ids(&two["waiting"]), expected[500..1000]);
        let three = query(&app, &teacher, "feedback.listMore", more(two["nextCursor"].clone(), "WAITING")).await.unwrap();
        assert_eq!(submission_ids(&three["waiting"]), expected[1000..]);
        assert!(three["nextCursor"].is_null());

        // One on page 2 is marked meanwhile: page 2 again starts right after page 1's last
        // row, without it, and page 3's first row moves up.
        let leaving = expected[507].clone();
        {
            use voicemark::db::schema::submissions;
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::update(submissions::table.find(&leaving))
                .set(submissions::marked_at.eq(Some(now())))
                .execute(c)
                .await)
            .expect("mark");
        }
        let again = query(&app, &teacher, "feedback.listMore", more(hub["waitingNext"].clone(), "WAITING")).await.unwrap();
        assert_eq!(
            submission_ids(&again["waiting"]),
            after_leaving(&expected[500..1000], &expected[1000..], &leaving)
        );

        // The Marked list after its cursor: the 30 marked earliest, then no more (the one
        // just marked is newest, so on the first page now).
        let marked_two = query(&app, &teacher, "feedback.listMore", more(hub["markedNext"].clone(), "MARKED")).await.unwrap();
        assert_eq!(marked_two["waiting"], json!([]));
        assert_eq!(submission_ids(&marked_two["marked"]), in_order(&marked, true)[200..]);
        assert!(marked_two["nextCursor"].is_null());

        // A filter narrows the pages: the colleague's assignment is not hers to mark.
        let mut theirs = more(hub["waitingNext"].clone(), "WAITING");
        theirs["notificationId"] = json!(other);
        let none = query(&app, &teacher, "feedback.listMore", theirs).await.unwrap();
        assert_eq!(none["waiting"], json!([]));

        made_up_cursors_are_refused(&app, &teacher, "feedback.listMore", more(Value::Null, "WAITING")).await;
        let missing = query(&app, &teacher, "feedback.listMore", more(json!(""), "WAITING")).await.unwrap_err();
        assert_eq!(missing.1, BAD_CURSOR);
    }
);

/// Every page of one of the report generator's pickers after `report.sources` (`first`):
/// `report.sourcesMore` for `list` with `filters` from `first[next]` until no cursor follows;
/// the first page's `field` rows, then each page's.
async fn picker_pages(app: &TestApp, cookie: &str, first: &Value, list: &str, filters: Value) -> Vec<Vec<Value>> {
    let (field, next) = if list == "TASKS" { ("tasks", "tasksNext") } else { ("voiceNotes", "voiceNotesNext") };
    let mut out = vec![first[field].as_array().unwrap().clone()];
    let mut cursor = first[next].clone();
    while !cursor.is_null() {
        let mut asked = filters.clone();
        asked["list"] = json!(list);
        asked["cursor"] = cursor;
        let page = query(app, cookie, "report.sourcesMore", asked).await.expect("a page");
        let other = if list == "TASKS" { "voiceNotes" } else { "tasks" };
        assert_eq!(page[other], json!([]), "only the list asked for");
        out.push(page[field].as_array().unwrap().clone());
        cursor = page["nextCursor"].clone();
        assert!(out.len() < 20, "the pages never end");
    }
    out
}

dual_test!(
    async fn the_report_generators_pickers_page_after_a_cursor(app: TestApp) {
        let north = make_school(&app, "North").await;
        let south = make_school(&app, "South").await;
        let (me, cookie) = signed_in(&app, &north, UserRole::Teacher).await;
        let colleague = user(&app, &north, "Col", "League").await;
        let stranger = user(&app, &south, "Stray", "Anger").await;
        let base = now() - Duration::days(1);
        // 110 of mine and 10 a colleague shared with me, changed in pairs at the same time (the
        // id decides within a pair); every fourth tagged "Y7"; the first 60 submitted 40 days
        // ago, the rest yesterday.
        let mut expected = Vec::new();
        for n in 0..120usize {
            let owner = if n % 12 == 5 { &colleague } else { &me };
            let tags: &[&str] = if n % 4 == 0 { &["Y7", "Maths"] } else { &["y8"] };
            let days_ago = if n < 60 { 40 } else { 1 };
            let id = crate::reports::task(&app, &north, owner, &format!("Task {n:03}"), tags, &[], days_ago).await;
            if owner == &colleague {
                crate::reports::share(&app, &id, &me).await;
            }
            let at = base - Duration::minutes((n / 2) as i64);
            task_changed_at(&app, &id, at).await;
            expected.push((at, id));
        }
        // Not mine, not shared with me, or another school's: never listed.
        crate::reports::task(&app, &north, &colleague, "Colleague's own", &["Y7"], &[], 1).await;
        crate::reports::task(&app, &south, &stranger, "Elsewhere", &["Y7"], &[], 1).await;
        // 45 voice notes of mine in pairs, every fifth transcribed; a colleague's, another
        // school's and one of mine still on its way are never listed.
        let mut notes = Vec::new();
        for n in 0..45 {
            let transcript = (n % 5 == 0).then_some("Heard in the lesson");
            let (id, _) = crate::reports::stored_file(&app, &north, &me, &format!("Note {n:02}.webm"), transcript).await;
            notes.push(note_made_at(&app, id, base - Duration::minutes(n / 2)).await);
        }
        crate::reports::stored_file(&app, &north, &colleague, "Theirs.webm", None).await;
        crate::reports::stored_file(&app, &south, &stranger, "Elsewhere.webm", None).await;
        let (arriving, _) = crate::reports::stored_file(&app, &north, &me, "Arriving.webm", None).await;
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::update(stored_files::table.find(&arriving))
                .set(stored_files::uploaded_at.eq(None::<NaiveDateTime>))
                .execute(c)
                .await)
            .expect("not arrived");
        }

        // The first screen: 50 tasks and 20 voice notes, their totals, where each goes on,
        // every tag of my tasks.
        let first = query(&app, &cookie, "report.sources", json!({})).await.unwrap();
        assert_eq!(first["tasksTotal"], 120);
        assert_eq!(first["voiceNotesTotal"], 45);
        assert_eq!(first["tags"], json!(["Maths", "Y7", "y8"]));
        assert_eq!(query(&app, &cookie, "report.sources", json!(null)).await.unwrap(), first, "no input = no filters");

        // Tasks: 50, 50, 20, each once, newest change first, none of anyone else's.
        let tasks = picker_pages(&app, &cookie, &first, "TASKS", json!({})).await;
        assert_eq!(tasks.iter().map(Vec::len).collect::<Vec<_>>(), [50, 50, 20]);
        assert_eq!(ids(&tasks.concat()), newest_first(expected.clone()));
        // Voice notes: 20, 20, 5, newest first, each saying whether it has a transcript.
        let pages = picker_pages(&app, &cookie, &first, "VOICE_NOTES", json!({})).await;
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 5]);
        let listed = pages.concat();
        assert_eq!(ids(&listed), newest_first(notes.clone()));
        let heard: Vec<String> = notes.iter().step_by(5).map(|(_, id)| id.clone()).collect();
        for note in &listed {
            let transcribed = heard.contains(&note["id"].as_str().unwrap().to_owned());
            assert_eq!(note["hasTranscript"], transcribed, "{note}");
            assert_eq!(note["preview"], if transcribed { json!("Heard in the lesson") } else { Value::Null });
        }

        // The filters narrow the pages and the total, and the pages after keep them.
        let old = json!({"to": (now() - Duration::days(30)).date().format("%Y-%m-%d").to_string()});
        let older = query(&app, &cookie, "report.sources", old.clone()).await.unwrap();
        assert_eq!(older["tasksTotal"], 60);
        let older = picker_pages(&app, &cookie, &older, "TASKS", old).await;
        assert_eq!(older.iter().map(Vec::len).collect::<Vec<_>>(), [50, 10]);
        let first_sixty: Vec<(NaiveDateTime, String)> = expected[..60].to_vec();
        assert_eq!(ids(&older.concat()), newest_first(first_sixty));
        let recent = json!({"from": (now() - Duration::days(10)).date().format("%Y-%m-%d").to_string(), "tag": "y7"});
        let tagged = query(&app, &cookie, "report.sources", recent).await.unwrap();
        assert_eq!(tagged["tasksTotal"], 15, "Y7 (any case) of the 60 submitted yesterday");
        assert!(tagged["tasksNext"].is_null());
        assert!(tagged["tasks"].as_array().unwrap().iter().all(|t| t["tags"][0] == "Y7"));
        assert_eq!(tagged["voiceNotesTotal"], 45, "the filters are the tasks'");
        let searched = query(&app, &cookie, "report.sources", json!({"search": "task 10"})).await.unwrap();
        assert_eq!(searched["tasksTotal"], 10, "Task 100 to Task 109");
        assert!(searched["tasksNext"].is_null());

        // Between pages a task is started and another changes (both newest: before the
        // cursor) and one of page 2 is deleted: page 2 starts right after page 1's last row.
        let cursor = first["tasksNext"].clone();
        crate::reports::task(&app, &north, &me, "Just started", &[], &[], 0).await;
        task_changed_at(&app, &ids(&tasks[2])[3], now()).await;
        let leaving = ids(&tasks[1])[9].clone();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(task_submissions::table.find(&leaving)).execute(c).await)
                .expect("delete");
        }
        let two = query(&app, &cookie, "report.sourcesMore", json!({"list": "TASKS", "cursor": cursor})).await.unwrap();
        assert_eq!(ids(two["tasks"].as_array().unwrap()), after_leaving(&ids(&tasks[1]), &ids(&tasks[2]), &leaving));
        // The same for the voice notes: one recorded, one of page 2 deleted.
        let cursor = first["voiceNotesNext"].clone();
        crate::reports::stored_file(&app, &north, &me, "Just recorded.webm", None).await;
        let leaving = ids(&pages[1])[4].clone();
        {
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| diesel::delete(stored_files::table.find(&leaving)).execute(c).await)
                .expect("delete");
        }
        let two = query(&app, &cookie, "report.sourcesMore", json!({"list": "VOICE_NOTES", "cursor": cursor})).await.unwrap();
        assert_eq!(ids(two["voiceNotes"].as_array().unwrap()), after_leaving(&ids(&pages[1]), &ids(&pages[2]), &leaving));

        // Made-up cursors are refused in plain words, and the filters are checked as on the
        // first page.
        for list in ["TASKS", "VOICE_NOTES"] {
            made_up_cursors_are_refused(&app, &cookie, "report.sourcesMore", json!({"list": list})).await;
            let missing = query(&app, &cookie, "report.sourcesMore", json!({"list": list, "cursor": ""})).await.unwrap_err();
            assert_eq!(missing.2["cursor"][0], BAD_CURSOR);
        }
        let bad = query(&app, &cookie, "report.sourcesMore", json!({"list": "TASKS", "cursor": first["tasksNext"].clone(), "from": "yesterday"}))
            .await
            .unwrap_err();
        assert_eq!((bad.0.as_str(), bad.2["from"][0].as_str()), ("BAD_REQUEST", Some("Enter a date.")));
        // Another school's caller gets nothing of mine from my cursor.
        let (_, theirs) = signed_in(&app, &south, UserRole::Teacher).await;
        let none = query(&app, &theirs, "report.sourcesMore", json!({"list": "TASKS", "cursor": first["tasksNext"].clone()})).await.unwrap();
        assert_eq!(none["tasks"], json!([]));
    }
);
