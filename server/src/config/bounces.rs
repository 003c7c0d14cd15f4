//! Bounce handling's settings (docs/bounces.md): the VERP envelope sender, the IMAP bounce
//! mailbox, and SendGrid's Event Webhook key. All optional; without them a refusal at send
//! time is still recorded.

use super::ConfigError;

/// Where bounces come back.
#[derive(Clone, Default)]
pub struct BounceConfig {
    /// `VOICEMARK_BOUNCE_ADDRESS` (`bounces@mail.school.example`): every message's envelope
    /// sender (Return-Path) becomes `bounces+{token}@mail.school.example` (VERP), the token
    /// naming the delivery of a notification e-mail. Unset: the From address, no VERP.
    pub address: Option<String>,
    /// `VOICEMARK_BOUNCE_IMAP_URL` (`imaps://user:pass@host:993/INBOX`; `imap://` only for
    /// a server on this machine): the mailbox the `bounces.poll` job reads.
    pub imap_url: Option<String>,
    /// `VOICEMARK_BOUNCE_POLL_MINUTES` (default 5): the pause between two reads of it.
    pub poll_minutes: u32,
    /// `VOICEMARK_SENDGRID_WEBHOOK_PUBLIC_KEY`: the Signed Event Webhook's verification key
    /// as SendGrid shows it (base64 DER SubjectPublicKeyInfo, P-256). Public, not a secret.
    /// Unset: `POST /api/webhooks/sendgrid` answers 404.
    pub sendgrid_public_key: Option<String>,
}

impl std::fmt::Debug for BounceConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The IMAP URL carries the mailbox's password: only its scheme and host.
        let imap = self.imap_url.as_deref().map(|u| match url::Url::parse(u) {
            Ok(parsed) => format!("{}://{}", parsed.scheme(), parsed.host_str().unwrap_or("?")),
            Err(_) => "<invalid>".to_owned(),
        });
        f.debug_struct("BounceConfig")
            .field("address", &self.address)
            .field("imap_url", &imap)
            .field("poll_minutes", &self.poll_minutes)
            .field("sendgrid_public_key", &self.sendgrid_public_key.is_some())
            .finish()
    }
}

/// Reads the settings; a bounce address without exactly one `@`, or an IMAP URL that is not
/// `imaps://` (or `imap://` to a loopback host), is refused at start.
pub(super) fn bounce_config(
    get: &impl Fn(&str) -> Option<String>,
    number: &impl Fn(&'static str, u64, u64, u64) -> Result<u64, ConfigError>,
) -> Result<BounceConfig, ConfigError> {
    let set = |name: &str| get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let address = set("VOICEMARK_BOUNCE_ADDRESS");
    if let Some(a) = &address {
        let ok = a.matches('@').count() == 1
            && !a.starts_with('@')
            && !a.ends_with('@')
            && !a.contains(['<', '>', ' ', '+']);
        if !ok {
            return Err(ConfigError::Invalid {
                name: "VOICEMARK_BOUNCE_ADDRESS",
                expected: "one plain address without a + (bounces@mail.school.example)",
                value: a.clone(),
            });
        }
    }
    let imap_url = set("VOICEMARK_BOUNCE_IMAP_URL");
    if let Some(u) = &imap_url {
        let ok = match url::Url::parse(u) {
            Ok(p) => match p.scheme() {
                "imaps" => p.has_host(),
                "imap" => matches!(p.host_str(), Some("127.0.0.1" | "localhost" | "[::1]")),
                _ => false,
            },
            Err(_) => false,
        };
        if !ok {
            return Err(ConfigError::Invalid {
                name: "VOICEMARK_BOUNCE_IMAP_URL",
                expected: "imaps://user:password@host:993/INBOX (imap:// only to 127.0.0.1)",
                value: "<hidden>".into(),
            });
        }
    }
    Ok(BounceConfig {
        address,
        imap_url,
        poll_minutes: number("VOICEMARK_BOUNCE_POLL_MINUTES", 5, 1, 24 * 60)? as u32,
        sendgrid_public_key: set("VOICEMARK_SENDGRID_WEBHOOK_PUBLIC_KEY"),
    })
}
