//! `TestApp`: a fresh database of one backend, migrated, with the app's router on top.

use std::path::PathBuf;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::Router;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use http_body_util::BodyExt;
use tower::ServiceExt;
use voicemark::app::router;
use voicemark::config;
use voicemark::db::{Backend, DatabaseUrl, Db};
use voicemark::state::AppState;

/// Declares a test that runs once per backend: `name::sqlite` and `name::postgres`.
/// The body receives a fresh, migrated `TestApp`.
#[macro_export]
macro_rules! dual_test {
    (async fn $name:ident($app:ident: TestApp) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($app: $crate::support::TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                run($crate::support::TestApp::new($crate::support::TestBackend::Sqlite).await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if $crate::support::postgres_admin_url().is_none() {
                    eprintln!("skipped: TEST_DATABASE_URL is not set");
                    return;
                }
                run($crate::support::TestApp::new($crate::support::TestBackend::Postgres).await).await;
            }
        }
    };
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestBackend {
    Sqlite,
    Postgres,
}

/// `TEST_DATABASE_URL`: a PostgreSQL URL whose user may create databases.
pub fn postgres_admin_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// A fresh database and the app serving it. The database is removed when this is dropped.
pub struct TestApp {
    pub db: Db,
    pub url: DatabaseUrl,
    pub router: Router,
    /// The state behind `router` (mailer, auth counters, configuration).
    pub state: AppState,
    /// A folder of this test's own (data dir; holds the SQLite file).
    pub dir: PathBuf,
    _guard: DatabaseGuard,
}

pub enum DatabaseGuard {
    /// Another `TestApp` owns the database ([`TestApp::attach`]).
    Borrowed,
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres {
        admin_url: String,
        name: String,
        _dir: tempfile::TempDir,
    },
}

impl TestApp {
    pub async fn new(backend: TestBackend) -> TestApp {
        let (url, dir, guard) = fresh_database(backend).await;
        let app = TestApp::serve(url, dir, guard).await;
        app.db.migrate().await.expect("migrate the test database");
        app
    }

    /// A second app on this app's database, with a pool of its own (as a second process
    /// would have, but in this one: the process-wide caches are shared). The database stays
    /// this app's: it is removed when this one is dropped.
    pub async fn attach(&self) -> TestApp {
        TestApp::serve(self.url.clone(), self.dir.clone(), DatabaseGuard::Borrowed).await
    }

    async fn serve(url: DatabaseUrl, dir: PathBuf, guard: DatabaseGuard) -> TestApp {
        let db = Db::connect(&url, 4)
            .await
            .expect("connect to the test database");
        let config = config::from_lookup(
            |name| match name {
                "VOICEMARK_DATA_DIR" => Some(dir.to_string_lossy().into_owned()),
                "DATABASE_URL" => Some(url.as_str().to_owned()),
                _ => None,
            },
            None,
        )
        .expect("test configuration");
        let state = AppState::new(db.clone(), config).expect("app state");
        let router = router(state.clone());
        TestApp {
            db,
            url,
            router,
            state,
            dir,
            _guard: guard,
        }
    }

    pub fn backend(&self) -> Backend {
        self.db.backend()
    }

    /// Sends one request through the whole router.
    pub async fn request(&self, request: Request<Body>) -> TestResponse {
        send(self.router.clone(), request).await
    }

    pub async fn get(&self, path: &str) -> TestResponse {
        self.request(Request::get(path).body(Body::empty()).expect("request"))
            .await
    }
}

/// Sends one request through `router`.
pub async fn send(router: Router, request: Request<Body>) -> TestResponse {
    let response = router.oneshot(request).await.expect("the router answers");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("read the body")
        .to_bytes()
        .to_vec();
    TestResponse {
        status,
        headers,
        body,
    }
}

/// A response, read whole.
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl TestResponse {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("expected JSON ({e}), got: {}", self.text()))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The events of a Server-Sent Events body: (name, JSON data); `message` when unnamed.
    pub fn sse_events(&self) -> Vec<(String, serde_json::Value)> {
        self.text()
            .split("\n\n")
            .filter_map(|block| {
                let mut name = "message".to_owned();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                (!data.is_empty()).then(|| (name, serde_json::from_str(&data).expect("event data is JSON")))
            })
            .collect()
    }
}

/// Makes an empty database: a SQLite file in a temporary folder, or a new PostgreSQL
/// database with a random name next to `TEST_DATABASE_URL`'s.
pub async fn fresh_database(backend: TestBackend) -> (DatabaseUrl, PathBuf, DatabaseGuard) {
    let dir = tempfile::Builder::new()
        .prefix("voicemark-test-")
        .tempdir()
        .expect("temp dir");
    let path = dir.path().to_path_buf();
    match backend {
        TestBackend::Sqlite => {
            let url = DatabaseUrl::sqlite_file(&path.join("voicemark.db"));
            (url, path, DatabaseGuard::Sqlite(dir))
        }
        TestBackend::Postgres => {
            let admin_url = postgres_admin_url().expect("TEST_DATABASE_URL");
            let name = format!("vm_test_{}", uuid_simple());
            let mut admin = AsyncPgConnection::establish(&admin_url)
                .await
                .expect("connect to TEST_DATABASE_URL");
            admin
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .await
                .expect("create a test database");
            let mut url = url::Url::parse(&admin_url).expect("TEST_DATABASE_URL is a URL");
            url.set_path(&name);
            let url = DatabaseUrl::parse(url.as_str()).expect("test database URL");
            (
                url,
                path,
                DatabaseGuard::Postgres {
                    admin_url,
                    name,
                    _dir: dir,
                },
            )
        }
    }
}

impl Drop for DatabaseGuard {
    fn drop(&mut self) {
        if let DatabaseGuard::Postgres {
            admin_url, name, ..
        } = self
        {
            let (admin_url, name) = (admin_url.clone(), name.clone());
            // Drop runs outside async code: use a runtime of its own on a plain thread.
            let _ = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?;
                runtime.block_on(async {
                    if let Ok(mut admin) = AsyncPgConnection::establish(&admin_url).await {
                        let _ = admin
                            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                            .await;
                    }
                });
                Ok::<(), std::io::Error>(())
            })
            .join();
        }
    }
}

fn uuid_simple() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// A new school called `name` in the app's database; returns its id.
pub async fn make_school(app: &TestApp, name: &str) -> String {
    use core_wasm::{NotificationFrequency, OrgType};
    use voicemark::models::{now, organisations};
    let at = now();
    let school = organisations::NewSchool {
        id: voicemark::ids::new_id(),
        trust_id: None,
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

/// Makes the school Pro (any product id but Basic's) with `seats` seats (`None`: no limit).
pub async fn make_pro(app: &TestApp, school_id: &str, seats: Option<i32>) {
    use diesel::{ExpressionMethods, QueryDsl};
    use diesel_async::RunQueryDsl;
    use voicemark::db::schema::schools;
    let mut pooled = app.db.conn().await.expect("conn");
    voicemark::with_conn!(pooled.db(), |c| diesel::update(schools::table.find(school_id))
        .set((
            schools::stripe_product_id.eq(Some("prod_pro_test")),
            schools::seats.eq(seats)
        ))
        .execute(c)
        .await)
    .expect("pro");
}

/// Opens a session for `user_id` the way sign-in does; returns the `Cookie` header value.
pub async fn session_cookie(app: &TestApp, user_id: &str) -> String {
    let mut pooled = app.db.conn().await.expect("connection");
    let (token, _) =
        voicemark::auth::session::create_session(&mut pooled.db(), user_id, None, None)
            .await
            .expect("session");
    format!("next-auth.session-token={token}")
}

/// A user of the app's database: activated, no password, e-mail `{id}@school.test`, neither
/// a leader nor disabled; answers their id.
pub async fn make_user(
    app: &TestApp,
    school_id: Option<&str>,
    role: core_wasm::UserRole,
    forename: &str,
    surname: &str,
) -> String {
    let at = voicemark::models::now();
    let id = voicemark::ids::new_id();
    let user = voicemark::models::users::NewUser {
        id: id.clone(),
        created_at: at,
        updated_at: at,
        forename: forename.into(),
        surname: surname.into(),
        title: None,
        email: format!("{id}@school.test"),
        email_verified: Some(at),
        password_updated_at: None,
        password: None,
        activated: true,
        disabled: false,
        leader: false,
        school_id: school_id.map(str::to_owned),
        role,
    };
    let mut pooled = app.db.conn().await.expect("connection");
    voicemark::models::users::insert(&mut pooled.db(), &user).await.expect("user");
    id
}

/// Flags user `id` a leader (and disabled, when `disabled`), as Manage Users does.
pub async fn set_flags(app: &TestApp, id: &str, leader: bool, disabled: bool) {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    if leader {
        voicemark::models::user_directory::set_leader(&mut conn, id, true).await.expect("leader");
    }
    if disabled {
        voicemark::models::user_directory::set_disabled(&mut conn, id, true).await.expect("disabled");
    }
}

/// A signed-in leader "Lee Leader" of `school` with `role`: (id, `Cookie` header value).
pub async fn leader_in(app: &TestApp, school: &str, role: core_wasm::UserRole) -> (String, String) {
    let id = crate::support::make_user(app, Some(school), role, "Lee", "Leader").await;
    crate::support::set_flags(app, &id, true, false).await;
    let cookie = session_cookie(app, &id).await;
    (id, cookie)
}

/// The process's peak resident memory since the last reset (VmHWM), in MB.
pub fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<f64>().ok()))
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

/// Resets VmHWM to the current resident size (`echo 5 > /proc/self/clear_refs`), so each
/// measured step's peak is its own; false where the kernel does not allow it.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// How many times `procedure`'s independent reads went `how` (`at_once` or `in_turn`):
/// `voicemark_reads_total`, read from the metrics the process renders.
pub async fn reads_total(app: &TestApp, procedure: &str, how: &str) -> u64 {
    let handle = voicemark::metrics::install().expect("the recorder installs");
    let text = voicemark::metrics::render(&app.state, &handle).await;
    let line = format!(r#"voicemark_reads_total{{procedure="{procedure}",how="{how}"}} "#);
    text.lines()
        .find_map(|l| l.strip_prefix(line.as_str()))
        .map_or(0, |n| n.trim().parse().expect("a count"))
}

/// Takes every pooled connection but one (at least `least` are taken): a request then
/// holds the one left and finds none free, so its reads go in turn on it.
pub async fn all_connections_but_one(app: &TestApp, least: usize) -> Vec<voicemark::db::PooledConn> {
    let mut held = Vec::new();
    while let Some(conn) = app.db.conn_if_free().await {
        held.push(conn);
    }
    assert!(held.len() > least, "the test pool holds {} connections", held.len());
    held.pop();
    held
}
