//! Faults of the database and the disk are answered as what they are: 503 with a plain
//! reason (the cause logged), never a 500, and never a 400 that blames the client; the
//! pool drops a killed connection so the next request works; health reports a database
//! or file folder that cannot be written.
//!
//! How each fault is made, as root (chmod does not stop root):
//! - a killed connection: `pg_terminate_backend` from a second connection;
//! - a lock wait: a second connection holds `LOCK TABLE .. ACCESS EXCLUSIVE` (PostgreSQL)
//!   or a `BEGIN IMMEDIATE` write lock (SQLite, which then gives up after busy_timeout);
//! - a read-only database: PostgreSQL's `default_transaction_read_only` for the database,
//!   SQLite's `PRAGMA query_only` on the pool's one connection; both refuse writes with
//!   the same error a read-only file or server does (SQLITE_READONLY, SQLSTATE 25006);
//! - a file folder that cannot be written: `{data_dir}/files` replaced by a plain file, so
//!   every write under it fails with ENOTDIR, as a folder on a read-only or foreign mount
//!   fails with EROFS/EACCES (all mapped alike by `Fault::of_io`).

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use core_wasm::UserRole;
use diesel::sql_types::Text;
use diesel::{Connection, QueryableByName};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use serde_json::{json, Value};
use voicemark::app::router;
use voicemark::db::fault::{DISK_FULL, NOT_WRITABLE, READ_ONLY, UNAVAILABLE};
use voicemark::db::{DatabaseUrl, Db};
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::admin::signed_in;
use crate::dual_test;
use crate::support::{make_school, send, TestApp, TestBackend};

#[derive(QueryableByName)]
struct Pid {
    #[diesel(sql_type = Text)]
    pid: String,
}

/// The app's router over another pool (same data folder and configuration).
fn router_on(app: &TestApp, db: Db) -> Router {
    router(AppState::new(db, (*app.state.config).clone()).expect("app state"))
}

/// A `saveClass` call as the browser sends it, through `router`.
async fn save_class(router: Router, cookie: String, name: &str) -> (StatusCode, Value) {
    let request = Request::post("/api/trpc/admin.saveClass?batch=1")
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(Body::from(
            json!({"0": {"json": {"id": null, "name": name}}}).to_string(),
        ))
        .expect("request");
    let response = send(router, request).await;
    (response.status, response.json()[0].clone())
}

fn error_of(element: &Value) -> (&str, &str) {
    let e = &element["error"]["json"];
    (
        e["data"]["code"].as_str().unwrap_or_default(),
        e["message"].as_str().unwrap_or_default(),
    )
}

/// The backends (other than `locker`'s own) of the database that wait for a lock.
async fn lock_waiters(locker: &mut AsyncPgConnection) -> Vec<String> {
    let rows: Vec<Pid> = diesel::sql_query(
        "SELECT pid::text AS pid FROM pg_stat_activity WHERE datname = current_database() \
         AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
    )
    .load(locker)
    .await
    .expect("pg_stat_activity");
    rows.into_iter().map(|r| r.pid).collect()
}

/// Polls until some backend waits for a lock; panics after a generous while.
async fn wait_for_a_lock_waiter(locker: &mut AsyncPgConnection) -> Vec<String> {
    for _ in 0..500 {
        let waiting = lock_waiters(locker).await;
        if !waiting.is_empty() {
            return waiting;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no request ever waited for the lock");
}

fn postgres_only() -> bool {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return false;
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_connection_answers_503_and_the_next_request_works() {
    if !postgres_only() {
        return;
    }
    let app = TestApp::new(TestBackend::Postgres).await;
    let school = make_school(&app, "Northbridge").await;
    let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
    let mut locker = AsyncPgConnection::establish(app.url.as_str())
        .await
        .expect("a second connection");
    locker
        .batch_execute("BEGIN; LOCK TABLE classes IN ACCESS EXCLUSIVE MODE;")
        .await
        .expect("hold the lock");
    let started = Instant::now();
    let call = tokio::spawn(save_class(app.router.clone(), admin.clone(), "7 English"));
    wait_for_a_lock_waiter(&mut locker).await;
    eprintln!("a request waits for the lock after {:?}", started.elapsed());
    // Kill every connection of the pool: the one waiting and the idle ones.
    let pool: Vec<Pid> = diesel::sql_query(
        "SELECT pid::text AS pid FROM pg_stat_activity WHERE datname = current_database() \
         AND pid <> pg_backend_pid()",
    )
    .load(&mut locker)
    .await
    .expect("the pool's backends");
    for backend in &pool {
        locker
            .batch_execute(&format!("SELECT pg_terminate_backend({})", backend.pid))
            .await
            .expect("terminate");
    }
    eprintln!("terminated {} backends of the pool", pool.len());
    let (status, element) = call.await.expect("the call finished");
    eprintln!(
        "postgres: the killed request answered {status} after {:?}",
        started.elapsed()
    );
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{element}");
    assert_eq!(error_of(&element), ("SERVICE_UNAVAILABLE", UNAVAILABLE));
    locker.batch_execute("ROLLBACK").await.expect("release");

    // pg_terminate_backend only signals: wait until the killed backends have exited.
    for _ in 0..500 {
        let alive: Vec<Pid> = diesel::sql_query(
            "SELECT pid::text AS pid FROM pg_stat_activity WHERE datname = current_database() \
             AND pid <> pg_backend_pid()",
        )
        .load(&mut locker)
        .await
        .expect("the pool's backends");
        if alive.iter().all(|a| pool.iter().all(|k| k.pid != a.pid)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // The pool drops the dead connections (closed, or left in a broken transaction) when
    // they are checked out: the same request now works.
    let next = Instant::now();
    let (status, element) = save_class(app.router.clone(), admin.clone(), "7 English").await;
    eprintln!(
        "postgres: the next request answered {status} after {:?}",
        next.elapsed()
    );
    assert_eq!(status, StatusCode::OK, "{element}");
    assert_eq!(element["result"]["data"]["json"]["name"], "7 English");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_blocked_by_a_held_lock_gives_up_with_503_postgres() {
    if !postgres_only() {
        return;
    }
    let app = TestApp::new(TestBackend::Postgres).await;
    let school = make_school(&app, "Northbridge").await;
    let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
    // A pool whose sessions wait at most 300 ms for a lock, given in the URL's options
    // (the server's own 5 s default steps aside for it).
    // Percent-encoded by hand: tokio-postgres reads `%20`, not the `+` of form encoding.
    let url = DatabaseUrl::parse(&format!(
        "{}?options=-c%20lock_timeout%3D300",
        app.url.as_str()
    ))
    .expect("database url");
    let db = Db::connect(&url, 2).await.expect("connect");
    let mut pooled = db.conn().await.expect("connection");
    #[derive(QueryableByName)]
    struct Setting {
        #[diesel(sql_type = Text)]
        lock_timeout: String,
    }
    let settings: Vec<Setting> = with_conn!(pooled.db(), |c| diesel::sql_query(
        "SELECT current_setting('lock_timeout') AS lock_timeout"
    )
    .load(c)
    .await)
    .expect("setting");
    assert_eq!(settings[0].lock_timeout, "300ms");
    drop(pooled);
    let router = router_on(&app, db);

    let mut locker = AsyncPgConnection::establish(app.url.as_str())
        .await
        .expect("a second connection");
    locker
        .batch_execute("BEGIN; LOCK TABLE classes IN ACCESS EXCLUSIVE MODE;")
        .await
        .expect("hold the lock");
    let started = Instant::now();
    let (status, element) = save_class(router.clone(), admin.clone(), "7 English").await;
    eprintln!(
        "postgres: a request blocked by a held lock answered {status} after {:?} (lock_timeout 300 ms)",
        started.elapsed()
    );
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{element}");
    assert_eq!(error_of(&element), ("SERVICE_UNAVAILABLE", UNAVAILABLE));
    locker.batch_execute("ROLLBACK").await.expect("release");
    let (status, _) = save_class(router, admin.clone(), "7 English").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_postgres_session_gets_the_default_timeouts() {
    if !postgres_only() {
        return;
    }
    let app = TestApp::new(TestBackend::Postgres).await;
    #[derive(QueryableByName)]
    struct Settings {
        #[diesel(sql_type = Text)]
        statement_timeout: String,
        #[diesel(sql_type = Text)]
        lock_timeout: String,
    }
    let mut pooled = app.db.conn().await.expect("connection");
    let settings: Vec<Settings> = with_conn!(pooled.db(), |c| diesel::sql_query(
        "SELECT current_setting('statement_timeout') AS statement_timeout, \
         current_setting('lock_timeout') AS lock_timeout"
    )
    .load(c)
    .await)
    .expect("settings");
    assert_eq!(
        (
            settings[0].statement_timeout.as_str(),
            settings[0].lock_timeout.as_str()
        ),
        ("30s", "5s")
    );
}

/// `SHOW max_parallel_workers_per_gather` on a connection of `db`'s pool.
async fn parallel_workers(db: &Db) -> String {
    #[derive(QueryableByName)]
    struct Setting {
        #[diesel(sql_type = Text)]
        max_parallel_workers_per_gather: String,
    }
    let mut pooled = db.conn().await.expect("connection");
    let shown: Setting = with_conn!(pooled.db(), |c| diesel::sql_query("SHOW max_parallel_workers_per_gather")
        .get_result(c)
        .await)
    .expect("setting");
    shown.max_parallel_workers_per_gather
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pooled_postgres_sessions_plan_without_parallel_workers_unless_the_url_says() {
    if !postgres_only() {
        return;
    }
    let app = TestApp::new(TestBackend::Postgres).await;
    assert_eq!(parallel_workers(&app.db).await, "0", "parallel query is off on the app's connections");
    // The operator's choice in the URL's options wins.
    // Written with %20, as the docs say: the PostgreSQL client does not read `+` as a space.
    assert!(!app.url.as_str().contains('?'));
    let url = DatabaseUrl::parse(&format!(
        "{}?options=-c%20max_parallel_workers_per_gather%3D2",
        app.url.as_str()
    ))
    .expect("url");
    let db = Db::connect(&url, 1).await.expect("connect");
    assert_eq!(parallel_workers(&db).await, "2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_blocked_by_a_held_lock_gives_up_with_503_sqlite() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let school = make_school(&app, "Northbridge").await;
    let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
    let path = app.url.sqlite_target().to_owned();
    let mut locker = diesel::SqliteConnection::establish(&path).expect("a second connection");
    diesel::connection::SimpleConnection::batch_execute(&mut locker, "BEGIN IMMEDIATE;")
        .expect("hold the write lock");
    let started = Instant::now();
    let (status, element) = save_class(app.router.clone(), admin.clone(), "7 English").await;
    eprintln!(
        "sqlite: a write blocked by a held lock answered {status} after {:?} (busy_timeout 5000 ms)",
        started.elapsed()
    );
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{element}");
    assert_eq!(error_of(&element), ("SERVICE_UNAVAILABLE", UNAVAILABLE));
    drop(locker);
    let (status, _) = save_class(app.router.clone(), admin.clone(), "7 English").await;
    assert_eq!(status, StatusCode::OK);
}

/// A pool over the app's database that refuses every write.
async fn read_only_pool(app: &TestApp) -> Db {
    match app.backend() {
        voicemark::db::Backend::Postgres => {
            let name = url::Url::parse(app.url.as_str())
                .expect("url")
                .path()
                .trim_start_matches('/')
                .to_owned();
            let mut pooled = app.db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| c
                .batch_execute(&format!(
                    "ALTER DATABASE {name} SET default_transaction_read_only = on"
                ))
                .await)
            .expect("make the database read-only for new sessions");
            Db::connect(&app.url, 2).await.expect("connect")
        }
        voicemark::db::Backend::Sqlite => {
            // One connection, so the pragma holds for every request.
            let db = Db::connect(&app.url, 1).await.expect("connect");
            let mut pooled = db.conn().await.expect("connection");
            with_conn!(pooled.db(), |c| c
                .batch_execute("PRAGMA query_only = ON;")
                .await)
            .expect("query_only");
            drop(pooled);
            db
        }
    }
}

dual_test!(
    async fn a_read_only_database_is_reported_by_health_and_writes_answer_503(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let (_, admin) = signed_in(&app, &school, UserRole::Admin).await;
        let router = router_on(&app, read_only_pool(&app).await);

        let health = send(
            router.clone(),
            Request::get("/api/health")
                .body(Body::empty())
                .expect("request"),
        )
        .await;
        assert_eq!(
            health.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{}",
            health.text()
        );
        let body = health.json();
        assert_eq!(body["status"], "unavailable");
        assert_eq!(body["database"], "read-only");
        assert_eq!(body["storage"], "ok");
        assert_eq!(body["reason"], "The database is read-only.");

        let (status, element) = save_class(router, admin.clone(), "7 English").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{element}");
        assert_eq!(error_of(&element), ("SERVICE_UNAVAILABLE", READ_ONLY));
    }
);

dual_test!(
    async fn a_file_folder_that_cannot_be_written_answers_503_not_400(app: TestApp) {
        let w = crate::submissions::world(&app).await;
        let ticket = crate::submissions::mutate(
            &app,
            "leader.uploadVoiceNote",
            json!({"filename": "a.webm", "contentType": "audio/webm;codecs=opus", "size": 11}),
            Some(&w.teacher.cookie),
        )
        .await
        .data()
        .clone();
        // The file folder becomes a plain file: nothing can be written under it.
        let files = app.dir.join("files");
        let _ = std::fs::remove_dir_all(&files);
        std::fs::write(&files, b"not a folder").expect("a plain file");

        let mut request = Request::put(ticket["url"].as_str().expect("url"));
        for (name, value) in ticket["headers"].as_object().expect("headers") {
            request = request.header(name.as_str(), value.as_str().expect("header"));
        }
        let response = app
            .request(request.body(Body::from("hello world")).expect("request"))
            .await;
        assert_eq!(
            response.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{}",
            response.text()
        );
        assert_eq!(response.json(), json!({ "error": NOT_WRITABLE }));

        let health = app.get("/api/health").await;
        assert_eq!(health.status, StatusCode::SERVICE_UNAVAILABLE);
        let body = health.json();
        assert_eq!(body["database"], "ok");
        assert_eq!(body["storage"], "cannot write");
        assert_eq!(body["reason"], "The file folder cannot be written.");

        // Put back, the same upload goes through.
        std::fs::remove_file(&files).expect("remove the plain file");
        let health = app.get("/api/health").await;
        assert_eq!(health.status, StatusCode::OK, "{}", health.text());
    }
);

/// Makes every new user row fail as a full disk does: the error each database sends when it
/// cannot grow a file (PostgreSQL's SQLSTATE 53100 "could not extend file ...: No space left
/// on device"; SQLite's SQLITE_FULL text), raised by a trigger, because no test can fill the
/// disk under a shared PostgreSQL or know which insert will need SQLite's next page.
async fn users_hit_a_full_disk(app: &TestApp) {
    let sql = match app.backend() {
        voicemark::db::Backend::Postgres => {
            "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
             RAISE EXCEPTION USING ERRCODE = '53100', \
             MESSAGE = 'could not extend file \"base/16384/16385\": No space left on device'; \
             END $$; \
             CREATE TRIGGER disk_full BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION disk_full();"
        }
        voicemark::db::Backend::Sqlite => {
            "CREATE TRIGGER disk_full BEFORE INSERT ON users \
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;"
        }
    };
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| c.batch_execute(sql).await).expect("the full-disk trigger");
}

dual_test!(
    async fn registering_on_a_full_disk_answers_503_like_every_mutation(app: TestApp) {
        users_hit_a_full_disk(&app).await;
        let request = Request::post("/api/trpc/account.register?batch=1")
            .header("content-type", "application/json")
            .body(Body::from(
                json!({"0": {"json": {
                    "forename": "Rita", "surname": "R", "email": "rita@school.test",
                    "password": "Goodpass12", "organisationName": "Test School",
                    "postcode": "AB1 2CD", "orgType": "SCHOOL"
                }}})
                .to_string(),
            ))
            .expect("request");
        let response = send(app.router.clone(), request).await;
        let element = response.json()[0].clone();
        assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE, "{element}");
        assert_eq!(error_of(&element), ("SERVICE_UNAVAILABLE", DISK_FULL));
    }
);
