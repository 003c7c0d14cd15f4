//! Bounces and refused addresses (issue 29 item 2, docs/bounces.md): an SMTP refusal at
//! send marks the delivery Not sent / REFUSED and refuses the address, which stops every
//! further e-mail until an admin saves the address again; SendGrid's signed Event Webhook
//! (unsigned and badly signed posts refused); a delivery status notification read from a
//! local IMAP stand-in that speaks the real protocol; VERP envelope senders.

use axum::body::Body;
use axum::http::Request;
use base64::Engine;
use chrono::NaiveDateTime;
use core_wasm::{NotificationFrequency, NotificationType, UserRole};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::EncodePublicKey;
use serde_json::json;
use voicemark::app::router;
use voicemark::db::schema::{deliveries, jobs as jobs_table};
use voicemark::ids::{new_id, new_token};
use voicemark::jobs::audience::Audience;
use voicemark::jobs::bounce_poll::PollBounces;
use voicemark::jobs::email_account::{AccountEmail, AccountMessage};
use voicemark::jobs::email_notification::NotificationEmail;
use voicemark::jobs::worker::{run_once, Outcome};
use voicemark::jobs::{enqueue, Registry, WorkerSettings};
use voicemark::models::email_preferences::{self, NewEmailPreference};
use voicemark::models::recipients::Filters;
use voicemark::models::{address_refusals, now};
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::admin::mutate;
use crate::dual_test;
use crate::sending::smtp::SmtpSink;
use crate::sending::{
    make_notification, make_pupil, make_school, make_teacher, simple, smtp_state,
    NotificationSpec,
};
use crate::support::{leader_in, send, TestApp};

const PUPIL: &str = "ada@pupils.test";
const PARENT: &str = "parent.ada@families.test";
const BOUNCES: &str = "bounces@mail.school.example";

/// A school with pupil Ada (her and her parent's addresses), a sent notification to both,
/// and a `deliveries` row for each (as the send writes them).
struct World {
    school: String,
    pupil: String,
    notification: String,
    pupil_delivery: String,
    parent_delivery: String,
}

async fn world(app: &TestApp, sent_at: Option<NaiveDateTime>) -> World {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut conn = pooled.db();
    let school = make_school(&mut conn, "Bounce School").await;
    let teacher = make_teacher(&mut conn, &school).await;
    let pupil = make_pupil(&mut conn, &school, simple("Ada", "Lovelace")).await;
    let notification = make_notification(
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
            send_date: None,
        },
    )
    .await;
    for address in [PUPIL, PARENT] {
        let at = now();
        email_preferences::insert(
            &mut conn,
            &NewEmailPreference {
                email: address.into(),
                language: "en".into(),
                general: true,
                assignment: true,
                frequency: NotificationFrequency::Immediately,
                token: new_token(),
                created_at: at,
                updated_at: at,
            },
        )
        .await
        .expect("preference");
    }
    let mut ids = Vec::new();
    for (audience, address) in [("pupil", PUPIL), ("parent", PARENT)] {
        let id = new_id();
        let row = (
            deliveries::id.eq(id.clone()),
            deliveries::school_id.eq(school.clone()),
            deliveries::notification_id.eq(notification.clone()),
            deliveries::student_id.eq(pupil.clone()),
            deliveries::audience.eq(audience),
            deliveries::address.eq(Some(address)),
            deliveries::created_at.eq(now()),
            deliveries::sent_at.eq(sent_at),
        );
        with_conn!(&mut conn, |c| diesel::insert_into(deliveries::table)
            .values(row.clone())
            .execute(c)
            .await)
        .expect("delivery");
        ids.push(id);
    }
    World {
        school,
        pupil,
        notification,
        pupil_delivery: ids[0].clone(),
        parent_delivery: ids[1].clone(),
    }
}

/// (not_sent_reason, bounced_at is set, bounce_reason) of delivery `id`.
async fn delivery(app: &TestApp, id: &str) -> (Option<String>, bool, Option<String>) {
    let mut pooled = app.db.conn().await.expect("connection");
    let (reason, bounced, words): (Option<String>, Option<NaiveDateTime>, Option<String>) =
        with_conn!(pooled.db(), |c| deliveries::table
            .find(id)
            .select((
                deliveries::not_sent_reason,
                deliveries::bounced_at,
                deliveries::bounce_reason,
            ))
            .first(c)
            .await)
        .expect("delivery");
    (reason, bounced.is_some(), words)
}

async fn refusal(app: &TestApp, address: &str) -> Option<String> {
    let mut pooled = app.db.conn().await.expect("connection");
    address_refusals::find(&mut pooled.db(), address)
        .await
        .expect("refusal")
        .map(|r| r.reason)
}

/// Runs due jobs until none is ready: (kinds done, (kind, error) of those failed).
async fn run_all(state: &AppState) -> (Vec<String>, Vec<(String, String)>) {
    let registry = Registry::standard();
    let settings = WorkerSettings::default();
    let (mut done, mut failed) = (Vec::new(), Vec::new());
    loop {
        match run_once(state, &registry, "test-worker", &settings)
            .await
            .expect("run")
        {
            Outcome::Idle => return (done, failed),
            Outcome::Done(job) => done.push(job.kind),
            Outcome::Failed { job, error } => failed.push((job.kind, error)),
            Outcome::HandedBack(job) => panic!("job {} was handed back", job.id),
        }
    }
}

async fn job_status(app: &TestApp, kind: &str) -> Vec<(String, Option<String>)> {
    let mut pooled = app.db.conn().await.expect("connection");
    with_conn!(pooled.db(), |c| jobs_table::table
        .filter(jobs_table::kind.eq(kind))
        .order(jobs_table::created_at.asc())
        .select((jobs_table::status, jobs_table::last_error))
        .load(c)
        .await)
    .expect("jobs")
}

async fn queue_account_email(app: &TestApp, to: &str) {
    let mut pooled = app.db.conn().await.expect("connection");
    AccountEmail {
        to: to.into(),
        message: AccountMessage::PasswordReset,
        forename: "Ada".into(),
        link: "https://voicemark.test/account/reset?token=x".into(),
    }
    .queue(&mut pooled.db())
    .await
    .expect("queue");
}

dual_test!(
    async fn an_smtp_refusal_stops_mail_to_the_address_until_an_admin_saves_it(app: TestApp) {
        let w = world(&app, None).await;
        let sink = SmtpSink::start().await;
        sink.refuse(PARENT);
        let mut state = smtp_state(&app, &sink);
        let mut config = (*state.config).clone();
        config.bounces.address = Some(BOUNCES.into());
        state = AppState::new(app.db.clone(), config).expect("state");
        {
            let mut pooled = app.db.conn().await.expect("connection");
            for (audience, to) in [(Audience::Pupil, PUPIL), (Audience::Parent, PARENT)] {
                let job = NotificationEmail {
                    notification_id: w.notification.clone(),
                    student_id: w.pupil.clone(),
                    audience,
                    to: to.into(),
                };
                let key = job.key();
                enqueue(&mut pooled.db(), &job, now(), Some(key)).await.expect("queue");
            }
        }
        let (done, failed) = run_all(&state).await;
        assert_eq!(done, vec!["email.notification"]);
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(failed[0].1.contains("550 5.1.1 User unknown"), "{failed:?}");

        // The pupil's message went, marked for bounces: VERP sender and SendGrid's argument.
        let to_pupil = sink.to(PUPIL);
        assert_eq!(to_pupil.len(), 1);
        assert_eq!(
            to_pupil[0].from,
            format!("bounces+{}@mail.school.example", w.pupil_delivery)
        );
        let smtpapi = to_pupil[0].header("X-SMTPAPI").expect("X-SMTPAPI");
        assert!(smtpapi.contains(&w.pupil_delivery), "{smtpapi}");
        assert_eq!(delivery(&app, &w.pupil_delivery).await, (None, false, None));

        // The parent's was refused: Not sent / REFUSED in the server's words, address refused,
        // the job FAILED at once (one attempt, no retry).
        assert!(sink.to(PARENT).is_empty());
        assert_eq!(
            delivery(&app, &w.parent_delivery).await,
            (Some("REFUSED".into()), false, Some("550 5.1.1 User unknown".into()))
        );
        assert_eq!(refusal(&app, PARENT).await.as_deref(), Some("550 5.1.1 User unknown"));
        let statuses = job_status(&app, "email.notification").await;
        assert_eq!(statuses.iter().filter(|(s, _)| s == "FAILED").count(), 1);

        // Nothing more goes to the refused address, whatever the e-mail (here a password
        // reset), even once the server would take it again.
        sink.refused.lock().expect("lock").clear();
        queue_account_email(&app, PARENT).await;
        let (done, failed) = run_all(&state).await;
        assert!(done.is_empty(), "{done:?}");
        assert_eq!(failed.len(), 1);
        assert!(failed[0].1.starts_with("not sent: parent.ada@families.test was refused"), "{failed:?}");
        assert!(sink.to(PARENT).is_empty());

        // The admin saves the pupil's record with the same address: the refusal is lifted
        // and mail goes again.
        let (_, admin) = leader_in(&app, &w.school, UserRole::Admin).await;
        let saved = mutate(
            &app,
            &admin,
            "admin.savePupil",
            json!({
                "id": w.pupil, "forename": "Ada", "surname": "Lovelace", "email": PUPIL,
                "parentEmail": "Parent.Ada@families.test", "upn": null, "yearGroupId": null,
                "formGroupId": null, "classIds": [],
            }),
            &[],
        )
        .await
        .expect("saved");
        assert_eq!(saved["parentEmail"], PARENT);
        assert_eq!(refusal(&app, PARENT).await, None);
        queue_account_email(&app, PARENT).await;
        let (done, failed) = run_all(&state).await;
        assert_eq!((done.len(), failed.len()), (1, 0), "{failed:?}");
        assert_eq!(sink.to(PARENT).len(), 1);
    }
);

/// A fixed test key (SendGrid's is made by SendGrid; only its public half is configured).
fn signing_key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32].into()).expect("key")
}

fn public_key(key: &SigningKey) -> String {
    let der = key.verifying_key().to_public_key_der().expect("der");
    base64::engine::general_purpose::STANDARD.encode(der.as_bytes())
}

fn sign(key: &SigningKey, timestamp: &str, body: &str) -> String {
    let signed = [timestamp.as_bytes(), body.as_bytes()].concat();
    let signature: Signature = key.sign(&signed);
    base64::engine::general_purpose::STANDARD.encode(signature.to_der().as_bytes())
}

async fn post_events(state: &AppState, body: &str, signature: Option<&str>) -> u16 {
    let mut request = Request::post("/api/webhooks/sendgrid").header("content-type", "application/json");
    if let Some(signature) = signature {
        request = request
            .header("X-Twilio-Email-Event-Webhook-Signature", signature)
            .header("X-Twilio-Email-Event-Webhook-Timestamp", "1764500000");
    }
    let request = request.body(Body::from(body.to_owned())).expect("request");
    send(router(state.clone()), request).await.status.as_u16()
}

dual_test!(
    async fn a_signed_sendgrid_bounce_is_recorded_and_unsigned_ones_change_nothing(app: TestApp) {
        let w = world(&app, Some(now())).await;
        // No key configured: the route is not there.
        assert_eq!(post_events(&app.state, "[]", None).await, 404);

        let key = signing_key(7);
        let mut config = (*app.state.config).clone();
        config.bounces.sendgrid_public_key = Some(public_key(&key));
        let state = AppState::new(app.db.clone(), config).expect("state");
        let hard = json!([
            {"email": PARENT, "event": "bounce", "type": "bounce", "status": "5.1.1",
             "reason": "550 5.1.1 The email account that you tried to reach does not exist",
             "timestamp": 1764500000, "sg_event_id": "e1", "voicemark_delivery": w.parent_delivery},
            {"email": PUPIL, "event": "delivered", "timestamp": 1764500000}
        ])
        .to_string();

        // Unsigned, and signed with another key: 403, nothing changes.
        assert_eq!(post_events(&state, &hard, None).await, 403);
        let wrong = sign(&signing_key(9), "1764500000", &hard);
        assert_eq!(post_events(&state, &hard, Some(&wrong)).await, 403);
        // A right signature over other bytes.
        let other = sign(&key, "1764500000", "[]");
        assert_eq!(post_events(&state, &hard, Some(&other)).await, 403);
        assert_eq!(delivery(&app, &w.parent_delivery).await, (None, false, None));
        assert_eq!(refusal(&app, PARENT).await, None);

        // Signed: Bounced with SendGrid's reason, the address refused.
        let good = sign(&key, "1764500000", &hard);
        assert_eq!(post_events(&state, &hard, Some(&good)).await, 200);
        let reason = "550 5.1.1 The email account that you tried to reach does not exist";
        assert_eq!(
            delivery(&app, &w.parent_delivery).await,
            (None, true, Some(reason.into()))
        );
        assert_eq!(refusal(&app, PARENT).await.as_deref(), Some(reason));
        assert_eq!(delivery(&app, &w.pupil_delivery).await, (None, false, None));

        // A block (soft) without the custom argument: matched by address, Bounced, not refused.
        let blocked = json!([
            {"email": PUPIL, "event": "bounce", "type": "blocked",
             "reason": "421 4.7.0 Try again later", "timestamp": 1764500000}
        ])
        .to_string();
        let signature = sign(&key, "1764500000", &blocked);
        assert_eq!(post_events(&state, &blocked, Some(&signature)).await, 200);
        assert_eq!(
            delivery(&app, &w.pupil_delivery).await,
            (None, true, Some("421 4.7.0 Try again later".into()))
        );
        assert_eq!(refusal(&app, PUPIL).await, None);
    }
);

/// A small IMAP4rev1 server on loopback that serves fixed messages: the commands async-imap
/// sends (CAPABILITY, LOGIN, SELECT, UID SEARCH, UID FETCH, UID STORE, NOOP, LOGOUT).
pub mod imap {
    use std::sync::{Arc, Mutex};

    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    use tokio::net::TcpListener;

    #[derive(Clone, Default)]
    pub struct Mailbox {
        /// (uid, raw message, seen)
        pub messages: Arc<Mutex<Vec<(u32, Vec<u8>, bool)>>>,
        /// Every command received, without its tag.
        pub commands: Arc<Mutex<Vec<String>>>,
    }

    pub struct ImapStandIn {
        pub port: u16,
        pub mailbox: Mailbox,
    }

    impl ImapStandIn {
        pub async fn start(user: &'static str, password: &'static str) -> ImapStandIn {
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind imap");
            let port = listener.local_addr().expect("addr").port();
            let mailbox = Mailbox::default();
            let shared = mailbox.clone();
            tokio::spawn(async move {
                while let Ok((socket, _)) = listener.accept().await {
                    let mailbox = shared.clone();
                    tokio::spawn(async move {
                        let _ = session(socket, mailbox, user, password).await;
                    });
                }
            });
            ImapStandIn { port, mailbox }
        }

        pub fn deliver(&self, raw: &str) {
            let mut messages = self.mailbox.messages.lock().expect("lock");
            let uid = messages.len() as u32 + 1;
            messages.push((uid, raw.as_bytes().to_vec(), false));
        }

        pub fn seen(&self) -> Vec<bool> {
            self.mailbox.messages.lock().expect("lock").iter().map(|m| m.2).collect()
        }
    }

    /// Splits an IMAP command line into words, taking "quoted strings" as one.
    fn words(line: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = line.chars().peekable();
        while let Some(&c) = chars.peek() {
            if c == ' ' {
                chars.next();
            } else if c == '"' {
                chars.next();
                let mut word = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => word.extend(chars.next()),
                        '"' => break,
                        c => word.push(c),
                    }
                }
                out.push(word);
            } else {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c == ' ' {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                out.push(word);
            }
        }
        out
    }

    fn uid_set(set: &str) -> Vec<u32> {
        let mut uids = Vec::new();
        for part in set.split(',') {
            match part.split_once(':') {
                Some((a, b)) => {
                    let a: u32 = a.parse().unwrap_or(1);
                    let b: u32 = b.parse().unwrap_or(u32::MAX);
                    uids.extend(a..=b.min(10_000));
                }
                None => uids.extend(part.parse::<u32>().ok()),
            }
        }
        uids
    }

    async fn session(
        socket: tokio::net::TcpStream,
        mailbox: Mailbox,
        user: &str,
        password: &str,
    ) -> std::io::Result<()> {
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read);
        write
            .write_all(b"* OK [CAPABILITY IMAP4rev1] stand-in ready\r\n")
            .await?;
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            let w = words(line.trim_end());
            let Some((tag, rest)) = w.split_first() else {
                continue;
            };
            mailbox.commands.lock().expect("lock").push(rest.join(" "));
            let upper: Vec<String> = rest.iter().map(|s| s.to_ascii_uppercase()).collect();
            let verb: Vec<&str> = upper.iter().map(String::as_str).collect();
            match verb.as_slice() {
                ["CAPABILITY"] => {
                    write
                        .write_all(format!("* CAPABILITY IMAP4rev1\r\n{tag} OK done\r\n").as_bytes())
                        .await?
                }
                ["LOGIN", ..] => {
                    let ok = rest.get(1).map(String::as_str) == Some(user)
                        && rest.get(2).map(String::as_str) == Some(password);
                    let answer = if ok { "OK LOGIN completed" } else { "NO LOGIN failed" };
                    write.write_all(format!("{tag} {answer}\r\n").as_bytes()).await?
                }
                ["SELECT", ..] => {
                    let n = mailbox.messages.lock().expect("lock").len();
                    write
                        .write_all(
                            format!(
                                "* FLAGS (\\Seen)\r\n* {n} EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 1] UIDs valid\r\n* OK [UIDNEXT {}] next\r\n{tag} OK [READ-WRITE] SELECT completed\r\n",
                                n + 1
                            )
                            .as_bytes(),
                        )
                        .await?
                }
                ["UID", "SEARCH", "UNSEEN"] => {
                    let unseen: Vec<String> = mailbox
                        .messages
                        .lock()
                        .expect("lock")
                        .iter()
                        .filter(|m| !m.2)
                        .map(|m| m.0.to_string())
                        .collect();
                    let found = if unseen.is_empty() {
                        "* SEARCH\r\n".to_owned()
                    } else {
                        format!("* SEARCH {}\r\n", unseen.join(" "))
                    };
                    write
                        .write_all(format!("{found}{tag} OK SEARCH completed\r\n").as_bytes())
                        .await?
                }
                ["UID", "FETCH", ..] => {
                    let wanted = uid_set(&rest[2]);
                    let messages = mailbox.messages.lock().expect("lock").clone();
                    for (seq, (uid, raw, _)) in messages.iter().enumerate() {
                        if wanted.contains(uid) {
                            write
                                .write_all(
                                    format!("* {} FETCH (UID {uid} BODY[] {{{}}}\r\n", seq + 1, raw.len())
                                        .as_bytes(),
                                )
                                .await?;
                            write.write_all(raw).await?;
                            write.write_all(b")\r\n").await?;
                        }
                    }
                    write
                        .write_all(format!("{tag} OK FETCH completed\r\n").as_bytes())
                        .await?
                }
                ["UID", "STORE", ..] => {
                    let wanted = uid_set(&rest[2]);
                    let seen = upper.iter().any(|w| w.contains("\\SEEN"));
                    for m in mailbox.messages.lock().expect("lock").iter_mut() {
                        if wanted.contains(&m.0) && seen {
                            m.2 = true;
                        }
                    }
                    write
                        .write_all(format!("{tag} OK STORE completed\r\n").as_bytes())
                        .await?
                }
                ["NOOP"] => write.write_all(format!("{tag} OK NOOP\r\n").as_bytes()).await?,
                ["LOGOUT"] => {
                    write
                        .write_all(format!("* BYE logging out\r\n{tag} OK LOGOUT completed\r\n").as_bytes())
                        .await?;
                    return Ok(());
                }
                _ => write.write_all(format!("{tag} BAD unknown command\r\n").as_bytes()).await?,
            }
        }
    }
}

/// A Postfix-style delivery status notification for `recipient`, sent back to `to`.
fn dsn(to: &str, recipient: &str) -> String {
    format!(
        "Return-Path: <>\r\n\
From: Mail Delivery System <MAILER-DAEMON@mx.school.example>\r\n\
To: {to}\r\n\
Subject: Undelivered Mail Returned to Sender\r\n\
Auto-Submitted: auto-replied\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=delivery-status;\r\n\
\tboundary=\"DSN.b1\"\r\n\
\r\n\
--DSN.b1\r\n\
Content-Type: text/plain; charset=us-ascii\r\n\
\r\n\
I'm sorry to have to inform you that your message could not be delivered.\r\n\
\r\n\
--DSN.b1\r\n\
Content-Description: Delivery report\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; mx.school.example\r\n\
Arrival-Date: Sun, 30 Nov 2026 10:00:00 +0000 (GMT)\r\n\
\r\n\
Final-Recipient: rfc822; {recipient}\r\n\
Original-Recipient: rfc822;{recipient}\r\n\
Action: failed\r\n\
Status: 5.1.1\r\n\
Remote-MTA: dns; mx.families.test\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address rejected:\r\n\
\tUser unknown in virtual mailbox table\r\n\
\r\n\
--DSN.b1\r\n\
Content-Description: Undelivered Message Headers\r\n\
Content-Type: text/rfc822-headers\r\n\
\r\n\
From: Voicemark <no-reply@voicemark.app>\r\n\
To: {recipient}\r\n\
Subject: Volcano project\r\n\
\r\n\
--DSN.b1--\r\n"
    )
}

dual_test!(
    async fn a_dsn_in_the_imap_bounce_mailbox_marks_the_delivery_bounced(app: TestApp) {
        let w = world(&app, Some(now())).await;
        let server = imap::ImapStandIn::start("bounces", "mailbox-secret").await;
        server.deliver(&dsn(
            &format!("bounces+{}@mail.school.example", w.parent_delivery),
            PARENT,
        ));
        server.deliver("From: someone@families.test\r\nTo: bounces@mail.school.example\r\nSubject: Out of office\r\n\r\nI am away.\r\n");
        let mut config = (*app.state.config).clone();
        config.bounces.address = Some(BOUNCES.into());
        config.bounces.imap_url = Some(format!(
            "imap://bounces:mailbox-secret@127.0.0.1:{}/INBOX",
            server.port
        ));
        let state = AppState::new(app.db.clone(), config).expect("state");
        {
            let mut pooled = app.db.conn().await.expect("connection");
            enqueue(&mut pooled.db(), &PollBounces {}, now(), Some("bounces.poll:test".into()))
                .await
                .expect("queue");
        }
        let (done, failed) = run_all(&state).await;
        assert_eq!((done, failed), (vec!["bounces.poll".to_owned()], vec![]));
        let reason = format!(
            "550 5.1.1 <{PARENT}>: Recipient address rejected: User unknown in virtual mailbox table"
        );
        assert_eq!(
            delivery(&app, &w.parent_delivery).await,
            (None, true, Some(reason.clone()))
        );
        assert_eq!(refusal(&app, PARENT).await, Some(reason));
        assert_eq!(delivery(&app, &w.pupil_delivery).await, (None, false, None));
        // Both messages were read and marked seen, the DSN's body fetched without marking
        // it first; the run queued the next read.
        assert_eq!(server.seen(), vec![true, true]);
        let commands = server.mailbox.commands.lock().expect("lock").clone();
        assert!(commands.iter().any(|c| c.contains("BODY.PEEK[]")), "{commands:?}");
        assert!(commands.iter().any(|c| c == "LOGOUT"), "{commands:?}");
        let next = job_status(&app, "bounces.poll").await;
        assert_eq!(next.len(), 2, "the next read is queued: {next:?}");
        assert_eq!(next.iter().filter(|(s, _)| s == "QUEUED").count(), 1);
    }
);
