//! Sending notifications: who they reach (filters), receipts, e-mail through a real SMTP
//! server on loopback, preferences, digests, and exactly-once delivery across a crash.

use std::time::Duration;

use chrono::NaiveDateTime;
use core_wasm::{FeedbackSentiment, NotificationFrequency, NotificationType, OrgType, UserRole};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::json;
use voicemark::db::schema::{jobs as jobs_table, notification_receipts, submissions};
use voicemark::db::DbConn;
use voicemark::ids::{new_id, new_token};
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{self, NewJob, Registry, WorkerSettings};
use voicemark::models::email_preferences::{self, NewEmailPreference};
use voicemark::models::groups::{self, NewClass, NewFormGroup};
use voicemark::models::notifications::{self, NewNotification};
use voicemark::models::recipients::{count_recipients, resolve_recipients, Filters};
use voicemark::models::{now, organisations, students, users};
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::dual_test;
use crate::support::TestApp;
use smtp::SmtpSink;

/// A school with its id.
pub async fn make_school(conn: &mut DbConn<'_>, name: &str) -> String {
    let at = now();
    let school = organisations::NewSchool {
        id: new_id(),
        trust_id: None,
        created_at: at,
        updated_at: at,
        name: name.into(),
        postcode: None,
        org_type: OrgType::School,
        redirect_to_leaders: false,
        notifications_frequency: NotificationFrequency::Immediately,
    };
    organisations::insert_school(conn, &school)
        .await
        .expect("insert school");
    school.id
}

pub async fn make_class(conn: &mut DbConn<'_>, school_id: &str, name: &str) -> String {
    let at = now();
    let class = NewClass {
        id: new_id(),
        created_at: at,
        updated_at: at,
        name: name.into(),
        school_id: school_id.into(),
    };
    groups::insert_class(conn, &class).await.expect("class");
    class.id
}

pub async fn make_form_group(conn: &mut DbConn<'_>, school_id: &str, name: &str) -> String {
    let at = now();
    let group = NewFormGroup {
        id: new_id(),
        created_at: at,
        updated_at: at,
        name: name.into(),
        school_id: school_id.into(),
    };
    groups::insert_form_group(conn, &group)
        .await
        .expect("form group");
    group.id
}

/// A pupil of `school_id`; e-mail addresses are `{forename}@pupils.test` and
/// `parent.{forename}@families.test` when asked for.
pub struct PupilSpec<'a> {
    pub forename: &'a str,
    pub surname: &'a str,
    pub email: bool,
    pub parent: bool,
    pub year_group_id: Option<String>,
    pub form_group_id: Option<String>,
}

pub async fn make_pupil(conn: &mut DbConn<'_>, school_id: &str, spec: PupilSpec<'_>) -> String {
    let at = now();
    let lower = spec.forename.to_lowercase();
    let pupil = students::NewStudent {
        id: new_id(),
        created_at: at,
        updated_at: at,
        forename: spec.forename.into(),
        surname: spec.surname.into(),
        email: spec.email.then(|| format!("{lower}@pupils.test")),
        parent_email: spec.parent.then(|| format!("parent.{lower}@families.test")),
        upn: None,
        school_id: school_id.into(),
        year_group_id: spec.year_group_id,
        form_group_id: spec.form_group_id,
    };
    students::insert(conn, &pupil).await.expect("pupil");
    pupil.id
}

pub fn simple(forename: &str, surname: &str) -> PupilSpec<'static> {
    PupilSpec {
        forename: Box::leak(forename.to_owned().into_boxed_str()),
        surname: Box::leak(surname.to_owned().into_boxed_str()),
        email: true,
        parent: true,
        year_group_id: None,
        form_group_id: None,
    }
}

dual_test!(
    async fn recipients_are_the_union_of_the_filters_once_each(app: TestApp) {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = make_school(&mut conn, "Filter School").await;
        let other = make_school(&mut conn, "Other School").await;
        let year7 = groups::year_group_id(&mut conn, &school, "Year 7")
            .await
            .expect("year");
        let form = make_form_group(&mut conn, &school, "7B").await;
        let class = make_class(&mut conn, &school, "Maths").await;
        let other_class = make_class(&mut conn, &other, "Other Maths").await;
        let other_form = make_form_group(&mut conn, &other, "7X").await;

        // Ada: in the class and in year 7 (matched twice, listed once).
        let ada = make_pupil(
            &mut conn,
            &school,
            PupilSpec {
                year_group_id: Some(year7.clone()),
                ..simple("Ada", "Lovelace")
            },
        )
        .await;
        students::add_to_class(&mut conn, &ada, &class)
            .await
            .expect("join");
        // Bea: only in form 7B.
        let bea = make_pupil(
            &mut conn,
            &school,
            PupilSpec {
                form_group_id: Some(form.clone()),
                ..simple("Bea", "Adams")
            },
        )
        .await;
        // Cy: only chosen by id.
        let cy = make_pupil(&mut conn, &school, simple("Cy", "Zed")).await;
        // Dee: in the school but matched by nothing.
        make_pupil(&mut conn, &school, simple("Dee", "Nobody")).await;
        // Eve: another school's pupil in year 7, in its class and form group.
        let eve = make_pupil(
            &mut conn,
            &other,
            PupilSpec {
                year_group_id: Some(year7.clone()),
                form_group_id: Some(other_form.clone()),
                ..simple("Eve", "Elsewhere")
            },
        )
        .await;
        students::add_to_class(&mut conn, &eve, &other_class)
            .await
            .expect("join");

        let filters = Filters {
            classes: vec![class.clone(), other_class.clone()],
            year_groups: vec![year7.clone()],
            form_groups: vec![form.clone(), other_form.clone()],
            students: vec![cy.clone(), ada.clone(), eve.clone()],
        };
        let found = resolve_recipients(&mut conn, &school, &filters)
            .await
            .expect("resolve");
        let ids: Vec<&str> = found.iter().map(|r| r.student_id.as_str()).collect();
        // By surname: Adams, Lovelace, Zed.
        assert_eq!(ids, vec![bea.as_str(), ada.as_str(), cy.as_str()]);
        assert_eq!(found[1].forename, "Ada");
        assert_eq!(found[1].email.as_deref(), Some("ada@pupils.test"));
        assert_eq!(
            found[1].parent_email.as_deref(),
            Some("parent.ada@families.test")
        );
        assert_eq!(
            count_recipients(&mut conn, &school, &filters)
                .await
                .expect("count"),
            3
        );

        // Another school's ids alone reach nobody here.
        let foreign = Filters {
            classes: vec![other_class],
            form_groups: vec![other_form],
            students: vec![eve],
            ..Filters::default()
        };
        assert!(resolve_recipients(&mut conn, &school, &foreign)
            .await
            .expect("resolve")
            .is_empty());
        assert_eq!(
            count_recipients(&mut conn, &school, &foreign)
                .await
                .expect("count"),
            0
        );
        // The year group is shared: from the other school it reaches only Eve.
        let year_only = Filters {
            year_groups: vec![year7],
            ..Filters::default()
        };
        assert_eq!(
            count_recipients(&mut conn, &other, &year_only)
                .await
                .expect("count"),
            1
        );

        // Empty filters reach nobody.
        assert!(resolve_recipients(&mut conn, &school, &Filters::default())
            .await
            .expect("resolve")
            .is_empty());
        assert_eq!(
            count_recipients(&mut conn, &school, &Filters::default())
                .await
                .expect("count"),
            0
        );
    }
);

/// A small SMTP server on loopback that accepts every message and remembers it: enough of
/// RFC 5321 for lettre (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT).
pub mod smtp {
    use std::sync::{Arc, Mutex};

    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::TcpListener;

    /// One accepted message.
    #[derive(Debug, Clone)]
    pub struct Received {
        pub from: String,
        pub to: Vec<String>,
        pub data: String,
    }

    impl Received {
        /// A header's value (first occurrence, unfolded).
        pub fn header(&self, name: &str) -> Option<String> {
            let head = self.data.split("\r\n\r\n").next().unwrap_or("");
            let mut value: Option<String> = None;
            for line in head.split("\r\n") {
                if let Some(v) = value.as_mut() {
                    if line.starts_with(' ') || line.starts_with('\t') {
                        v.push_str(line.trim_start());
                        continue;
                    }
                    break;
                }
                if let Some((k, v)) = line.split_once(':') {
                    if k.eq_ignore_ascii_case(name) {
                        value = Some(v.trim().to_owned());
                    }
                }
            }
            value
        }

        /// The decoded text of the message (quoted-printable soft breaks undone), for
        /// looking for links.
        pub fn text(&self) -> String {
            let body = self.data.replace("=\r\n", "");
            decode_qp(&body)
        }
    }

    fn decode_qp(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'=' && i + 2 < bytes.len() {
                if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                    out.push(b);
                    i += 3;
                    continue;
                }
            }
            out.push(bytes[i]);
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The server and what it received.
    #[derive(Clone)]
    pub struct SmtpSink {
        pub port: u16,
        pub received: Arc<Mutex<Vec<Received>>>,
        /// Recipients answered `550 5.1.1 User unknown` at RCPT TO (see [`SmtpSink::refuse`]).
        pub refused: Arc<Mutex<std::collections::HashSet<String>>>,
    }

    impl SmtpSink {
        pub async fn start() -> SmtpSink {
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind smtp");
            let port = listener.local_addr().expect("addr").port();
            let received = Arc::new(Mutex::new(Vec::new()));
            let refused = Arc::new(Mutex::new(std::collections::HashSet::new()));
            let store = received.clone();
            let refusing = refused.clone();
            tokio::spawn(async move {
                while let Ok((socket, _)) = listener.accept().await {
                    let store = store.clone();
                    let refusing = refusing.clone();
                    tokio::spawn(async move {
                        let _ = session(socket, store, refusing).await;
                    });
                }
            });
            SmtpSink { port, received, refused }
        }

        /// From now on, answers `550 5.1.1 User unknown` to RCPT TO `address`.
        pub fn refuse(&self, address: &str) {
            self.refused.lock().expect("lock").insert(address.to_lowercase());
        }

        pub fn url(&self) -> String {
            format!("smtp://127.0.0.1:{}", self.port)
        }

        pub fn messages(&self) -> Vec<Received> {
            self.received.lock().expect("lock").clone()
        }

        pub fn count(&self) -> usize {
            self.received.lock().expect("lock").len()
        }

        pub fn to(&self, address: &str) -> Vec<Received> {
            self.messages()
                .into_iter()
                .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(address)))
                .collect()
        }
    }

    async fn session(
        socket: tokio::net::TcpStream,
        store: Arc<Mutex<Vec<Received>>>,
        refused: Arc<Mutex<std::collections::HashSet<String>>>,
    ) -> std::io::Result<()> {
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read);
        write.write_all(b"220 sink.test ESMTP ready\r\n").await?;
        let (mut from, mut to) = (String::new(), Vec::<String>::new());
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            let command = line.trim_end().to_owned();
            let upper = command.to_ascii_uppercase();
            if upper.starts_with("EHLO") {
                write
                    .write_all(b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n")
                    .await?;
            } else if upper.starts_with("HELO") {
                write.write_all(b"250 sink.test\r\n").await?;
            } else if upper.starts_with("MAIL FROM:") {
                from = address(&command[10..]);
                to.clear();
                write.write_all(b"250 OK\r\n").await?;
            } else if upper.starts_with("RCPT TO:") {
                let rcpt = address(&command[8..]);
                if refused.lock().expect("lock").contains(&rcpt) {
                    write.write_all(b"550 5.1.1 User unknown\r\n").await?;
                    continue;
                }
                to.push(rcpt);
                write.write_all(b"250 OK\r\n").await?;
            } else if upper == "DATA" {
                write
                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    .await?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" || line == ".\n" {
                        break;
                    }
                    let unstuffed = line.strip_prefix('.').unwrap_or(&line);
                    data.push_str(unstuffed);
                }
                store.lock().expect("lock").push(Received {
                    from: std::mem::take(&mut from),
                    to: std::mem::take(&mut to),
                    data,
                });
                write.write_all(b"250 OK queued\r\n").await?;
            } else if upper == "RSET" {
                from.clear();
                to.clear();
                write.write_all(b"250 OK\r\n").await?;
            } else if upper == "NOOP" {
                write.write_all(b"250 OK\r\n").await?;
            } else if upper == "QUIT" {
                write.write_all(b"221 Bye\r\n").await?;
                return Ok(());
            } else {
                write.write_all(b"502 Command not implemented\r\n").await?;
            }
        }
    }

    fn address(arg: &str) -> String {
        let arg = arg.trim();
        let inner = arg
            .split_once('<')
            .and_then(|(_, rest)| rest.split_once('>'))
            .map(|(a, _)| a)
            .unwrap_or(arg);
        inner.trim().to_lowercase()
    }
}

pub async fn make_teacher(conn: &mut DbConn<'_>, school_id: &str) -> String {
    let at = now();
    let user = users::NewUser {
        id: new_id(),
        created_at: at,
        updated_at: at,
        forename: "Tess".into(),
        surname: "Teacher".into(),
        title: None,
        email: format!("teacher.{}@school.test", &new_id()[24..]),
        email_verified: None,
        password_updated_at: None,
        password: None,
        activated: true,
        disabled: false,
        leader: false,
        school_id: Some(school_id.into()),
        role: UserRole::Teacher,
    };
    users::insert(conn, &user).await.expect("teacher");
    user.id
}

pub struct NotificationSpec {
    pub kind: NotificationType,
    pub filters: Filters,
    pub to_pupil: bool,
    pub to_parent: bool,
    pub send_date: Option<NaiveDateTime>,
}

pub async fn make_notification(
    conn: &mut DbConn<'_>,
    school_id: &str,
    sender_id: &str,
    spec: NotificationSpec,
) -> String {
    let at = now();
    let n = NewNotification {
        id: new_id(),
        created_at: at,
        updated_at: at,
        kind: spec.kind,
        title: "Volcano project".into(),
        custom_title: None,
        body: "<p>Build a <b>model</b> volcano &amp; explain it.</p>".into(),
        send_date: spec.send_date,
        submission_due_date: Some(at + chrono::Duration::days(7)),
        send_to_parent: spec.to_parent,
        send_to_pupil: spec.to_pupil,
        filters: spec.filters.to_stored(),
        sender_id: sender_id.into(),
        school_id: school_id.into(),
    };
    notifications::insert(conn, &n).await.expect("notification");
    n.id
}

/// Queues `notification.send` the way the notifications code does.
pub async fn queue_send(conn: &mut DbConn<'_>, notification_id: &str, key_suffix: &str) {
    voicemark::models::jobs::insert(
        conn,
        &NewJob {
            kind: "notification.send".into(),
            payload: json!({ "notificationId": notification_id }),
            run_at: now(),
            idempotency_key: Some(format!("notification.send:{notification_id}:{key_suffix}")),
        },
    )
    .await
    .expect("enqueue");
}

/// The app's state with mail going to `sink` and links on https://voicemark.test.
pub fn smtp_state(app: &TestApp, sink: &SmtpSink) -> AppState {
    let mut config = (*app.state.config).clone();
    config.mail.smtp_url = Some(sink.url());
    config.public_url = "https://voicemark.test".into();
    AppState::new(app.db.clone(), config).expect("state")
}

/// Runs due jobs until none is ready; returns how many ran.
pub async fn drain(state: &AppState) -> usize {
    let registry = Registry::standard();
    let settings = WorkerSettings::default();
    let mut ran = 0;
    loop {
        match run_once(state, &registry, "test-worker", &settings)
            .await
            .expect("run")
        {
            Outcome::Idle => return ran,
            Outcome::Done(_) => ran += 1,
            Outcome::Failed { job, error } => {
                panic!("job {} ({}) failed: {error}", job.id, job.kind)
            }
            // `run_once` is never asked to stop.
            Outcome::HandedBack(job) => panic!("job {} was handed back", job.id),
        }
    }
}

async fn preference(
    conn: &mut DbConn<'_>,
    email: &str,
    assignment: bool,
    frequency: NotificationFrequency,
) {
    let at = now();
    email_preferences::insert(
        conn,
        &NewEmailPreference {
            email: email.into(),
            language: "en".into(),
            general: true,
            assignment,
            frequency,
            token: new_token(),
            created_at: at,
            updated_at: at,
        },
    )
    .await
    .expect("preference");
}

fn links(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            text[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "/:._-".contains(*c))
                .collect()
        })
        .collect()
}

dual_test!(
    async fn an_assignment_reaches_pupils_and_parents_as_they_chose(app: TestApp) {
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = make_school(&mut conn, "Send School").await;
        let teacher = make_teacher(&mut conn, &school).await;
        let class = make_class(&mut conn, &school, "Science").await;
        let mut ids = Vec::new();
        for (forename, surname, email, parent) in [
            ("Ada", "Lovelace", true, true),
            ("Ben", "Bishop", true, true),
            ("Cal", "Carter", false, true),
            ("Dot", "Dixon", true, false),
        ] {
            let id = make_pupil(
                &mut conn,
                &school,
                PupilSpec {
                    email,
                    parent,
                    ..simple(forename, surname)
                },
            )
            .await;
            students::add_to_class(&mut conn, &id, &class)
                .await
                .expect("join");
            ids.push(id);
        }
        // Ben's parent wants no assignment e-mail; Cal's parent wants a daily digest.
        preference(
            &mut conn,
            "parent.ben@families.test",
            false,
            NotificationFrequency::Immediately,
        )
        .await;
        preference(
            &mut conn,
            "parent.cal@families.test",
            true,
            NotificationFrequency::Daily,
        )
        .await;

        let notification = make_notification(
            &mut conn,
            &school,
            &teacher,
            NotificationSpec {
                kind: NotificationType::Assignment,
                filters: Filters {
                    classes: vec![class.clone()],
                    ..Filters::default()
                },
                to_pupil: true,
                to_parent: true,
                send_date: Some(now() - chrono::Duration::minutes(1)),
            },
        )
        .await;
        queue_send(&mut conn, &notification, "v1").await;
        drain(&state).await;

        // A receipt and a submission per pupil.
        let receipts: Vec<(String, Option<NaiveDateTime>)> =
            with_conn!(&mut conn, |c| notification_receipts::table
                .filter(notification_receipts::notification_id.eq(&notification))
                .select((
                    notification_receipts::student_id,
                    notification_receipts::sent_at
                ))
                .load(c)
                .await)
            .expect("receipts");
        assert_eq!(receipts.len(), 4);
        assert!(receipts.iter().all(|(_, at)| at.is_some()));
        let subs: Vec<(String, String, String)> = with_conn!(&mut conn, |c| submissions::table
            .filter(submissions::notification_id.eq(&notification))
            .select((submissions::id, submissions::token, submissions::student_id))
            .load(c)
            .await)
        .expect("submissions");
        assert_eq!(subs.len(), 4);

        // Ada, Ada's parent, Ben, Dot: four messages now.
        let messages = sink.messages();
        assert_eq!(
            messages.len(),
            4,
            "{:?}",
            messages.iter().map(|m| &m.to).collect::<Vec<_>>()
        );
        let ada = &sink.to("ada@pupils.test")[..];
        assert_eq!(ada.len(), 1);
        assert_eq!(ada[0].from, "no-reply@voicemark.app");
        let (sub_id, sub_token, _) = subs
            .iter()
            .find(|(_, _, s)| s == &ids[0])
            .expect("ada's submission");
        let text = ada[0].text();
        assert!(
            text.contains(&format!(
                "https://voicemark.test/submissions/{sub_id}/{sub_token}"
            )),
            "{text}"
        );
        let ada_pref = email_preferences::find(&mut conn, "ada@pupils.test")
            .await
            .expect("q")
            .expect("made");
        assert!(text.contains(&format!(
            "https://voicemark.test/preferences/{}",
            ada_pref.token
        )));
        assert_eq!(
            ada[0]
                .header("Message-ID")
                .map(|m| m.ends_with("@voicemark>")),
            Some(true)
        );
        assert!(ada[0]
            .header("Subject")
            .expect("subject")
            .contains("Volcano project"));

        let parent = &sink.to("parent.ada@families.test")[..];
        assert_eq!(parent.len(), 1);
        let text = parent[0].text();
        assert!(text.contains("Ada Lovelace"));
        assert!(
            links(&text, "https://voicemark.test/submissions/").is_empty(),
            "parents get no hand-in link"
        );
        let parent_pref = email_preferences::find(&mut conn, "parent.ada@families.test")
            .await
            .expect("q")
            .expect("made");
        assert!(text.contains(&format!(
            "https://voicemark.test/preferences/{}",
            parent_pref.token
        )));

        assert_eq!(sink.to("ben@pupils.test").len(), 1);
        assert!(
            sink.to("parent.ben@families.test").is_empty(),
            "assignment switch off"
        );
        assert_eq!(sink.to("dot@pupils.test").len(), 1);
        assert!(
            sink.to("parent.cal@families.test").is_empty(),
            "daily digest: not yet"
        );

        // Sending again (an edit queues a new job) adds nothing.
        queue_send(&mut conn, &notification, "v2").await;
        drain(&state).await;
        assert_eq!(sink.count(), 4);

        // The digest is queued for later; when its time comes, one message with the assignment.
        let digest: (String, NaiveDateTime) = with_conn!(&mut conn, |c| jobs_table::table
            .filter(jobs_table::kind.eq("email.digest"))
            .select((jobs_table::id, jobs_table::run_at))
            .first(c)
            .await)
        .expect("a digest job");
        assert!(digest.1 > now());
        with_conn!(&mut conn, |c| diesel::update(
            jobs_table::table.find(&digest.0)
        )
        .set(jobs_table::run_at.eq(now()))
        .execute(c)
        .await)
        .expect("time passes");
        drain(&state).await;
        let digests = sink.to("parent.cal@families.test");
        assert_eq!(digests.len(), 1);
        assert!(digests[0]
            .header("Subject")
            .expect("subject")
            .contains("daily summary"));
        assert!(digests[0].text().contains("Volcano project"));
        assert_eq!(sink.count(), 5);

        // Feedback: marked POSITIVE, e-mailed to Ada and (the notification went to parents) her parent.
        let at = now();
        with_conn!(&mut conn, |c| diesel::update(
            submissions::table.find(sub_id)
        )
        .set((
            submissions::received_at.eq(Some(at)),
            submissions::marked_at.eq(Some(at)),
            submissions::feedback_released_at.eq(Some(at)),
            submissions::feedback.eq(Some("Lovely lava flow.")),
            submissions::feedback_sentiment.eq(Some(FeedbackSentiment::Positive)),
        ))
        .execute(c)
        .await)
        .expect("mark");
        for _ in 0..2 {
            voicemark::models::jobs::insert(
                &mut conn,
                &NewJob {
                    kind: "feedback.email".into(),
                    payload: json!({ "submissionId": sub_id }),
                    run_at: now(),
                    idempotency_key: Some(format!("feedback:{sub_id}:{at}")),
                },
            )
            .await
            .expect("enqueue");
        }
        drain(&state).await;
        let feedback = sink.to("ada@pupils.test");
        assert_eq!(feedback.len(), 2);
        let text = feedback[1].text();
        assert!(
            text.contains("Lovely lava flow.") && text.contains("Positive"),
            "{text}"
        );
        assert!(text.contains(&format!(
            "https://voicemark.test/submissions/{sub_id}/{sub_token}"
        )));
        assert_eq!(sink.to("parent.ada@families.test").len(), 2);
        assert_eq!(sink.count(), 7);
    }
);

dual_test!(
    async fn nothing_goes_out_before_the_send_date_or_for_a_deleted_notification(app: TestApp) {
        let sink = SmtpSink::start().await;
        let state = smtp_state(&app, &sink);
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = make_school(&mut conn, "Later School").await;
        let teacher = make_teacher(&mut conn, &school).await;
        let pupil = make_pupil(&mut conn, &school, simple("Eli", "Early")).await;
        let later = make_notification(
            &mut conn,
            &school,
            &teacher,
            NotificationSpec {
                kind: NotificationType::General,
                filters: Filters {
                    students: vec![pupil.clone()],
                    ..Filters::default()
                },
                to_pupil: true,
                to_parent: true,
                send_date: Some(now() + chrono::Duration::hours(2)),
            },
        )
        .await;
        // A job that runs early (the date was moved later after it was queued) does nothing.
        queue_send(&mut conn, &later, "early").await;
        drain(&state).await;
        assert_eq!(sink.count(), 0);
        let receipts: i64 = with_conn!(&mut conn, |c| notification_receipts::table
            .filter(notification_receipts::notification_id.eq(&later))
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(receipts, 0);
        // A job for a notification that no longer exists does nothing either.
        queue_send(&mut conn, "no-such-notification", "x").await;
        assert_eq!(drain(&state).await, 1);
        assert_eq!(sink.count(), 0);
    }
);

/// Time to write receipts and queue mail for `pupils` pupils with parents, and the SMTP
/// delivery rate of the real workers to the loopback sink. Prints figures; asserts counts only.
async fn measure(app: &TestApp, pupils: usize) {
    let sink = SmtpSink::start().await;
    let state = smtp_state(app, &sink);
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let school = make_school(&mut conn, "Bench School").await;
    let teacher = make_teacher(&mut conn, &school).await;
    let year = groups::year_group_id(&mut conn, &school, &format!("Bench {}", &new_id()[24..]))
        .await
        .expect("year");
    bulk_pupils(&mut conn, &school, Some(&year), pupils).await;
    let notification = make_notification(
        &mut conn,
        &school,
        &teacher,
        NotificationSpec {
            kind: NotificationType::Assignment,
            filters: Filters {
                year_groups: vec![year],
                ..Filters::default()
            },
            to_pupil: true,
            to_parent: true,
            send_date: None,
        },
    )
    .await;
    let started = std::time::Instant::now();
    let summary = voicemark::transaction!(&mut conn, |c| {
        jobs::notification_send::send_notification(c, &notification, now(), 16).await
    })
    .expect("send");
    let write = started.elapsed();
    assert_eq!(summary.receipts_written, pupils);
    assert_eq!(summary.emails_queued, pupils * 2);
    drop(pooled);
    println!(
        "\nFIGURE {} send: {pupils} pupils, {} receipts + {} submissions + {} e-mail jobs in {:.0} ms",
        app.backend().as_str(),
        summary.receipts_written,
        summary.submissions_created,
        summary.emails_queued,
        write.as_secs_f64() * 1000.0
    );
    // Mailer alone, one sender on one connection: 500 messages in a row.
    let mailer = state.mailer.clone();
    let started = std::time::Instant::now();
    for i in 0..500 {
        let email = voicemark::mail::Template::Notification
            .render(&[("title", "Rate"), ("greeting", "Hello,")]);
        mailer
            .send_with_id(
                &format!("one{i}@sink.test"),
                email,
                Some(&format!("one-{i}")),
            )
            .await
            .expect("send");
    }
    let elapsed = started.elapsed();
    println!(
        "FIGURE {} smtp: 500 messages from 1 task over one connection in {:.2} s = {:.0} messages/s",
        app.backend().as_str(),
        elapsed.as_secs_f64(),
        500.0 / elapsed.as_secs_f64()
    );
    // Mailer alone: 2,000 messages from 16 tasks over the pooled SMTP connections.
    let started = std::time::Instant::now();
    let mut tasks = Vec::new();
    for t in 0..16 {
        let mailer = mailer.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..125 {
                let email = voicemark::mail::Template::Notification
                    .render(&[("title", "Rate"), ("greeting", "Hello,")]);
                mailer
                    .send_with_id(
                        &format!("rate{t}.{i}@sink.test"),
                        email,
                        Some(&format!("rate-{t}-{i}")),
                    )
                    .await
                    .expect("send");
            }
        }));
    }
    for task in tasks {
        task.await.expect("sender");
    }
    let elapsed = started.elapsed();
    println!(
        "FIGURE {} smtp: 2000 messages from 16 tasks through the pooled mailer in {:.2} s = {:.0} messages/s",
        app.backend().as_str(),
        elapsed.as_secs_f64(),
        2000.0 / elapsed.as_secs_f64()
    );
    let before = sink.count();
    // The default number of job workers (`VOICEMARK_JOB_WORKERS` unset).
    let settings = WorkerSettings {
        poll_interval: Duration::from_millis(20),
        ..WorkerSettings::default()
    };
    let worker_count = settings.workers;
    let started = std::time::Instant::now();
    let workers = jobs::Workers::start(state.clone(), Registry::standard(), settings);
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    while sink.count() < before + pupils * 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "only {} delivered",
            sink.count()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let elapsed = started.elapsed();
    workers.shutdown().await;
    println!(
        "FIGURE {} delivery: {} messages through {worker_count} job workers (the default) to loopback SMTP in {:.2} s = {:.0} messages/s",
        app.backend().as_str(),
        pupils * 2,
        elapsed.as_secs_f64(),
        (pupils * 2) as f64 / elapsed.as_secs_f64()
    );
}

/// Inserts `n` pupils with e-mail and parent e-mail, in one transaction.
pub async fn bulk_pupils(
    conn: &mut DbConn<'_>,
    school: &str,
    year: Option<&str>,
    n: usize,
) -> Vec<String> {
    let result: Result<Vec<String>, diesel::result::Error> = voicemark::transaction!(conn, |c| {
        let mut ids = Vec::with_capacity(n);
        for i in 0..n {
            let at = now();
            let pupil = students::NewStudent {
                id: new_id(),
                created_at: at,
                updated_at: at,
                forename: format!("P{i:04}"),
                surname: format!("Pupil{i:04}"),
                email: Some(format!("p{i:04}@pupils.test")),
                parent_email: Some(format!("parent.p{i:04}@families.test")),
                upn: None,
                school_id: school.into(),
                year_group_id: year.map(str::to_owned),
                form_group_id: None,
            };
            students::insert(c, &pupil).await?;
            ids.push(pupil.id);
        }
        Ok(ids)
    });
    result.expect("pupils")
}

/// `bash bench/send.sh` runs these two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: bash bench/send.sh"]
async fn bench_send_2000_sqlite() {
    measure(
        &TestApp::new(crate::support::TestBackend::Sqlite).await,
        2000,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: bash bench/send.sh"]
async fn bench_send_2000_postgres() {
    if crate::support::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    measure(
        &TestApp::new(crate::support::TestBackend::Postgres).await,
        2000,
    )
    .await;
}

/// The real binary is killed (SIGKILL) while it sends to 500 pupils and their parents, then
/// started again: every address ends with exactly one message (one Message-ID). A message
/// the SMTP server accepted just before the kill, whose job had not yet committed `DONE`, is
/// sent once more after the restart with the same Message-ID: the documented window, at
/// most one copy per worker busy at the moment of the crash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_send_killed_half_way_delivers_each_message_once_after_restart() {
    use std::collections::{HashMap, HashSet};
    use std::process::{Command, Stdio};

    let (url, dir, _guard) =
        crate::support::fresh_database(crate::support::TestBackend::Sqlite).await;
    let pupils = 500;
    {
        let db = voicemark::db::Db::connect(&url, 2).await.expect("connect");
        db.migrate().await.expect("migrate");
        let mut pooled = db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = make_school(&mut conn, "Crash School").await;
        let teacher = make_teacher(&mut conn, &school).await;
        let year = groups::year_group_id(&mut conn, &school, "Year 9")
            .await
            .expect("year");
        bulk_pupils(&mut conn, &school, Some(&year), pupils).await;
        let notification = make_notification(
            &mut conn,
            &school,
            &teacher,
            NotificationSpec {
                kind: NotificationType::General,
                filters: Filters {
                    year_groups: vec![year],
                    ..Filters::default()
                },
                to_pupil: true,
                to_parent: true,
                send_date: None,
            },
        )
        .await;
        queue_send(&mut conn, &notification, "v1").await;
    }
    let sink = SmtpSink::start().await;
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_voicemark"))
            .args(["serve", "--bind", "127.0.0.1:0"])
            .env("VOICEMARK_DATA_DIR", &dir)
            .env("DATABASE_URL", url.as_str())
            .env("VOICEMARK_SMTP_URL", sink.url())
            .env("VOICEMARK_JOB_WORKERS", "4")
            .env("VOICEMARK_JOB_POLL_MS", "50")
            .env("VOICEMARK_JOB_LEASE_SECONDS", "2")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start voicemark")
    };
    let expected = pupils * 2;
    let mut first = start();
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while sink.count() < expected / 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "only {} sent before the kill",
            sink.count()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    first.kill().expect("SIGKILL");
    first.wait().expect("reap");
    let at_kill = sink.count();
    assert!(at_kill < expected, "the kill came after the whole send");

    let mut second = start();
    let db = voicemark::db::Db::connect(&url, 1).await.expect("connect");
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    loop {
        let mut pooled = db.conn().await.expect("connection");
        // The chains queued at start wait for their time (the file expiry sweep its 10-minute
        // slot, the Insights preparation 04:00): not this send's.
        let open: i64 = with_conn!(pooled.db(), |c| jobs_table::table
            .filter(jobs_table::status.ne(jobs::status::DONE))
            .filter(jobs_table::kind.ne(voicemark::jobs::file_expiry::KIND))
            .filter(jobs_table::kind.ne(voicemark::jobs::insights_prepare::KIND))
            .count()
            .get_result(c)
            .await)
        .expect("count");
        if open == 0 && sink.count() >= expected {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{open} jobs open, {} messages after the restart",
            sink.count()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A clean stop this time.
    let _ = Command::new("kill")
        .arg("-TERM")
        .arg(second.id().to_string())
        .status();
    let stopped = tokio::task::spawn_blocking(move || second.wait())
        .await
        .expect("join")
        .expect("wait");
    assert!(
        stopped.success(),
        "SIGTERM stops the server cleanly: {stopped:?}"
    );

    let messages = sink.messages();
    let mut by_recipient: HashMap<String, (usize, HashSet<String>)> = HashMap::new();
    for m in &messages {
        let id = m
            .header("Message-ID")
            .expect("every message has a Message-ID");
        for to in &m.to {
            let entry = by_recipient.entry(to.clone()).or_default();
            entry.0 += 1;
            entry.1.insert(id.clone());
        }
    }
    assert_eq!(
        by_recipient.len(),
        expected,
        "every pupil and parent got mail"
    );
    for (to, (_, ids)) in &by_recipient {
        assert_eq!(ids.len(), 1, "{to} got {} different messages", ids.len());
    }
    let copies: usize = by_recipient.values().map(|(n, _)| n - 1).sum();
    println!(
        "crash test: {at_kill} of {expected} delivered before SIGKILL; {} messages in all; {copies} resent with the same Message-ID",
        messages.len()
    );
    assert!(
        copies <= 4,
        "at most one copy per worker busy at the kill, got {copies}"
    );
}
