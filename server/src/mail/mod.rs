//! Outgoing e-mail: a [`Mailer`] that writes each message to the outbox folder (the default,
//! one `.eml` file per message) or hands it to an SMTP server, and the templates it fills.
//! Notification and feedback e-mail is sent by jobs (`crate::jobs::email_*`) through the same
//! [`Mailer`], and so is account e-mail (`crate::jobs::email_account`): no request waits on
//! a mail server. Every SMTP conversation is bounded (see [`SmtpTimeouts`]).

mod smtp_pool;
pub mod templates;
mod timeout_stream;

use std::path::PathBuf;

use lettre::address::{Address, Envelope};
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

pub use templates::{Email, Template};

use crate::config::{Config, MailConfig, SmtpTimeouts};

/// Why a message could not be sent, in words for the log.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("invalid address {address:?}: {reason}")]
    Address { address: String, reason: String },
    #[error("could not build the message: {0}")]
    Build(String),
    #[error("could not send the message: {0}")]
    Transport(String),
    /// The mail server refused the recipient or the message for good (a 5xx answer to RCPT
    /// TO or to DATA): `reason` is the server's words, e.g. `550 5.1.1 User unknown`.
    /// Sending again will not help (docs/bounces.md).
    #[error("the mail server refused the message: {reason}")]
    Refused { reason: String },
    #[error("cannot set up mail: {0}")]
    Setup(String),
}

enum Transport {
    Outbox {
        dir: PathBuf,
        files: AsyncFileTransport<Tokio1Executor>,
    },
    /// `smtp://`: our pool of TCP_NODELAY connections (see `smtp_pool`).
    SmtpPool(smtp_pool::SmtpPool),
    /// `smtps://`: lettre's transport and pool.
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

/// Sends e-mail through the configured transport.
pub struct Mailer {
    from: Mailbox,
    /// `VOICEMARK_BOUNCE_ADDRESS`: the envelope sender (VERP, see [`verp_sender`]).
    bounce_address: Option<Address>,
    transport: Transport,
    /// The bound on one whole SMTP send (connecting included).
    message_timeout: std::time::Duration,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let transport = match &self.transport {
            Transport::Outbox { dir, .. } => format!("outbox {}", dir.display()),
            Transport::SmtpPool(pool) => format!("{pool:?}"),
            Transport::Smtp(_) => "smtps".to_owned(),
        };
        f.debug_struct("Mailer")
            .field("from", &self.from.to_string())
            .field("transport", &transport)
            .finish()
    }
}

impl Mailer {
    /// SMTP when `VOICEMARK_SMTP_URL` is set, else the outbox folder `{data_dir}/outbox`
    /// (created here).
    pub fn from_config(config: &Config) -> Result<Mailer, MailError> {
        let from = parse_mailbox(&config.mail.from)?;
        let transport = match &config.mail.smtp_url {
            Some(url) => smtp_transport(url, config.mail.timeouts)?,
            None => {
                let dir = outbox_dir(config);
                std::fs::create_dir_all(&dir).map_err(|e| {
                    MailError::Setup(format!("cannot create {}: {e}", dir.display()))
                })?;
                Transport::Outbox {
                    files: AsyncFileTransport::new(&dir),
                    dir,
                }
            }
        };
        let bounce_address = match &config.bounces.address {
            Some(a) => Some(a.parse::<Address>().map_err(|e| {
                MailError::Setup(format!("VOICEMARK_BOUNCE_ADDRESS: {e}"))
            })?),
            None => None,
        };
        Ok(Mailer {
            from,
            bounce_address,
            transport,
            message_timeout: config.mail.timeouts.message,
        })
    }

    /// The outbox folder, when messages are written to files.
    pub fn outbox(&self) -> Option<&std::path::Path> {
        match &self.transport {
            Transport::Outbox { dir, .. } => Some(dir),
            Transport::SmtpPool(_) | Transport::Smtp(_) => None,
        }
    }

    /// Sends `email` to `to` as a plain-text and HTML alternative.
    pub async fn send(&self, to: &str, email: Email) -> Result<(), MailError> {
        self.send_with_id(to, email, None).await
    }

    /// Sends like [`Mailer::send`] with a fixed `Message-ID` (`<{message_id}@voicemark>`):
    /// jobs pass their own id, so a message sent again after a crash carries the same
    /// Message-ID and receivers can drop the copy. Returns after the SMTP server accepted
    /// the message (250 after DATA) or the file was written.
    pub async fn send_with_id(
        &self,
        to: &str,
        email: Email,
        message_id: Option<&str>,
    ) -> Result<(), MailError> {
        self.send_tracked(
            to,
            email,
            Tracking {
                message_id,
                delivery_id: None,
            },
        )
        .await
    }

    /// Sends like [`Mailer::send_with_id`], marked so that a bounce finds its way back
    /// (docs/bounces.md): with a bounce address configured the envelope sender (MAIL FROM,
    /// the Return-Path) is `bounces+{delivery id}@domain` for a notification e-mail and the
    /// bare bounce address otherwise; a notification e-mail also carries SendGrid's
    /// `X-SMTPAPI` header with the delivery id as the custom argument `voicemark_delivery`.
    /// A permanent refusal of the recipient or of the message (5xx to RCPT TO or DATA) is
    /// [`MailError::Refused`]; a 4xx stays a [`MailError::Transport`] (try again later).
    pub async fn send_tracked(
        &self,
        to: &str,
        email: Email,
        tracking: Tracking<'_>,
    ) -> Result<(), MailError> {
        let recipient = parse_mailbox(to)?;
        let mut builder = Message::builder()
            .message_id(tracking.message_id.map(|id| format!("<{id}@voicemark>")))
            .from(self.from.clone())
            .to(recipient.clone())
            .subject(email.subject);
        if let Some(delivery) = tracking.delivery_id {
            builder = builder.raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("X-SMTPAPI"),
                serde_json::json!({ "unique_args": { SENDGRID_DELIVERY_ARG: delivery } })
                    .to_string(),
            ));
        }
        let message = builder
            .multipart(MultiPart::alternative_plain_html(email.text, email.html))
            .map_err(|e| MailError::Build(e.to_string()))?;
        let sender = match &self.bounce_address {
            Some(bounce) => verp_sender(bounce, tracking.delivery_id),
            None => self.from.email.clone(),
        };
        let envelope = Envelope::new(Some(sender), vec![recipient.email])
            .map_err(|e| MailError::Build(e.to_string()))?;
        let formatted = message.formatted();
        let started = std::time::Instant::now();
        let sent = match &self.transport {
            Transport::Outbox { files, .. } => files
                .send_raw(&envelope, &formatted)
                .await
                .map(drop)
                .map_err(|e| MailError::Transport(e.to_string())),
            Transport::SmtpPool(pool) => self.bounded(pool.send(&envelope, &formatted)).await,
            Transport::Smtp(smtp) => {
                self.bounded(async {
                    smtp.send_raw(&envelope, &formatted)
                        .await
                        .map(drop)
                        .map_err(smtps_error)
                })
                .await
            }
        };
        let transport = if self.outbox().is_some() { "outbox" } else { "smtp" };
        crate::metrics::mail_sent(transport, started.elapsed(), sent.is_err());
        sent
    }

    /// `send` within the whole-message bound: a mail server that trickles its answers cannot
    /// hold a sender (a job worker) for longer.
    async fn bounded(
        &self,
        send: impl std::future::Future<Output = Result<(), MailError>>,
    ) -> Result<(), MailError> {
        tokio::time::timeout(self.message_timeout, send)
            .await
            .unwrap_or_else(|_| {
                Err(MailError::Transport(format!(
                    "the mail server did not take the message within {} s",
                    self.message_timeout.as_secs_f32()
                )))
            })
    }
}

/// What a job's message carries besides its content, for finding it again.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tracking<'a> {
    /// `Message-ID: <{message_id}@voicemark>` (the job's id).
    pub message_id: Option<&'a str>,
    /// The `deliveries` row this message is (notification e-mails only).
    pub delivery_id: Option<&'a str>,
}

/// SendGrid's custom argument that names the delivery (`X-SMTPAPI` unique_args; SendGrid's
/// Event Webhook posts it back as a field of each event).
pub const SENDGRID_DELIVERY_ARG: &str = "voicemark_delivery";

/// The envelope sender for `bounce` (`bounces@mail.school.example`): with a delivery id,
/// `bounces+{id}@mail.school.example` (VERP: the bounce comes back to an address that names
/// the message), else the bounce address itself.
pub fn verp_sender(bounce: &Address, delivery_id: Option<&str>) -> Address {
    let token = delivery_id.filter(|id| {
        !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    match token {
        Some(id) => Address::new(format!("{}+{id}", bounce.user()), bounce.domain())
            .unwrap_or_else(|_| bounce.clone()),
        None => bounce.clone(),
    }
}

/// The VERP token in `address` (`bounces+{token}@domain`) when it is the bounce address
/// `bounce` with a token, else `None`.
pub fn verp_token(bounce: &str, address: &str) -> Option<String> {
    let (user, domain) = bounce.rsplit_once('@')?;
    let (a_user, a_domain) = address.trim().rsplit_once('@')?;
    if !a_domain.eq_ignore_ascii_case(domain) {
        return None;
    }
    let token = a_user.strip_prefix(user)?.strip_prefix('+')?;
    (!token.is_empty()).then(|| token.to_ascii_lowercase())
}

/// The server's words for a negative SMTP reply: `550 5.1.1 User unknown`.
pub(crate) fn server_words(err: &lettre::transport::smtp::Error) -> String {
    match (err.status(), std::error::Error::source(err)) {
        (Some(code), Some(text)) => format!("{code} {text}"),
        _ => err.to_string(),
    }
}

/// An `smtps://` failure. lettre's pool does not say which command was refused, so only a
/// 5xx whose enhanced status names the recipient's mailbox or system (RFC 3463 5.1.1,
/// 5.1.2, 5.1.3, 5.1.6, 5.1.10, 5.2.x) counts as a refusal; any other 5xx (say, a 5xx to
/// MAIL FROM, which is about our sender) stays a transport error, retried, then failed.
fn smtps_error(err: lettre::transport::smtp::Error) -> MailError {
    let words = server_words(&err);
    if err.is_permanent() && recipient_status(&words) {
        MailError::Refused { reason: words }
    } else {
        MailError::Transport(err.to_string())
    }
}

fn recipient_status(words: &str) -> bool {
    let enhanced = words.split_whitespace().nth(1).unwrap_or("");
    ["5.1.1", "5.1.2", "5.1.3", "5.1.6", "5.1.10"].contains(&enhanced)
        || enhanced.starts_with("5.2.")
}

/// Where the file transport writes: `{data_dir}/outbox`.
pub fn outbox_dir(config: &Config) -> PathBuf {
    config.data_dir.join("outbox")
}

fn parse_mailbox(address: &str) -> Result<Mailbox, MailError> {
    address
        .parse()
        .map_err(|e: lettre::address::AddressError| MailError::Address {
            address: address.to_owned(),
            reason: e.to_string(),
        })
}

/// `smtp://` upgrades with STARTTLS when the server offers it (unless the URL says
/// `?tls=required` or `?tls=none`) and goes through our TCP_NODELAY pool; `smtps://` is TLS
/// from the start through lettre's pool. Credentials come from the URL. Either way
/// connections are pooled and reused (up to 20 open, idle ones closed after 60 s).
///
/// Timeouts: `smtp://` bounds connecting and every read and write (so every command);
/// `smtps://` gives lettre the connect timeout (lettre's async client applies it to
/// connecting only). Both are bounded as a whole by the message timeout in
/// [`Mailer::send_with_id`].
fn smtp_transport(url: &str, timeouts: SmtpTimeouts) -> Result<Transport, MailError> {
    if url.starts_with("smtp://") {
        return Ok(Transport::SmtpPool(smtp_pool::SmtpPool::new(
            smtp_pool::SmtpServer::from_url(url)?,
            timeouts,
        )));
    }
    AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
        .map(|builder| {
            Transport::Smtp(
                builder
                    .timeout(Some(timeouts.connect))
                    .pool_config(lettre::transport::smtp::PoolConfig::new().max_size(20))
                    .build(),
            )
        })
        .map_err(|e| MailError::Setup(format!("VOICEMARK_SMTP_URL: {e}")))
}

/// Checks `VOICEMARK_SMTP_URL` and `VOICEMARK_MAIL_FROM` at start-up.
pub fn validate(mail: &MailConfig) -> Result<(), MailError> {
    parse_mailbox(&mail.from)?;
    if let Some(url) = &mail.smtp_url {
        smtp_transport(url, mail.timeouts)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn smtp_urls_build_transports() {
        let mail = MailConfig {
            smtp_url: Some("smtps://user:secret@mail.example:465".into()),
            from: "Voicemark <no-reply@voicemark.app>".into(),
            timeouts: SmtpTimeouts::default(),
        };
        validate(&mail).expect("valid");
        let plain = MailConfig {
            smtp_url: Some("smtp://127.0.0.1:2525?tls=none".into()),
            from: "Voicemark <no-reply@voicemark.app>".into(),
            timeouts: SmtpTimeouts::default(),
        };
        validate(&plain).expect("valid");
        let bad = MailConfig {
            smtp_url: Some("http://x".into()),
            from: "Voicemark <no-reply@voicemark.app>".into(),
            timeouts: SmtpTimeouts::default(),
        };
        assert!(validate(&bad).is_err());
    }

    #[test]
    fn verp_senders_name_the_delivery_and_read_back() {
        let bounce: Address = "bounces@mail.school.example".parse().expect("address");
        let id = "0193b5c2-7d1e-7a00-8000-0123456789ab";
        let sender = verp_sender(&bounce, Some(id));
        assert_eq!(sender.to_string(), format!("bounces+{id}@mail.school.example"));
        assert_eq!(verp_sender(&bounce, None), bounce);
        assert_eq!(verp_sender(&bounce, Some("a b")), bounce, "odd tokens are left out");
        assert_eq!(
            verp_token("bounces@mail.school.example", &sender.to_string()).as_deref(),
            Some(id)
        );
        assert_eq!(verp_token("bounces@mail.school.example", "bounces@mail.school.example"), None);
        assert_eq!(verp_token("bounces@mail.school.example", "bounces+x@other.example"), None);
        assert_eq!(verp_token("bounces@mail.school.example", "someone+x@mail.school.example"), None);
    }

    #[test]
    fn only_recipient_statuses_count_as_refusals_on_smtps() {
        assert!(recipient_status("550 5.1.1 User unknown"));
        assert!(recipient_status("552 5.2.2 Mailbox full"));
        assert!(!recipient_status("550 5.7.1 Sender rejected"));
        assert!(!recipient_status("553 5.1.8 Bad sender address"));
        assert!(!recipient_status("550 No such user"));
    }
}
