//! A deep page of a hot list is one range read of its index (issue 30, docs/scaling.md
//! "Paged lists"), on both databases: the statement the model sends for the page after a
//! cursor is taken from the connection (diesel's instrumentation) and explained by the
//! database that runs it. PostgreSQL bounds the index scan by the cursor (`Index Cond:
//! .. ROW(created_at, id) < ROW(..)`, no Filter, no Sort); SQLite searches the index from the
//! cursor (`SEARCH .. USING INDEX .. ((created_at,id)<(?,?))`, no temporary B-tree for the
//! order). Spelt `a < x OR (a = x AND id < y)`, the cursor was a Filter on PostgreSQL over
//! every index entry from the list's first row, so page N read N pages of the index.
//! Checked for Activity (`notification.list`, a school's and a teacher's own) and Manage
//! Users (`user.list`) and the superadmin's Users (`user.listAll`), 2,000 rows each, a page
//! 1,000 rows deep.

use std::sync::{Arc, Mutex};

use chrono::{Duration, NaiveDateTime};
use core_wasm::{NotificationType, UserRole};
use diesel::connection::InstrumentationEvent;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use voicemark::db::schema::{notifications, users};
use voicemark::db::{Backend, DbConn};
use voicemark::ids::new_id;
use voicemark::models::notifications::{list_page, NewNotification, NotificationScope};
use voicemark::models::user_directory::{search_all, DirectoryFilter};
use voicemark::models::users::NewUser;
use voicemark::models::{now, NameKey};
use voicemark::{batch_insert, with_conn};

use crate::dual_test;
use crate::support::{make_school, make_user, TestApp};

/// Rows in each list, and how deep the page explained starts.
const ROWS: usize = 2_000;
const DEEP: usize = 1_000;
/// How deep the page of a teacher's own Activity starts (one message in ten is theirs).
const OWN_DEEP: usize = 100;

/// The statements sent on `conn` from now on, collected into the answer (SQL and binds, as
/// diesel prints them: `SELECT .. -- binds: [..]`).
fn capture(conn: &mut DbConn<'_>) -> Arc<Mutex<Vec<String>>> {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let into = sent.clone();
    let record = move |event: InstrumentationEvent<'_>| {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            into.lock().expect("lock").push(query.to_string());
        }
    };
    match conn {
        DbConn::Postgres(pg) => pg.set_instrumentation(record),
        DbConn::Sqlite(sq) => sq.set_instrumentation(record),
    }
    sent
}

/// Stops [`capture`].
fn stop_capture(conn: &mut DbConn<'_>) {
    match conn {
        DbConn::Postgres(pg) => pg.set_instrumentation(|_: InstrumentationEvent<'_>| {}),
        DbConn::Sqlite(sq) => sq.set_instrumentation(|_: InstrumentationEvent<'_>| {}),
    }
}

/// The one page statement (the one with an ORDER BY; the other counts) among `sent`.
fn page_statement(sent: &Arc<Mutex<Vec<String>>>) -> String {
    let sent = sent.lock().expect("lock");
    let pages: Vec<&String> = sent.iter().filter(|s| s.contains("ORDER BY")).collect();
    assert_eq!(pages.len(), 1, "one page statement: {sent:?}");
    pages[0].clone()
}

/// `statement` (`SQL -- binds: [..]`) with each PostgreSQL placeholder `$n` replaced by its
/// value as a literal: the plan PostgreSQL makes knowing the values, as for the app's
/// prepared statement. The values here are ids, times and numbers, none with a quote or a
/// comma.
fn with_literals(statement: &str) -> String {
    let (sql, binds) = statement.split_once(" -- binds: ").expect("binds");
    let binds = binds.trim().trim_start_matches('[').trim_end_matches(']');
    let values: Vec<String> = if binds.is_empty() {
        Vec::new()
    } else {
        binds
            .split(", ")
            .map(|value| {
                assert!(!value.contains('\'') && !value.contains('\\'), "{value}");
                if let Some(text) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
                    format!("'{text}'")
                } else if NaiveDateTime::parse_from_str(value, "%Y-%m-%dT%H:%M:%S%.f").is_ok() {
                    format!("'{}'::timestamp", value.replace('T', " "))
                } else {
                    assert!(value.parse::<i64>().is_ok(), "a bind of an unexpected kind: {value}");
                    value.to_owned()
                }
            })
            .collect()
    };
    let mut sql = sql.to_owned();
    for (n, value) in values.iter().enumerate().rev() {
        sql = sql.replace(&format!("${}", n + 1), value);
    }
    assert!(!sql.contains('$'), "a placeholder left: {sql}");
    sql
}

#[derive(QueryableByName)]
struct PgPlanLine {
    #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
    line: String,
}

#[derive(QueryableByName)]
struct SqlitePlanLine {
    #[diesel(sql_type = diesel::sql_types::Text)]
    detail: String,
}

/// The plan of `statement` as its database will run it: `EXPLAIN (COSTS OFF)` on
/// PostgreSQL (with the values), `EXPLAIN QUERY PLAN` on SQLite (whose plan does not
/// depend on them).
async fn plan(conn: &mut DbConn<'_>, statement: &str) -> Vec<String> {
    match conn {
        DbConn::Postgres(pg) => {
            let sql = format!("EXPLAIN (COSTS OFF) {}", with_literals(statement));
            let lines: Vec<PgPlanLine> = diesel::sql_query(sql).load(&mut **pg).await.expect("explain");
            lines.into_iter().map(|l| l.line.trim().to_owned()).collect()
        }
        DbConn::Sqlite(sq) => {
            let (sql, _) = statement.split_once(" -- binds: ").expect("binds");
            let sql = format!("EXPLAIN QUERY PLAN {sql}");
            let lines: Vec<SqlitePlanLine> = diesel::sql_query(sql).load(&mut **sq).await.expect("explain");
            lines.into_iter().map(|l| l.detail).collect()
        }
    }
}

/// Asserts that `plan` reads index `index` from the cursor on: on PostgreSQL the row
/// comparison `row` (as PostgreSQL prints it, `ROW(created_at, id) <`) is the scan's Index
/// Cond, the scan filters nothing and nothing is sorted; on SQLite the index is searched by
/// `range` (`(created_at,id)<(?,?)`) and nothing is sorted.
fn assert_reads_a_range(backend: Backend, plan: &[String], index: &str, row: &str, range: &str) {
    let shown = plan.join("\n");
    if backend == Backend::Postgres {
        let scan = plan
            .iter()
            .position(|l| l.contains(&format!(" using {index} on ")))
            .unwrap_or_else(|| panic!("{index} not read:\n{shown}"));
        // The scan's own lines: up to the next node.
        let own: Vec<&String> = plan[scan + 1..].iter().take_while(|l| !l.starts_with("->")).collect();
        assert!(
            own.iter().any(|l| l.starts_with("Index Cond:") && l.contains(row)),
            "the cursor does not bound the scan:\n{shown}"
        );
        assert!(!own.iter().any(|l| l.starts_with("Filter:")), "the scan filters:\n{shown}");
        assert!(!plan.iter().any(|l| l.contains("Sort")), "the page is sorted:\n{shown}");
    } else {
        assert!(
            plan.iter().any(|l| l.contains(&format!("USING INDEX {index} (")) && l.contains(range)),
            "{index} not searched from the cursor:\n{shown}"
        );
        assert!(!plan.iter().any(|l| l.contains("TEMP B-TREE")), "the page is sorted:\n{shown}");
    }
}

/// Teachers of `school` numbered `numbers`, forename `forename`, surnames `SurNNNN` shared by
/// `per_name` of them in a row (so the id decides within a name).
fn staff(school: &str, numbers: std::ops::Range<usize>, forename: &str, per_name: usize, at: NaiveDateTime) -> Vec<NewUser> {
    numbers
        .map(|n| {
            let id = new_id();
            NewUser {
                email: format!("{id}@school.test"),
                id,
                created_at: at,
                updated_at: at,
                forename: forename.into(),
                surname: format!("Sur{:04}", n / per_name),
                title: None,
                email_verified: None,
                password_updated_at: None,
                password: None,
                activated: true,
                disabled: false,
                leader: false,
                school_id: Some(school.to_owned()),
                role: UserRole::Teacher,
            }
        })
        .collect()
}

/// `search_all`'s page 1,000 rows down the users of `school` (every school's with `None`):
/// it starts right after the cursor and reads `index` from the cursor on.
async fn users_page_reads_one_range(app: &TestApp, conn: &mut DbConn<'_>, school: Option<&str>, index: &str) {
    let order: Vec<(String, String, String)> = with_conn!(conn, |c| {
        let mut query = users::table.into_boxed();
        if let Some(school) = school {
            query = query.filter(users::school_id.eq(school));
        }
        query
            .order((users::surname.asc(), users::forename.asc(), users::id.asc()))
            .select((users::surname, users::forename, users::id))
            .load(c)
            .await
    })
    .expect("the order");
    let (surname, forename, id) = order[DEEP - 1].clone();
    let key = NameKey { surname, forename, id };
    let filter = DirectoryFilter { search: None, school_id: school.map(str::to_owned), role: None };
    let sent = capture(conn);
    let (page, total) = search_all(conn, &filter, Some(&key), 101).await.expect("a page");
    stop_capture(conn);
    assert_eq!(total, order.len() as i64);
    let ids: Vec<&str> = page.iter().map(|row| row.id.as_str()).collect();
    let expected: Vec<&str> = order[DEEP..DEEP + 101].iter().map(|(_, _, id)| id.as_str()).collect();
    assert_eq!(ids, expected);
    let explained = plan(conn, &page_statement(&sent)).await;
    assert_reads_a_range(app.backend(), &explained, index, "ROW(surname, forename, id) > ROW(", "(surname,forename,id)>(?,?,?)");
}

dual_test!(
    async fn a_deep_page_of_activity_and_manage_users_reads_one_index_range(app: TestApp) {
        let school = make_school(&app, "Deep").await;
        let admin = make_user(&app, Some(&school), UserRole::Admin, "Ada", "Admin").await;
        let colleague = make_user(&app, Some(&school), UserRole::Teacher, "Cole", "Colleague").await;
        let start = now() - Duration::days(30);
        // 2,000 notifications made in pairs (the id decides within a pair) and 2,000 users
        // named in threes (likewise), in one statement each where the backend has them.
        let notes: Vec<NewNotification> = (0..ROWS)
            .map(|n| NewNotification {
                id: new_id(),
                created_at: start + Duration::seconds((n / 2) as i64),
                updated_at: start,
                kind: NotificationType::General,
                title: format!("Note {n}"),
                custom_title: None,
                body: String::new(),
                send_date: None,
                submission_due_date: None,
                send_to_parent: false,
                send_to_pupil: false,
                filters: "{}".into(),
                // One in ten is the admin's, the rest a colleague's: a teacher's own Activity
                // is a small share of the school's.
                sender_id: if n % 10 == 0 { admin.clone() } else { colleague.clone() },
                school_id: school.clone(),
            })
            .collect();
        let people = staff(&school, 1..ROWS, "Fore", 3, start);
        // Another school's 4,000 staff, named like ours: the school is a third of the users,
        // as one school is a small share of a real deployment's.
        let other = make_school(&app, "Other").await;
        let others = staff(&other, 0..2 * ROWS, "Other", 6, start);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        batch_insert!(&mut conn, notifications::table, notes, columns = 14).expect("notifications");
        batch_insert!(&mut conn, users::table, people, columns = 15).expect("users");
        batch_insert!(&mut conn, users::table, others, columns = 15).expect("other users");
        with_conn!(&mut conn, |c| diesel::sql_query("ANALYZE").execute(c).await).expect("analyze");

        // Activity, the page 1,000 rows down: it starts right after the cursor.
        let order: Vec<(NaiveDateTime, String)> = with_conn!(&mut conn, |c| notifications::table
            .filter(notifications::school_id.eq(&school))
            .order((notifications::created_at.desc(), notifications::id.desc()))
            .select((notifications::created_at, notifications::id))
            .load(c)
            .await)
        .expect("the order");
        let key = order[DEEP - 1].clone();
        let scope = NotificationScope { school_id: school.clone(), sender_id: None };
        let sent = capture(&mut conn);
        let (page, total) = list_page(&mut conn, &scope, None, Some(&key), 21).await.expect("a page");
        stop_capture(&mut conn);
        assert_eq!(total, ROWS as i64);
        let ids: Vec<&str> = page.iter().map(|(row, _)| row.id.as_str()).collect();
        let expected: Vec<&str> = order[DEEP..DEEP + 21].iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(ids, expected);
        let explained = plan(&mut conn, &page_statement(&sent)).await;
        assert_reads_a_range(app.backend(), &explained, "idx_notifications_school_id_created_at", "ROW(created_at, id) < ROW(", "(created_at,id)<(?,?)");

        // A teacher's own Activity (the admin's 200 messages only), the page 100 rows down.
        let own: Vec<(NaiveDateTime, String)> = with_conn!(&mut conn, |c| notifications::table
            .filter(notifications::school_id.eq(&school))
            .filter(notifications::sender_id.eq(&admin))
            .order((notifications::created_at.desc(), notifications::id.desc()))
            .select((notifications::created_at, notifications::id))
            .load(c)
            .await)
        .expect("the order");
        let key = own[OWN_DEEP - 1].clone();
        let scope = NotificationScope { school_id: school.clone(), sender_id: Some(admin.clone()) };
        let sent = capture(&mut conn);
        let (page, total) = list_page(&mut conn, &scope, None, Some(&key), 21).await.expect("a page");
        stop_capture(&mut conn);
        assert_eq!(total, own.len() as i64);
        let ids: Vec<&str> = page.iter().map(|(row, _)| row.id.as_str()).collect();
        let expected: Vec<&str> = own[OWN_DEEP..OWN_DEEP + 21].iter().map(|(_, id)| id.as_str()).collect();
        assert_eq!(ids, expected);
        let explained = plan(&mut conn, &page_statement(&sent)).await;
        assert_reads_a_range(app.backend(), &explained, "idx_notifications_school_sender_created_at", "ROW(created_at, id) < ROW(", "(created_at,id)<(?,?)");

        // Manage Users, likewise by name; then the superadmin's Users, every school's.
        users_page_reads_one_range(&app, &mut conn, Some(&school), "idx_users_school_id_surname").await;
        users_page_reads_one_range(&app, &mut conn, None, "idx_users_surname_forename_id").await;
    }
);
