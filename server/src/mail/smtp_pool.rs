//! Our own pool of SMTP connections for `smtp://` (plain or STARTTLS), opened with
//! TCP_NODELAY and bounded by [`SmtpTimeouts`] (connect; each read and write).
//!
//! Why not lettre's pool: lettre writes a message's body and its closing `.` as two writes.
//! On a socket with Nagle's algorithm the second write waits for the server's delayed ACK
//! (40 ms on Linux), so each connection carried about 20 messages a second whatever the
//! hardware. lettre opens its sockets itself and offers no way to set TCP_NODELAY, but it
//! accepts a stream we opened (`AsyncSmtpConnection::connect_with_transport`), so we open
//! the socket, set the option and let lettre speak SMTP on it.
//!
//! `smtps://` (TLS from the first byte) still goes through lettre's own pool: lettre can
//! only wrap a socket it did not open in TLS after the greeting (STARTTLS).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use tokio::sync::Semaphore;

use super::timeout_stream::TimeoutStream;
use super::MailError;
use crate::config::SmtpTimeouts;

/// Connections kept open at most, and how long an idle one may wait for reuse.
const MAX_CONNECTIONS: usize = 20;
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// Whether to upgrade with STARTTLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartTls {
    /// When the server offers it (the default for `smtp://`).
    Opportunistic,
    /// Refuse to send over a server that does not offer it (`?tls=required`).
    Required,
    /// Never (`?tls=none`), e.g. a local relay with a broken certificate.
    Never,
}

/// Where and how to connect: parsed from an `smtp://user:pass@host:port?tls=…` URL.
#[derive(Clone)]
pub struct SmtpServer {
    pub host: String,
    pub port: u16,
    pub starttls: StartTls,
    pub credentials: Option<Credentials>,
}

impl std::fmt::Debug for SmtpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpServer")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("starttls", &self.starttls)
            .field("credentials", &self.credentials.as_ref().map(|_| "<set>"))
            .finish()
    }
}

impl SmtpServer {
    /// Reads an `smtp://` URL; other schemes are not this pool's.
    pub fn from_url(url: &str) -> Result<SmtpServer, MailError> {
        let bad = |why: &str| MailError::Setup(format!("VOICEMARK_SMTP_URL: {why}"));
        let parsed = url::Url::parse(url).map_err(|e| bad(&e.to_string()))?;
        if parsed.scheme() != "smtp" {
            return Err(bad("expected an smtp:// URL"));
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| bad("the URL has no host"))?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let starttls = match parsed
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned())
            .as_deref()
        {
            None | Some("opportunistic") => StartTls::Opportunistic,
            Some("required") => StartTls::Required,
            Some("none") => StartTls::Never,
            Some(other) => return Err(bad(&format!("unknown tls={other}"))),
        };
        let decode = |s: &str| {
            percent_decode(s).ok_or_else(|| bad("the user name or password is not valid UTF-8"))
        };
        let credentials = if parsed.username().is_empty() {
            None
        } else {
            Some(Credentials::new(
                decode(parsed.username())?,
                decode(parsed.password().unwrap_or(""))?,
            ))
        };
        Ok(SmtpServer {
            host,
            port: parsed.port().unwrap_or(25),
            starttls,
            credentials,
        })
    }
}

fn percent_decode(s: &str) -> Option<String> {
    url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
}

struct Idle {
    connection: AsyncSmtpConnection,
    since: Instant,
}

/// What lettre's `AsyncSmtpConnection::send` does (MAIL, RCPT, DATA, the message), one
/// command at a time so that we know which one the server refused: a 5xx to RCPT TO or to
/// the message (DATA) is about this recipient or message and is [`MailError::Refused`]; a
/// 5xx to MAIL FROM is about our sender (a setting to fix, not the pupil's address) and,
/// like every 4xx, a [`MailError::Transport`] error.
async fn send_steps(
    connection: &mut AsyncSmtpConnection,
    envelope: &Envelope,
    message: &[u8],
) -> Result<(), MailError> {
    let transport = |e: lettre::transport::smtp::Error| MailError::Transport(e.to_string());
    let refused_or_transport = |e: lettre::transport::smtp::Error| {
        if e.is_permanent() {
            MailError::Refused {
                reason: super::server_words(&e),
            }
        } else {
            MailError::Transport(e.to_string())
        }
    };
    let mut options = Vec::new();
    let non_ascii = envelope
        .from()
        .into_iter()
        .chain(envelope.to())
        .any(|a| !AsRef::<str>::as_ref(a).is_ascii());
    if non_ascii {
        if !connection.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(MailError::Transport(
                "the address is not ASCII and the mail server does not take SMTPUTF8".into(),
            ));
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !message.is_ascii() {
        if !connection.server_info().supports_feature(Extension::EightBitMime) {
            return Err(MailError::Transport(
                "the message is not ASCII and the mail server does not take 8BITMIME".into(),
            ));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    connection
        .command(Mail::new(envelope.from().cloned(), options))
        .await
        .map_err(transport)?;
    for to in envelope.to() {
        connection
            .command(Rcpt::new(to.clone(), vec![]))
            .await
            .map_err(refused_or_transport)?;
    }
    connection.command(Data).await.map_err(refused_or_transport)?;
    connection
        .message(message)
        .await
        .map_err(refused_or_transport)?;
    Ok(())
}

/// Up to [`MAX_CONNECTIONS`] connections, each used by one sender at a time and reused.
pub struct SmtpPool {
    server: SmtpServer,
    timeouts: SmtpTimeouts,
    hello: ClientId,
    idle: Mutex<Vec<Idle>>,
    permits: Semaphore,
}

impl std::fmt::Debug for SmtpPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpPool")
            .field("server", &self.server)
            .finish()
    }
}

impl SmtpPool {
    /// A pool for `server`; every connection is bounded by `timeouts` (connect, and each
    /// read or write, so each command); the whole message is bounded by the [`super::Mailer`].
    pub fn new(server: SmtpServer, timeouts: SmtpTimeouts) -> SmtpPool {
        SmtpPool {
            server,
            timeouts,
            hello: ClientId::default(),
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(MAX_CONNECTIONS),
        }
    }

    /// Sends one message; returns once the server accepted it (250 after DATA).
    pub async fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), MailError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| MailError::Transport("the mail pool is closed".into()))?;
        let mut connection = match self.reuse().await {
            Some(connection) => connection,
            None => self.connect().await?,
        };
        match send_steps(&mut connection, envelope, message).await {
            Ok(()) => {
                self.give_back(connection);
                Ok(())
            }
            Err(err) => {
                connection.abort().await;
                Err(err)
            }
        }
    }

    /// An idle connection that is still fresh and answers NOOP, if any.
    async fn reuse(&self) -> Option<AsyncSmtpConnection> {
        loop {
            let idle = self.lock_idle().pop()?;
            let mut connection = idle.connection;
            if idle.since.elapsed() < IDLE_TIMEOUT && connection.test_connected().await {
                return Some(connection);
            }
            connection.abort().await;
        }
    }

    fn give_back(&self, connection: AsyncSmtpConnection) {
        if !connection.has_broken() {
            self.lock_idle().push(Idle {
                connection,
                since: Instant::now(),
            });
        }
    }

    fn lock_idle(&self) -> std::sync::MutexGuard<'_, Vec<Idle>> {
        // A poisoned list is still a list of connections.
        self.idle.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn connect(&self) -> Result<AsyncSmtpConnection, MailError> {
        let server = &self.server;
        let failed = |e: &dyn std::fmt::Display| {
            MailError::Transport(format!(
                "cannot connect to {}:{}: {e}",
                server.host, server.port
            ))
        };
        let tcp = tokio::time::timeout(
            self.timeouts.connect,
            tokio::net::TcpStream::connect((server.host.as_str(), server.port)),
        )
        .await
        .map_err(|_| failed(&"timed out"))?
        .map_err(|e| failed(&e))?;
        tcp.set_nodelay(true).map_err(|e| failed(&e))?;
        // Every read and write from here on (greeting, EHLO, STARTTLS, AUTH, each command of
        // a send, NOOP on reuse, QUIT) fails once the server stays silent for too long.
        let stream = TimeoutStream::new(tcp, self.timeouts.command);
        let mut connection =
            AsyncSmtpConnection::connect_with_transport(Box::new(stream), &self.hello)
                .await
                .map_err(|e| failed(&e))?;
        let offers_tls = connection.can_starttls();
        match server.starttls {
            StartTls::Never => {}
            StartTls::Opportunistic if !offers_tls => {}
            StartTls::Required if !offers_tls => {
                connection.abort().await;
                return Err(MailError::Transport(format!(
                    "{}:{} does not offer STARTTLS (tls=required)",
                    server.host, server.port
                )));
            }
            StartTls::Opportunistic | StartTls::Required => {
                let tls = TlsParameters::new(server.host.clone()).map_err(|e| failed(&e))?;
                connection
                    .starttls(tls, &self.hello)
                    .await
                    .map_err(|e| failed(&e))?;
            }
        }
        if let Some(credentials) = &server.credentials {
            connection
                .auth(&[Mechanism::Plain, Mechanism::Login], credentials)
                .await
                .map_err(|e| MailError::Transport(format!("SMTP sign-in refused: {e}")))?;
        }
        Ok(connection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_smtp_urls() {
        let server = SmtpServer::from_url("smtp://mail.example:587?tls=required").expect("url");
        assert_eq!(server.host, "mail.example");
        assert_eq!(server.port, 587);
        assert_eq!(server.starttls, StartTls::Required);
        assert!(server.credentials.is_none());

        let server = SmtpServer::from_url("smtp://me%40school.test:p%2Bss@127.0.0.1").expect("url");
        assert_eq!(server.port, 25);
        assert_eq!(server.starttls, StartTls::Opportunistic);
        assert!(server.credentials.is_some());
        assert!(
            !format!("{server:?}").contains("p+ss"),
            "no password in logs"
        );

        assert!(SmtpServer::from_url("smtp://mail?tls=sometimes").is_err());
        assert!(SmtpServer::from_url("smtps://mail").is_err());
    }
}
