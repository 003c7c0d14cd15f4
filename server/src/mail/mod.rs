//! Outgoing e-mail: a [`Mailer`] that writes each message to the outbox folder (the default,
//! one `.eml` file per message) or hands it to an SMTP server, and the templates it fills.
//! Notification and feedback e-mail is sent by jobs (`crate::jobs::email_*`) through the same
//! [`Mailer`], and so is account e-mail (`crate::jobs::email_account`): no request waits on
//! a mail server. Every SMTP conversation is bounded (see [`SmtpTimeouts`]).

mod smtp_pool;
pub mod templates;
mod timeout_stream;

use std::path::PathBuf;

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
        Ok(Mailer {
            from,
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
        let message = Message::builder()
            .message_id(message_id.map(|id| format!("<{id}@voicemark>")))
            .from(self.from.clone())
            .to(parse_mailbox(to)?)
            .subject(email.subject)
            .multipart(MultiPart::alternative_plain_html(email.text, email.html))
            .map_err(|e| MailError::Build(e.to_string()))?;
        match &self.transport {
            Transport::Outbox { files, .. } => files
                .send(message)
                .await
                .map(drop)
                .map_err(|e| MailError::Transport(e.to_string())),
            Transport::SmtpPool(pool) => {
                let formatted = message.formatted();
                self.bounded(pool.send(message.envelope(), &formatted))
                    .await
            }
            Transport::Smtp(smtp) => {
                self.bounded(async {
                    smtp.send(message)
                        .await
                        .map(drop)
                        .map_err(|e| MailError::Transport(e.to_string()))
                })
                .await
            }
        }
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
}
