//! The `voicemark` command line, run as a user would run it.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use voicemark::models::{organisations, users};

use crate::dual_test;
use crate::support::TestApp;

fn voicemark(app: &TestApp, args: &[&str]) -> Output {
    voicemark_with(
        args,
        &[
            ("DATABASE_URL", app.url.as_str()),
            ("VOICEMARK_DATA_DIR", &app.dir.to_string_lossy()),
        ],
    )
}

fn voicemark_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_voicemark"));
    command
        .args(args)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("run voicemark")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_bad_database_url_is_one_sentence_and_exit_1() {
    let output = voicemark_with(
        &["migrate"],
        &[("DATABASE_URL", "mysql://root@localhost/x")],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output).trim(),
        "error: DATABASE_URL must start with sqlite:// or postgres:// (it starts with 'mysql')."
    );
}

#[test]
fn an_unreachable_database_is_one_sentence_and_exit_1() {
    // Port 1 on loopback: nothing listens there.
    let output = voicemark_with(
        &["migrate"],
        &[(
            "DATABASE_URL",
            "postgres://voicemark:secret@127.0.0.1:1/voicemark",
        )],
    );
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.starts_with(
            "error: Cannot reach the database at postgres://voicemark:***@127.0.0.1:1/voicemark"
        ),
        "{message}"
    );
    assert!(
        !message.contains("secret"),
        "the password stays out of messages"
    );
    assert_eq!(message.trim().lines().count(), 1, "{message}");
}

dual_test!(
    async fn user_add_creates_an_activated_user_and_the_school(app: TestApp) {
        let output = voicemark(
            &app,
            &[
                "user",
                "add",
                "--email",
                "New.Head@Example.org",
                "--password",
                "Headteacher1",
                "--role",
                "admin",
                "--school",
                "Hilltop School",
                "--leader",
            ],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(
            stdout(&output).trim(),
            "Created ADMIN New.Head@Example.org."
        );

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let user = users::find_by_email(&mut conn, "new.head@example.org")
            .await
            .expect("query")
            .expect("the user");
        assert!(user.activated && user.leader && !user.disabled);
        assert_eq!(user.role, core_wasm::UserRole::Admin);
        let hash = user.password.expect("a password hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(voicemark::password::verify_password("Headteacher1", &hash));
        let school = organisations::find_school_by_name(&mut conn, "Hilltop School")
            .await
            .expect("query")
            .expect("school");
        assert_eq!(user.school_id.as_deref(), Some(school.id.as_str()));

        // Test accounts can start disabled or waiting for activation.
        let output = voicemark(
            &app,
            &[
                "user",
                "add",
                "--email",
                "off@example.org",
                "--password",
                "Teacher123",
                "--role",
                "TEACHER",
                "--school",
                "Hilltop School",
                "--disabled",
                "--not-activated",
            ],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let off = users::find_by_email(&mut conn, "off@example.org")
            .await
            .expect("query")
            .expect("user");
        assert!(off.disabled && !off.activated);

        // A second user joins the same school rather than creating another.
        let output = voicemark(
            &app,
            &[
                "user",
                "add",
                "--email",
                "t@example.org",
                "--password",
                "Teacher123",
                "--role",
                "TEACHER",
                "--school",
                "Hilltop School",
            ],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let teacher = users::find_by_email(&mut conn, "t@example.org")
            .await
            .expect("query")
            .expect("teacher");
        assert_eq!(teacher.school_id, user.school_id);
    }
);

dual_test!(
    async fn user_add_refuses_bad_input_and_writes_nothing(app: TestApp) {
        let cases: [(&[&str], &str); 4] = [
        (&["--email", "a@example.org", "--password", "weak", "--role", "TEACHER", "--school", "S"],
            "error: Passwords must be at least 8 characters and should include at least 1 number and 1 uppercase letter."),
        (&["--email", "not-an-email", "--password", "Strong123", "--role", "TEACHER", "--school", "S"],
            "error: 'not-an-email' is not an e-mail address."),
        (&["--email", "a@example.org", "--password", "Strong123", "--role", "TEACHER"],
            "error: A TEACHER belongs to a school: add --school NAME."),
        (&["--email", "a@example.org", "--password", "Strong123", "--role", "HEADMASTER", "--school", "S"],
            "expected one of TEACHER, ADMIN, SUPERADMIN, ORG_ADMIN, MAT_USER"),
    ];
        for (args, expected) in cases {
            let mut full = vec!["user", "add"];
            full.extend_from_slice(args);
            let output = voicemark(&app, &full);
            assert!(!output.status.success(), "{args:?}");
            assert!(
                stderr(&output).contains(expected),
                "{args:?}: {}",
                stderr(&output)
            );
        }
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        assert_eq!(users::count(&mut conn).await.expect("count"), 0);
        assert!(organisations::find_school_by_name(&mut conn, "S")
            .await
            .expect("query")
            .is_none());

        let ok = voicemark(
            &app,
            &[
                "user",
                "add",
                "--email",
                "a@example.org",
                "--password",
                "Strong123",
                "--role",
                "SUPERADMIN",
            ],
        );
        assert!(ok.status.success(), "{}", stderr(&ok));
        let again = voicemark(
            &app,
            &[
                "user",
                "add",
                "--email",
                "A@example.org",
                "--password",
                "Strong123",
                "--role",
                "SUPERADMIN",
            ],
        );
        assert_eq!(again.status.code(), Some(1));
        assert_eq!(
            stderr(&again).trim(),
            "error: A user with the e-mail address a@example.org already exists."
        );
        assert_eq!(users::count(&mut conn).await.expect("count"), 1);
    }
);

dual_test!(
    async fn seed_demo_prints_the_sign_in_accounts(app: TestApp) {
        let output = voicemark(&app, &["seed", "--demo"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains("Seeded the demo organisation (Northbridge Academy)."),
            "{text}"
        );
        for (email, role, ..) in voicemark::seed::DEMO_ACCOUNTS {
            assert!(
                text.contains(email) && text.contains(role.as_str()),
                "{text}"
            );
        }
        assert!(text.contains("password Voicemark1"));
        let again = voicemark(&app, &["seed", "--demo"]);
        assert!(stdout(&again).contains("already holds the demo organisation"));
    }
);

/// A free loopback port (the OS picks it; there is a small window before the server binds it).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

dual_test!(
    async fn serve_applies_migrations_answers_and_stops_on_sigterm(app: TestApp) {
        // A database nobody has migrated: serve must bring it up to date itself.
        let (url, dir, _guard) = crate::support::fresh_database(match app.backend() {
            voicemark::db::Backend::Sqlite => crate::support::TestBackend::Sqlite,
            voicemark::db::Backend::Postgres => crate::support::TestBackend::Postgres,
        })
        .await;
        let port = free_port();
        let address = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_voicemark"))
            .args(["serve", "--bind", &address])
            .env("DATABASE_URL", url.as_str())
            .env("VOICEMARK_DATA_DIR", &dir)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start voicemark serve");

        let client = reqwest::Client::new();
        let started = Instant::now();
        // Health answers 503 `starting` while the migrations run (docs/operations.md).
        let health = loop {
            if let Ok(response) = client
                .get(format!("http://{address}/api/health"))
                .send()
                .await
            {
                if response.status().as_u16() == 200 {
                    break response;
                }
                assert_eq!(response.status().as_u16(), 503, "only `starting` before it is healthy");
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the server never answered"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(health.status().as_u16(), 200);
        let body: serde_json::Value = health.json().await.expect("json");
        assert_eq!(body["database"], "ok");

        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(killed.success());
        let output = tokio::task::spawn_blocking(move || child.wait_with_output())
            .await
            .expect("join")
            .expect("wait");
        assert!(output.status.success(), "exit status {:?}", output.status);
        let logs = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(logs.contains("Voicemark is listening"), "{logs}");
        assert!(
            logs.contains("request_id="),
            "request logs carry the id: {logs}"
        );
        assert!(logs.contains("Voicemark stopped"), "{logs}");
    }
);
