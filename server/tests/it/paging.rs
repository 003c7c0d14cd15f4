//! Lists a page at a time (issue 30, docs/scaling.md "Paged lists"): `user.list` pages of
//! 100 and `user.listAll` pages of 200 after a stable cursor cover every user once, in name
//! order, whatever is added or removed between pages; search narrows the pages and the
//! total; a cursor that was tampered with is refused with a plain message; another school's
//! users never appear. Manage School's pupils (`admin.listPupils`) page by 50 the same way.

use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};
use voicemark::db::schema::users;
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
        let mut still: Vec<String> = ids(&all[1]);
        still.retain(|id| *id != leaving);
        still.push(ids(&all[2])[0].clone());
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
