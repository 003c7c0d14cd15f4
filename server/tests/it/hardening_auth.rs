//! Issue 10's findings on passwords, mail and sessions, each reproduced against the fixed
//! server: floods of resets and sign-ups keep memory bounded (the real binary, measured from
//! `/proc`), a silent mail server holds no request, no worker and no shutdown, parallel
//! wrong passwords stop exactly at the limit, a password change ends the other sessions and
//! limits guesses, and under https only the `__Secure-` cookie counts.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use voicemark::auth::rate_limit::{ACCOUNT_LIMIT, ADDRESS_LIMIT, RESET_LIMIT};
use voicemark::config::{Config, SmtpTimeouts};
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{self, Registry, WorkerSettings, Workers};
use voicemark::state::AppState;

use crate::auth::{add_user, session_count, PASSWORD};
use crate::dual_test;
use crate::support::{fresh_database, send, session_cookie, TestApp, TestBackend, TestResponse};

const INVALID_LINK: &str = "This link is invalid or has expired.";
const TOO_MANY: &str = "Too many attempts. Please wait a few minutes and try again.";

/// The app's state with `change` applied to a copy of its configuration.
fn state_with(app: &TestApp, change: impl FnOnce(&mut Config)) -> AppState {
    let mut config = (*app.state.config).clone();
    change(&mut config);
    AppState::new(app.db.clone(), config).expect("state")
}

/// `POST /api/trpc/{path}?batch=1` with one input, from `address`, with `cookie`.
fn rpc(path: &str, input: Value, cookie: Option<&str>, address: Option<&str>) -> Request<Body> {
    let mut builder = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(cookie) = cookie {
        builder = builder.header(header::COOKIE, cookie);
    }
    let mut request = builder
        .body(Body::from(json!({ "0": { "json": input } }).to_string()))
        .expect("request");
    if let Some(address) = address {
        let ip = address.parse().expect("ip");
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(ip, 40000)));
    }
    request
}

/// The tRPC error message of a one-call batch answer.
fn rpc_message(response: &TestResponse) -> String {
    response.json()[0]["error"]["json"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A CSRF token and the cookie that vouches for it.
async fn csrf(router: &Router) -> (String, String) {
    let response = send(
        router.clone(),
        Request::get("/api/auth/csrf")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    let token = response.json()["csrfToken"]
        .as_str()
        .expect("token")
        .to_owned();
    let cookie = response
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .expect("cookie")
        .to_owned();
    (token, cookie)
}

/// `POST` an Auth.js form from `address` with the CSRF pair; the `{url}` answer.
async fn post_form(
    router: Router,
    path: &str,
    fields: &[(&str, &str)],
    (token, cookie): &(String, String),
    address: &str,
) -> String {
    let body = {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in fields {
            body.append_pair(name, value);
        }
        body.append_pair("csrfToken", token)
            .append_pair("json", "true")
            .finish()
    };
    let mut request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, cookie.as_str())
        .body(Body::from(body))
        .expect("request");
    request.extensions_mut().insert(ConnectInfo(SocketAddr::new(
        address.parse().expect("ip"),
        40000,
    )));
    send(router, request).await.json()["url"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

dual_test!(
    async fn parallel_wrong_passwords_stop_exactly_at_the_account_limit(app: TestApp) {
        add_user(&app, "ada@school.test", true, false).await;
        let pair = Arc::new(csrf(&app.router).await);
        // 40 guesses at once, each from its own address: only the account limit applies.
        let guesses: Vec<_> = (0..40)
            .map(|n| {
                let (router, pair) = (app.router.clone(), pair.clone());
                tokio::spawn(async move {
                    post_form(
                        router,
                        "/api/auth/callback/credentials",
                        &[("email", "ada@school.test"), ("password", "Wrong1pass")],
                        &pair,
                        &format!("198.51.100.{n}"),
                    )
                    .await
                })
            })
            .collect();
        let (mut checked, mut limited) = (0, 0);
        for guess in guesses {
            let url = guess.await.expect("join");
            if url.ends_with("error=CredentialsSignin") {
                checked += 1;
            } else if url.ends_with("error=TooManyAttempts") {
                limited += 1;
            } else {
                panic!("unexpected answer {url}");
            }
        }
        eprintln!("40 parallel wrong passwords: {checked} checked, {limited} refused");
        assert_eq!(checked, ACCOUNT_LIMIT, "password checks");
        assert_eq!(limited, 40 - ACCOUNT_LIMIT);
        // The right password is refused too until the window passes.
        let right = post_form(
            app.router.clone(),
            "/api/auth/callback/credentials",
            &[("email", "ada@school.test"), ("password", PASSWORD)],
            &pair,
            "198.51.100.200",
        )
        .await;
        assert!(right.ends_with("error=TooManyAttempts"), "{right}");
    }
);

dual_test!(
    async fn changing_the_password_ends_other_sessions_and_limits_guesses(app: TestApp) {
        let id = add_user(&app, "ada@school.test", true, false).await;
        let mine = session_cookie(&app, &id).await;
        let other = session_cookie(&app, &id).await;
        let session_of = |cookie: String| {
            let router = app.router.clone();
            async move {
                send(
                    router,
                    Request::get("/api/auth/session")
                        .header(header::COOKIE, cookie)
                        .body(Body::empty())
                        .expect("request"),
                )
                .await
                .json()
            }
        };
        let change = |current: &str, new: &str| {
            rpc(
                "user.changePassword",
                json!({ "currentPassword": current, "newPassword": new }),
                Some(&mine),
                None,
            )
        };
        let changed = app.request(change(PASSWORD, "Another2pass")).await;
        assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
        assert_eq!(session_count(&app, &id).await, 1, "only the caller's stays");
        assert_eq!(session_of(mine.clone()).await["user"]["id"], id.as_str());
        assert_eq!(session_of(other.clone()).await, json!({}));

        for n in 1..=5 {
            let wrong = app.request(change("Wrong1pass", "Third3pass")).await;
            assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "guess {n}");
        }
        let sixth = app.request(change("Wrong1pass", "Third3pass")).await;
        assert_eq!(sixth.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(rpc_message(&sixth), TOO_MANY);
        // The right one is refused as well until the window passes: no oracle.
        let right = app.request(change("Another2pass", "Third3pass")).await;
        assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
    }
);

dual_test!(
    async fn under_https_only_the_secure_session_cookie_counts(app: TestApp) {
        let state = state_with(&app, |c| c.public_url = "https://voicemark.test".into());
        let router = voicemark::app::router(state);
        let ada = add_user(&app, "ada@school.test", true, false).await;
        let grace = add_user(&app, "grace@school.test", true, false).await;
        let token = |cookie: String| {
            cookie
                .strip_prefix("next-auth.session-token=")
                .expect("token")
                .to_owned()
        };
        let ada_token = token(session_cookie(&app, &ada).await);
        let grace_token = token(session_cookie(&app, &grace).await);
        let session = |cookie: String| {
            let router = router.clone();
            async move {
                send(
                    router,
                    Request::get("/api/auth/session")
                        .header(header::COOKIE, cookie)
                        .body(Body::empty())
                        .expect("request"),
                )
                .await
                .json()
            }
        };
        assert_eq!(
            session(format!("next-auth.session-token={ada_token}")).await,
            json!({}),
            "a plain cookie is not a session under https"
        );
        let both = format!(
            "next-auth.session-token={grace_token}; __Secure-next-auth.session-token={ada_token}"
        );
        assert_eq!(session(both.clone()).await["user"]["id"], ada.as_str());
        // RPC reads the same cookie.
        let plain_rpc = send(
            router.clone(),
            rpc(
                "user.changePassword",
                json!({ "currentPassword": PASSWORD, "newPassword": "Another2pass" }),
                Some(&format!("next-auth.session-token={ada_token}")),
                None,
            ),
        )
        .await;
        assert_eq!(plain_rpc.status, StatusCode::UNAUTHORIZED);
    }
);

dual_test!(
    async fn account_flows_are_limited_per_client_and_per_email(app: TestApp) {
        // Reset: wrong tokens count per client address and cost no hashing.
        let reset = |token: &str, address: &str| {
            rpc(
                "account.resetPassword",
                json!({ "token": token, "password": "Goodpass12" }),
                None,
                Some(address),
            )
        };
        for n in 0..ADDRESS_LIMIT {
            let answer = app.request(reset(&format!("guess-{n}"), "192.0.2.1")).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST);
            assert_eq!(rpc_message(&answer), INVALID_LINK);
        }
        let limited = app.request(reset("guess-x", "192.0.2.1")).await;
        assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(rpc_message(&limited), TOO_MANY);
        let elsewhere = app.request(reset("guess-y", "192.0.2.2")).await;
        assert_eq!(rpc_message(&elsewhere), INVALID_LINK);

        // Register: per e-mail address (and per client address).
        let register = |email: &str, address: &str| {
            rpc(
                "account.register",
                json!({ "forename": "Rita", "surname": "Register", "email": email, "password": "Goodpass12", "organisationName": "Test School", "postcode": "AB1 2CD", "orgType": "SCHOOL" }),
                None,
                Some(address),
            )
        };
        for n in 0..RESET_LIMIT {
            let answer = app
                .request(register("rita@school.test", &format!("192.0.2.{}", 10 + n)))
                .await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        }
        let limited = app
            .request(register("rita@school.test", "192.0.2.99"))
            .await;
        assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
        for n in 0..ADDRESS_LIMIT {
            let answer = app
                .request(register(&format!("r{n}@school.test"), "192.0.2.50"))
                .await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        }
        let limited = app
            .request(register("r-last@school.test", "192.0.2.50"))
            .await;
        assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);

        // The e-mail sign-in link: per client address over many e-mail addresses.
        let pair = csrf(&app.router).await;
        for n in 0..ADDRESS_LIMIT {
            let url = post_form(
                app.router.clone(),
                "/api/auth/signin/email",
                &[("email", &format!("link{n}@school.test"))],
                &pair,
                "192.0.2.77",
            )
            .await;
            assert!(url.contains("verify-request"), "{url}");
        }
        let url = post_form(
            app.router.clone(),
            "/api/auth/signin/email",
            &[("email", "link-last@school.test")],
            &pair,
            "192.0.2.77",
        )
        .await;
        assert!(url.ends_with("error=TooManyAttempts"), "{url}");
    }
);

/// A mail server that accepts connections and then says nothing (or only its greeting),
/// holding every socket open.
struct Tarpit {
    port: u16,
    connections: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Tarpit {
    async fn start(greet: bool) -> Tarpit {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = connections.clone();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((mut socket, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                if greet {
                    let _ = socket.write_all(b"220 tarpit ESMTP\r\n").await;
                }
                held.push(socket);
            }
        });
        Tarpit {
            port,
            connections,
            task,
        }
    }

    fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}?tls=none", self.port)
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Tarpit {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn short_timeouts() -> SmtpTimeouts {
    SmtpTimeouts {
        connect: Duration::from_secs(1),
        command: Duration::from_secs(1),
        message: Duration::from_secs(3),
    }
}

/// Runs the next job against `state`'s mail server; it must fail and go back to the queue.
async fn job_gives_up(state: &AppState, label: &str) {
    let settings = WorkerSettings {
        backoff_base: Duration::from_secs(60),
        ..WorkerSettings::default()
    };
    let started = Instant::now();
    let outcome = run_once(state, &Registry::standard(), "tarpit-worker", &settings)
        .await
        .expect("run");
    let gave_up = started.elapsed();
    let Outcome::Failed { job, error } = outcome else {
        panic!("expected a failed run, got {outcome:?}");
    };
    eprintln!(
        "{label}: the worker gave up after {} ms: {error}",
        gave_up.as_millis()
    );
    assert_eq!(job.kind, "email.account");
    let mut pooled = state.db.conn().await.expect("connection");
    let row = jobs::find(&mut pooled.db(), &job.id)
        .await
        .expect("find")
        .expect("row");
    assert_eq!(row.status, jobs::status::QUEUED, "retried later");
    assert_eq!(row.attempts, 1);
    assert!(row.run_at > voicemark::models::now(), "with backoff");
    assert!(row.last_error.is_some_and(|e| e.contains(&error)));
}

dual_test!(
    async fn a_silent_mail_server_holds_no_request_worker_or_shutdown(app: TestApp) {
        let silent = Tarpit::start(false).await;
        let state = state_with(&app, |c| {
            c.mail.smtp_url = Some(silent.url());
            c.mail.timeouts = short_timeouts();
        });
        let router = voicemark::app::router(state.clone());
        add_user(&app, "ada@school.test", true, false).await;

        // The requests only queue their e-mail: they answer without touching the mail server.
        let started = Instant::now();
        let registered = send(
            router.clone(),
            rpc(
                "account.register",
                json!({ "forename": "Rita", "surname": "R", "email": "rita@school.test", "password": "Goodpass12", "organisationName": "Test School", "postcode": "AB1 2CD", "orgType": "SCHOOL" }),
                None,
                None,
            ),
        )
        .await;
        assert_eq!(registered.status, StatusCode::OK, "{}", registered.text());
        let reset = send(
            router.clone(),
            rpc(
                "account.requestPasswordReset",
                json!({ "email": "ada@school.test" }),
                None,
                None,
            ),
        )
        .await;
        assert_eq!(reset.status, StatusCode::OK, "{}", reset.text());
        eprintln!(
            "register + reset request against a silent mail server: {} ms",
            started.elapsed().as_millis()
        );
        assert_eq!(
            silent.connections(),
            0,
            "no request talked to the mail server"
        );

        // A worker gives up on the silent server, and on one that greets and then goes quiet.
        job_gives_up(&state, "silent server").await;
        assert!(silent.connections() >= 1);
        let greeter = Tarpit::start(true).await;
        let greeting_state = state_with(&app, |c| {
            c.mail.smtp_url = Some(greeter.url());
            c.mail.timeouts = short_timeouts();
        });
        job_gives_up(&greeting_state, "greeting then silence").await;

        // Shutdown completes with a worker stuck mid-send (default, long mail timeouts).
        let slow_state = state_with(&app, |c| c.mail.smtp_url = Some(silent.url()));
        let queued = send(
            voicemark::app::router(slow_state.clone()),
            rpc(
                "account.register",
                json!({ "forename": "Sam", "surname": "S", "email": "sam@school.test", "password": "Goodpass12", "organisationName": "Test School", "postcode": "AB1 2CD", "orgType": "SCHOOL" }),
                None,
                None,
            ),
        )
        .await;
        assert_eq!(queued.status, StatusCode::OK);
        let before = silent.connections();
        let workers = Workers::start(
            slow_state,
            Registry::standard(),
            WorkerSettings {
                poll_interval: Duration::from_millis(20),
                shutdown_grace: Duration::from_secs(1),
                ..WorkerSettings::default()
            },
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        while silent.connections() == before {
            assert!(
                Instant::now() < deadline,
                "no worker reached the mail server"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let stopping = Instant::now();
        let abandoned = tokio::time::timeout(Duration::from_secs(30), workers.shutdown())
            .await
            .expect("shutdown completes");
        eprintln!(
            "shutdown with a worker mid-send: {} ms, {abandoned} abandoned",
            stopping.elapsed().as_millis()
        );
        assert_eq!(abandoned, 0, "the stuck worker handed its job back");
    }
);

dual_test!(
    async fn a_job_in_hand_at_shutdown_is_handed_back_and_delivered_by_the_next_worker(app: TestApp) {
        // A mail server that accepts the connection and never says a word, with the default
        // (long) mail timeouts: only the shutdown can end the run.
        let silent = Tarpit::start(false).await;
        let silent_state = state_with(&app, |c| c.mail.smtp_url = Some(silent.url()));
        let queued = send(
            voicemark::app::router(silent_state.clone()),
            rpc(
                "account.register",
                json!({ "forename": "Tom", "surname": "T", "email": "tom@school.test", "password": "Goodpass12", "organisationName": "Test School", "postcode": "AB1 2CD", "orgType": "SCHOOL" }),
                None,
                None,
            ),
        )
        .await;
        assert_eq!(queued.status, StatusCode::OK, "{}", queued.text());
        let grace = Duration::from_secs(2);
        let workers = Workers::start(
            silent_state,
            Registry::standard(),
            WorkerSettings {
                workers: 1,
                poll_interval: Duration::from_millis(20),
                shutdown_grace: grace,
                ..WorkerSettings::default()
            },
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        while silent.connections() == 0 {
            assert!(Instant::now() < deadline, "no worker reached the mail server");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let stopping = Instant::now();
        let abandoned = tokio::time::timeout(Duration::from_secs(25), workers.shutdown())
            .await
            .expect("the workers stop within 25 s");
        let took = stopping.elapsed();
        eprintln!(
            "{}: shutdown with a worker mid-send to a silent server: {} ms",
            app.backend().as_str(),
            took.as_millis()
        );
        assert_eq!(abandoned, 0);
        assert!(took >= grace, "the job in hand got its grace ({took:?})");
        assert!(
            took < grace + Duration::from_secs(3),
            "stopped soon after the grace ({took:?})"
        );

        // The job is back in the queue, due now, unlocked, the cut-off run not counted: a
        // worker of another process claims it at once (the lease is the default 5 minutes).
        let mut pooled = app.db.conn().await.expect("connection");
        let job = jobs::claim(&mut pooled.db(), "another-process/0", Duration::from_secs(300))
            .await
            .expect("claim")
            .expect("the handed-back job is claimable at once");
        assert_eq!(job.kind, "email.account");
        assert_eq!(job.attempts, 1, "the cut-off run was not counted");
        assert!(jobs::release(&mut pooled.db(), &job.id, "another-process/0")
            .await
            .expect("release"));
        drop(pooled);

        // A second worker, with a mail server that answers, delivers it.
        let sink = crate::sending::smtp::SmtpSink::start().await;
        let live_state = state_with(&app, |c| c.mail.smtp_url = Some(sink.url()));
        let workers = Workers::start(
            live_state,
            Registry::standard(),
            WorkerSettings {
                workers: 1,
                poll_interval: Duration::from_millis(20),
                ..WorkerSettings::default()
            },
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while sink.to("tom@school.test").is_empty() {
            assert!(Instant::now() < deadline, "the handed-back e-mail was not delivered");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        workers.shutdown().await;
        let mut pooled = app.db.conn().await.expect("connection");
        let row = jobs::find(&mut pooled.db(), &job.id)
            .await
            .expect("find")
            .expect("row");
        assert_eq!(row.status, jobs::status::DONE);
    }
);

/// A port that was free a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `(VmRSS, VmHWM)` of process `pid`, in MiB.
fn memory_mib(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map(|kib| kib / 1024.0)
            .unwrap_or_else(|| panic!("no {name} in /proc/{pid}/status"))
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The real binary on a fresh SQLite database; stopped (SIGTERM) by [`stop`].
fn serve(dir: &std::path::Path, url: &str, port: u16, env: &[(&str, &str)]) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_voicemark"));
    command
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .env("VOICEMARK_DATA_DIR", dir)
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (name, value) in env {
        command.env(name, value);
    }
    command.spawn().expect("start voicemark")
}

async fn wait_healthy(client: &reqwest::Client, base: &str) {
    let started = Instant::now();
    while client
        .get(format!("{base}/api/health"))
        .send()
        .await
        .is_err()
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server never answered"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// SIGTERM, then waits (at most a minute) for the exit; returns how long it took.
async fn stop(child: Child) -> Duration {
    let started = Instant::now();
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let mut child = child;
    let waited = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::task::spawn_blocking(move || child.wait()),
    )
    .await
    .expect("the server stops after SIGTERM")
    .expect("join")
    .expect("wait");
    assert!(waited.success(), "exit status {waited:?}");
    started.elapsed()
}

/// One tRPC mutation over HTTP; `(status, message)`.
async fn post_rpc(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    input: Value,
    forwarded: &str,
) -> (u16, String) {
    let response = client
        .post(format!("{base}/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json")
        .header("x-forwarded-for", forwarded)
        .body(json!({ "0": { "json": input } }).to_string())
        .send()
        .await
        .expect("answer");
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    let message = body[0]["error"]["json"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (status, message)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_of_resets_and_registrations_keep_server_memory_bounded() {
    let (url, dir, _guard) = fresh_database(TestBackend::Sqlite).await;
    let port = free_port();
    // Every request from its own forwarded address: the per-address limits do not help here,
    // so the hashing pool alone must bound memory.
    let child = serve(
        &dir,
        url.as_str(),
        port,
        &[
            ("VOICEMARK_TRUST_PROXY", "1"),
            ("VOICEMARK_JOB_WORKERS", "0"),
        ],
    );
    let pid = child.id();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_healthy(&client, &base).await;
    let (idle, _) = memory_mib(pid);

    let started = Instant::now();
    let resets: Vec<_> = (0..500)
        .map(|n| {
            let (client, base) = (client.clone(), base.clone());
            tokio::spawn(async move {
                post_rpc(
                    &client,
                    &base,
                    "account.resetPassword",
                    json!({ "token": format!("not-a-token-{n}"), "password": "Goodpass12" }),
                    &format!("10.1.{}.{}", n / 250, n % 250),
                )
                .await
            })
        })
        .collect();
    for reset in resets {
        let (status, message) = reset.await.expect("join");
        assert_eq!((status, message.as_str()), (400, INVALID_LINK));
    }
    let resets_took = started.elapsed();
    let (after_resets, peak_resets) = memory_mib(pid);

    let started = Instant::now();
    let registrations: Vec<_> = (0..96)
        .map(|n| {
            let (client, base) = (client.clone(), base.clone());
            tokio::spawn(async move {
                post_rpc(
                    &client,
                    &base,
                    "account.register",
                    json!({ "forename": "Flood", "surname": "Test", "email": format!("flood{n}@school.test"), "password": "Goodpass12", "organisationName": "Test School", "postcode": "AB1 2CD", "orgType": "SCHOOL" }),
                    &format!("10.2.0.{n}"),
                )
                .await
            })
        })
        .collect();
    let (mut registered, mut refused) = (0, 0);
    for registration in registrations {
        match registration.await.expect("join") {
            (200, _) => registered += 1,
            (429, message) => {
                assert_eq!(message, TOO_MANY);
                refused += 1;
            }
            other => panic!("unexpected answer {other:?}"),
        }
    }
    let registrations_took = started.elapsed();
    let (after_registrations, peak) = memory_mib(pid);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (settled, _) = memory_mib(pid);
    eprintln!(
        "memory (MiB): idle {idle:.1}; 500 bad-token resets in {} ms -> rss {after_resets:.1}, peak {peak_resets:.1}; \
         96 registrations in {} ms ({registered} accepted, {refused} refused busy) -> rss {after_registrations:.1}, \
         peak {peak:.1}; 2 s later rss {settled:.1}",
        resets_took.as_millis(),
        registrations_took.as_millis()
    );
    assert!(registered >= 1, "some registrations went through");
    // Unbounded, 96 registrations alone took the server from 13 MiB to 2.1 GiB.
    assert!(
        peak - idle < 200.0,
        "peak {peak:.1} MiB from idle {idle:.1} MiB"
    );
    stop(child).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_completes_while_a_worker_waits_on_a_silent_mail_server() {
    let silent = Tarpit::start(false).await;
    let (url, dir, _guard) = fresh_database(TestBackend::Sqlite).await;
    let port = free_port();
    // Default (long) mail timeouts: the shutdown grace is what lets the server stop.
    let child = serve(
        &dir,
        url.as_str(),
        port,
        &[
            ("VOICEMARK_SMTP_URL", &silent.url()),
            ("VOICEMARK_JOB_POLL_MS", "50"),
        ],
    );
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    wait_healthy(&client, &base).await;
    let started = Instant::now();
    let (status, _) = post_rpc(
        &client,
        &base,
        "account.register",
        json!({ "forename": "Rita", "surname": "R", "email": "rita@school.test", "password": "Goodpass12", "organisationName": "Test School", "postcode": "AB1 2CD", "orgType": "SCHOOL" }),
        "127.0.0.1",
    )
    .await;
    let answered = started.elapsed();
    assert_eq!(status, 200);
    let deadline = Instant::now() + Duration::from_secs(30);
    while silent.connections() == 0 {
        assert!(
            Instant::now() < deadline,
            "no worker reached the mail server"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let stopped = stop(child).await;
    eprintln!(
        "real server, silent mail server: register answered in {} ms; SIGTERM to exit {} ms",
        answered.as_millis(),
        stopped.as_millis()
    );
    // Default settings: gone well inside the 30 s a supervisor waits before SIGKILL.
    assert!(stopped < Duration::from_secs(25), "SIGTERM to exit took {stopped:?}");

    // The welcome e-mail was in hand at the stop: the restarted server sends it at once,
    // not after the 5-minute lease.
    let sink = crate::sending::smtp::SmtpSink::start().await;
    let restarted = Instant::now();
    let child = serve(
        &dir,
        url.as_str(),
        port,
        &[("VOICEMARK_SMTP_URL", &sink.url()), ("VOICEMARK_JOB_POLL_MS", "50")],
    );
    wait_healthy(&client, &base).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while sink.to("rita@school.test").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the e-mail in hand at the stop was not sent after the restart"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "restarted server delivered the handed-back e-mail {} ms after starting",
        restarted.elapsed().as_millis()
    );
    stop(child).await;
}
