//! The hot procedures read the big tables through their indexes (issue 30 item 3,
//! docs/scaling.md "A thousand schools"), checked on PostgreSQL with the statements the
//! procedures really send: sequential scans are priced out for the database
//! (`enable_seqscan = off`), so the planner takes an index wherever one can serve a
//! statement, and a big table's `seq_scan` counter (`pg_stat_user_tables`) only moves
//! when a statement has none. A query whose shape no longer fits its index, or an index
//! dropped, fails here on a handful of rows, long before a thousand schools notice.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use serde_json::{json, Value};

use crate::insights::seed;
use crate::submissions::query;
use crate::support::{postgres_admin_url, TestApp, TestBackend};

/// The tables that grow with every school (millions of rows at a thousand schools).
const BIG: [&str; 8] = [
    "submissions",
    "notification_receipts",
    "deliveries",
    "class_students",
    "students",
    "notifications",
    "users",
    "sessions",
];

#[derive(diesel::QueryableByName, Debug)]
struct Scans {
    #[diesel(sql_type = diesel::sql_types::Text)]
    relname: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    seq_scan: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    idx_scan: i64,
}

async fn scans(conn: &mut AsyncPgConnection) -> Vec<Scans> {
    diesel::sql_query(
        "SELECT relname::text AS relname, seq_scan, COALESCE(idx_scan, 0) AS idx_scan \
         FROM pg_stat_user_tables ORDER BY relname",
    )
    .load(conn)
    .await
    .expect("table statistics")
}

/// Ends every other session on this database and waits until they are gone: a backend
/// writes its table statistics when it exits, so the counters are complete afterwards.
async fn end_other_sessions(conn: &mut AsyncPgConnection) {
    for _ in 0..100 {
        #[derive(diesel::QueryableByName)]
        struct Left {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let left: Vec<Left> = diesel::sql_query(
            "SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .load(conn)
        .await
        .expect("end the other sessions");
        if left[0].n == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the app's sessions did not end");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hot_procedures_read_the_big_tables_through_indexes() {
    if postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    let app = TestApp::new(TestBackend::Postgres).await;
    let s = seed(&app).await;
    let mut watch = AsyncPgConnection::establish(app.url.as_str()).await.expect("connect");
    let database = app.url.as_str().rsplit('/').next().expect("a database name").to_owned();
    watch
        .batch_execute(&format!("ALTER DATABASE {database} SET enable_seqscan = off"))
        .await
        .expect("price out sequential scans");
    end_other_sessions(&mut watch).await;
    let before = scans(&mut watch).await;

    // A second app with a pool of its own: its sessions start with the setting.
    let app = app.attach().await;
    voicemark::models::hub_count::forget();
    let none = json!({"from": s.from, "to": s.to, "schoolId": null, "yearGroupId": null,
                      "formGroupId": null, "classId": null, "teacherId": null});
    let pupil = &s.pupils[0];
    let mut calls: Vec<(&String, &str, Value)> = vec![
        (&s.admin.cookie, "user.feedbackHubCount", Value::Null),
        (&s.admin.cookie, "dashboard.summary", Value::Null),
        (&s.admin.cookie, "feedback.list", json!({"notificationId": null, "classId": null})),
        (&s.admin.cookie, "feedback.list", json!({"notificationId": null, "classId": s.class_id})),
        (&s.admin.cookie, "notification.list", json!({"search": null, "cursor": null, "pageSize": null})),
        (&s.admin.cookie, "student.get", json!({"id": pupil})),
        (&s.admin.cookie, "student.timeline", json!({"id": pupil})),
        (&s.admin.cookie, "student.comments", json!({"id": pupil})),
        (&s.admin.cookie, "insights.student", json!({"id": pupil, "from": null, "to": null})),
        (&s.admin.cookie, "school.listStudents", Value::Null),
        (&s.admin.cookie, "admin.listPupils", json!({"search": null, "cursor": null})),
        (&s.admin.cookie, "user.list", Value::Null),
        (&s.admin.cookie, "insights.overview", none.clone()),
        (&s.admin.cookie, "insights.pupils", json!({"filters": none, "last": 3})),
        (&s.tess.cookie, "user.feedbackHubCount", Value::Null),
        (&s.tess.cookie, "dashboard.summary", Value::Null),
        (&s.tess.cookie, "feedback.list", json!({"notificationId": null, "classId": null})),
        (&s.tess.cookie, "notification.list", json!({"search": null, "cursor": null, "pageSize": null})),
        (&s.mat.cookie, "insights.overview", none.clone()),
    ];
    // An assignment's own pages, for the first one Activity lists.
    let listed = query(&app, "notification.list", json!({"search": null, "cursor": null, "pageSize": null}),
                       Some(&s.admin.cookie)).await;
    let id = listed.data()["items"][0]["id"].as_str().expect("a listed notification").to_owned();
    calls.push((&s.admin.cookie, "feedback.list", json!({"notificationId": id, "classId": null})));
    calls.push((&s.admin.cookie, "notification.get", json!({"id": id})));
    calls.push((&s.admin.cookie, "notification.submissions", json!({"id": id})));
    calls.push((&s.admin.cookie, "notification.reach", json!({"id": id, "days": null, "show": null, "page": null})));
    for (cookie, path, input) in &calls {
        let answer = query(&app, path, input.clone(), Some(cookie.as_str())).await;
        assert_eq!(answer.status.as_u16(), 200, "{path} answers: {}", answer.body);
    }
    drop(app);
    end_other_sessions(&mut watch).await;
    let after = scans(&mut watch).await;

    let of = |rows: &[Scans], table: &str| -> (i64, i64) {
        rows.iter().find(|r| r.relname == table).map(|r| (r.seq_scan, r.idx_scan)).unwrap_or((0, 0))
    };
    let scanned: Vec<String> = BIG
        .iter()
        .filter(|t| of(&after, t).0 > of(&before, t).0)
        .map(|t| format!("{t} ({} whole-table scans)", of(&after, t).0 - of(&before, t).0))
        .collect();
    assert!(scanned.is_empty(), "read without an index: {scanned:?}");
    // The counters moved at all: the calls' index reads were counted.
    assert!(of(&after, "submissions").1 > of(&before, "submissions").1, "submissions read by index");
    assert!(of(&after, "notifications").1 > of(&before, "notifications").1, "notifications read by index");
}
