//! `bounces.poll` `{}`: reads the IMAP bounce mailbox (`VOICEMARK_BOUNCE_IMAP_URL`) for
//! delivery status notifications (RFC 3464) and records the bounces they report
//! (docs/bounces.md). Scheduled like `files.expire`: `serve` queues one at start when the
//! mailbox is set, and each run queues the next `VOICEMARK_BOUNCE_POLL_MINUTES` later (one
//! job per time slot: key `bounces.poll:{slot}`), so restarts and several processes share
//! one chain.
//!
//! A run logs in, selects the mailbox, asks for the unseen messages (`UID SEARCH UNSEEN`),
//! fetches at most [`MAX_MESSAGES`] of them without marking them (`BODY.PEEK[]`), reads each
//! with `mail-parser`, records every bounce in one transaction, and only then marks them
//! `\Seen` (never deletes them: the mailbox stays for the operator to read). A crash before
//! the `\Seen` reads them again next time, which changes nothing more (a bounced delivery
//! keeps its first reason).
//!
//! Reading a DSN: the `message/delivery-status` part's per-recipient fields, `Action: failed`
//! only (a `delayed` report is not a bounce). `Status: 5.x.x` is hard (the address is
//! refused), `4.x.x` soft (the delivery is Bounced, the address not refused). The address is
//! `Final-Recipient`, the reason `Diagnostic-Code` (else the status). The delivery is the
//! VERP token of the address the report came back to (`bounces+{delivery id}@…`), checked
//! against the delivery's own address; without one, the recent deliveries to that address.

use std::sync::Arc;

use chrono::{Duration, NaiveDateTime, Timelike};
use futures_util::TryStreamExt;
use mail_parser::{MessageParser, MimeHeaders};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncWrite};

use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::mail::verp_token;
use crate::models::bounces::{self, Bounce};
use crate::models::now;
use crate::state::AppState;

/// Reads the bounce mailbox and queues the next read. No payload: stored as `{}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PollBounces {}

/// The stored kind (also the prefix of the runs' keys).
pub const KIND: &str = <PollBounces as BackgroundJob>::KIND;
/// At most this many messages are read per run; the rest wait for the next.
pub const MAX_MESSAGES: usize = 200;
/// The whole conversation with the IMAP server is bounded by this.
const RUN_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// `at` rounded up to the next multiple of `minutes`.
fn slot(at: NaiveDateTime, minutes: u32) -> NaiveDateTime {
    let minutes = minutes.max(1);
    let floored = at
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(at);
    let since_midnight = floored.hour() * 60 + floored.minute();
    let floored = floored - Duration::minutes(i64::from(since_midnight % minutes));
    if floored == at {
        at
    } else {
        floored + Duration::minutes(i64::from(minutes))
    }
}

/// Queues a read at (about) `at`, once per slot of `minutes`.
pub async fn schedule(
    conn: &mut DbConn<'_>,
    at: NaiveDateTime,
    minutes: u32,
) -> diesel::result::QueryResult<()> {
    let run_at = slot(at, minutes);
    let key = format!("{KIND}:{}", run_at.format("%Y-%m-%dT%H:%M"));
    enqueue(conn, &PollBounces {}, run_at, Some(key)).await?;
    Ok(())
}

impl BackgroundJob for PollBounces {
    const KIND: &'static str = "bounces.poll";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let bounces = &state.config.bounces;
        let Some(url) = bounces.imap_url.as_deref() else {
            return Ok(()); // switched off since: the chain ends here
        };
        {
            let mut pooled = state.db.conn().await?;
            let next = now() + Duration::minutes(i64::from(bounces.poll_minutes));
            schedule(&mut pooled.db(), next, bounces.poll_minutes).await?;
        }
        let outcome = poll(state, url, bounces.address.as_deref())
            .await
            .map_err(JobError::Retry)?;
        tracing::info!(
            messages = outcome.messages,
            reports = outcome.reports,
            bounced = outcome.bounced,
            refused = outcome.refused,
            "read the bounce mailbox"
        );
        Ok(())
    }
}

/// What one read found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Polled {
    /// Unseen messages read (and marked `\Seen`).
    pub messages: usize,
    /// Failed recipients reported in them.
    pub reports: usize,
    /// Deliveries newly marked Bounced.
    pub bounced: usize,
    /// Addresses refused.
    pub refused: usize,
}

/// Reads the mailbox at `url` once (see the module's notes).
pub async fn poll(state: &AppState, url: &str, bounce_address: Option<&str>) -> Result<Polled, String> {
    tokio::time::timeout(RUN_LIMIT, poll_unbounded(state, url, bounce_address))
        .await
        .unwrap_or_else(|_| Err(format!("the IMAP server did not finish within {} s", RUN_LIMIT.as_secs())))
}

struct Mailbox {
    host: String,
    port: u16,
    tls: bool,
    user: String,
    password: String,
    folder: String,
}

fn mailbox(url: &str) -> Result<Mailbox, String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("VOICEMARK_BOUNCE_IMAP_URL: {e}"))?;
    let tls = match parsed.scheme() {
        "imaps" => true,
        "imap" => false,
        other => return Err(format!("VOICEMARK_BOUNCE_IMAP_URL: unknown scheme {other}")),
    };
    let decode = |s: &str| {
        percent_encoding_decode(s).ok_or_else(|| "VOICEMARK_BOUNCE_IMAP_URL: the user name or password is not UTF-8".to_owned())
    };
    let folder = parsed.path().trim_start_matches('/');
    Ok(Mailbox {
        host: parsed
            .host_str()
            .ok_or("VOICEMARK_BOUNCE_IMAP_URL has no host")?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned(),
        port: parsed.port().unwrap_or(if tls { 993 } else { 143 }),
        tls,
        user: decode(parsed.username())?,
        password: decode(parsed.password().unwrap_or(""))?,
        folder: if folder.is_empty() { "INBOX".to_owned() } else { decode(folder)? },
    })
}

fn percent_encoding_decode(s: &str) -> Option<String> {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
}

async fn poll_unbounded(state: &AppState, url: &str, bounce_address: Option<&str>) -> Result<Polled, String> {
    let mailbox = mailbox(url)?;
    let tcp = tokio::net::TcpStream::connect((mailbox.host.as_str(), mailbox.port))
        .await
        .map_err(|e| format!("cannot connect to {}:{}: {e}", mailbox.host, mailbox.port))?;
    if mailbox.tls {
        let mut roots = tokio_rustls::rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let config = tokio_rustls::rustls::ClientConfig::builder_with_provider(Arc::new(
            tokio_rustls::rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
        let name = tokio_rustls::rustls::pki_types::ServerName::try_from(mailbox.host.clone())
            .map_err(|e| format!("TLS: {e}"))?;
        let stream = tokio_rustls::TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS with {}: {e}", mailbox.host))?;
        read_mailbox(state, stream, &mailbox, bounce_address).await
    } else {
        read_mailbox(state, tcp, &mailbox, bounce_address).await
    }
}

async fn read_mailbox<S>(
    state: &AppState,
    stream: S,
    mailbox: &Mailbox,
    bounce_address: Option<&str>,
) -> Result<Polled, String>
where
    S: AsyncRead + AsyncWrite + Unpin + std::fmt::Debug + Send,
{
    let imap = |e: async_imap::error::Error| format!("IMAP: {e}");
    let mut client = async_imap::Client::new(stream);
    client
        .read_response()
        .await
        .map_err(|e| format!("IMAP greeting: {e}"))?
        .ok_or("the IMAP server closed the connection before its greeting")?;
    let mut session = client
        .login(&mailbox.user, &mailbox.password)
        .await
        .map_err(|(e, _)| format!("IMAP sign-in refused: {e}"))?;
    session.select(&mailbox.folder).await.map_err(imap)?;
    let mut uids: Vec<u32> = session
        .uid_search("UNSEEN")
        .await
        .map_err(imap)?
        .into_iter()
        .collect();
    uids.sort_unstable();
    uids.truncate(MAX_MESSAGES);
    let mut polled = Polled::default();
    if uids.is_empty() {
        session.logout().await.map_err(imap)?;
        return Ok(polled);
    }
    let set = uids.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let fetched: Vec<async_imap::types::Fetch> = session
        .uid_fetch(&set, "(UID BODY.PEEK[])")
        .await
        .map_err(imap)?
        .try_collect()
        .await
        .map_err(imap)?;
    let at = now();
    let mut reported = Vec::new();
    for message in &fetched {
        if let Some(body) = message.body() {
            reported.extend(read_dsn(body, bounce_address, at));
        }
    }
    polled.messages = fetched.len();
    polled.reports = reported.len();
    if !reported.is_empty() {
        let mut pooled = state.db.conn().await.map_err(|e| e.to_string())?;
        let mut conn = pooled.db();
        let recorded: Result<(usize, usize), diesel::result::Error> =
            crate::transaction!(&mut conn, |c| {
                let (mut bounced, mut refused) = (0, 0);
                for bounce in &reported {
                    let r = bounces::record(c, bounce).await?;
                    bounced += r.bounced;
                    refused += usize::from(r.refused);
                }
                Ok((bounced, refused))
            });
        let (bounced, refused) = recorded.map_err(|e| format!("database: {e}"))?;
        polled.bounced = bounced;
        polled.refused = refused;
    }
    let _: Vec<async_imap::types::Fetch> = session
        .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
        .await
        .map_err(imap)?
        .try_collect()
        .await
        .map_err(imap)?;
    session.logout().await.map_err(imap)?;
    Ok(polled)
}

/// The failed recipients a delivery status notification reports (empty for any other
/// message). `bounce_address` is `VOICEMARK_BOUNCE_ADDRESS`, to read the VERP token from
/// the address the report was sent to.
pub fn read_dsn(raw: &[u8], bounce_address: Option<&str>, at: NaiveDateTime) -> Vec<Bounce> {
    let Some(message) = MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    let token = bounce_address.and_then(|bounce| {
        let mut to: Vec<String> = message
            .to()
            .map(|a| a.iter().filter_map(|a| a.address()).map(str::to_owned).collect())
            .unwrap_or_default();
        for name in ["Delivered-To", "X-Original-To", "Envelope-To"] {
            if let Some(v) = message.header_raw(name) {
                to.push(v.trim().trim_start_matches('<').trim_end_matches('>').to_owned());
            }
        }
        to.iter().find_map(|a| verp_token(bounce, a))
    });
    let Some(status) = message.parts.iter().find(|part| {
        part.content_type().is_some_and(|ct| {
            ct.ctype().eq_ignore_ascii_case("message")
                && ct.subtype().is_some_and(|s| {
                    s.eq_ignore_ascii_case("delivery-status")
                        || s.eq_ignore_ascii_case("global-delivery-status")
                })
        })
    }) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(status.contents()).replace("\r\n", "\n");
    let mut found = Vec::new();
    // The first group of fields is about the message; each further group, one recipient.
    for group in text.split("\n\n").skip(1) {
        // Folded lines joined first (RFC 5322 unfolding), so that a long Diagnostic-Code
        // reads whole.
        let mut unfolded = String::new();
        for line in group.trim().lines() {
            if line.starts_with([' ', '\t']) {
                unfolded.push(' ');
                unfolded.push_str(line.trim());
            } else {
                if !unfolded.is_empty() {
                    unfolded.push_str("\r\n");
                }
                unfolded.push_str(line);
            }
        }
        let group = format!("{unfolded}\r\n\r\n");
        let Some(fields) = MessageParser::default().parse_headers(group.as_bytes()) else {
            continue;
        };
        let field = |name: &str| {
            fields
                .header_raw(name)
                .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
        };
        if !field("Action").is_some_and(|a| a.eq_ignore_ascii_case("failed")) {
            continue;
        }
        let Some(recipient) = field("Final-Recipient")
            .or_else(|| field("Original-Recipient"))
            .map(|r| after_type(&r).to_owned())
            .filter(|r| r.contains('@'))
        else {
            continue;
        };
        let status = field("Status").unwrap_or_default();
        let hard = !status.starts_with('4');
        let reason = field("Diagnostic-Code")
            .map(|d| after_type(&d).to_owned())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| format!("Status {status}"));
        found.push(Bounce {
            address: recipient,
            delivery_id: token.clone(),
            hard,
            reason: reason.chars().take(1000).collect(),
            at,
        });
    }
    found
}

/// `rfc822; ada@example.com` → `ada@example.com`; `smtp; 550 …` → `550 …`.
fn after_type(value: &str) -> &str {
    value.split_once(';').map_or(value, |(_, v)| v).trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub const DSN: &str = "From: Mail Delivery System <MAILER-DAEMON@mx.school.example>\r\n\
To: bounces+0193b5c2-7d1e-7a00-8000-0123456789ab@mail.school.example\r\n\
Subject: Undelivered Mail Returned to Sender\r\n\
MIME-Version: 1.0\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n\
\r\n\
--b1\r\n\
Content-Type: text/plain\r\n\
\r\n\
Your message could not be delivered.\r\n\
--b1\r\n\
Content-Type: message/delivery-status\r\n\
\r\n\
Reporting-MTA: dns; mx.school.example\r\n\
\r\n\
Final-Recipient: rfc822; Mum@Families.example\r\n\
Action: failed\r\n\
Status: 5.1.1\r\n\
Diagnostic-Code: smtp; 550 5.1.1 <mum@families.example>:\r\n\
\tUser unknown\r\n\
\r\n\
Final-Recipient: rfc822; dad@families.example\r\n\
Action: delayed\r\n\
Status: 4.4.1\r\n\
\r\n\
--b1--\r\n";

    #[test]
    fn reads_failed_recipients_from_a_dsn() {
        let at = now();
        let found = read_dsn(DSN.as_bytes(), Some("bounces@mail.school.example"), at);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].address, "Mum@Families.example");
        assert!(found[0].hard);
        assert_eq!(found[0].reason, "550 5.1.1 <mum@families.example>: User unknown");
        assert_eq!(
            found[0].delivery_id.as_deref(),
            Some("0193b5c2-7d1e-7a00-8000-0123456789ab")
        );
        assert!(read_dsn(b"Subject: hello\r\n\r\nnot a report\r\n", None, at).is_empty());
    }

    #[test]
    fn slots_round_up() {
        let t = chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
            .and_then(|d| d.and_hms_opt(10, 7, 30))
            .expect("time");
        assert_eq!(slot(t, 5).format("%H:%M:%S").to_string(), "10:10:00");
        let on = t.with_minute(10).and_then(|t| t.with_second(0)).expect("time");
        assert_eq!(slot(on, 5), on);
    }
}
