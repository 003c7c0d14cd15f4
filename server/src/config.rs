//! Configuration: one struct per concern, read from the environment (flags override).
//! Every setting, its variable and its default are listed in the README.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::db::{DatabaseUrl, DatabaseUrlError};

mod chat;
pub use chat::{ChatConfig, StructuredOutput};
use chat::chat_config;
mod stripe;
pub use stripe::{StripeConfig, StripeProducts};
use stripe::{stripe_config, stripe_products};
mod microsoft;
pub use microsoft::MicrosoftConfig;
mod bounces;
pub use bounces::BounceConfig;
mod ops;
pub use ops::OpsConfig;
mod speech;
pub use speech::{SpeechConfig, TranscriptionConfig};
use microsoft::microsoft_config;

/// Where the server listens and how it presents itself.
#[derive(Debug, Clone)]
pub struct Config {
    /// `VOICEMARK_BIND`, default `127.0.0.1:3000`.
    pub bind: SocketAddr,
    /// `VOICEMARK_PUBLIC_URL`, default `http://{bind}`: used in links sent by e-mail and
    /// to decide whether cookies are `Secure`.
    pub public_url: String,
    /// `VOICEMARK_DATA_DIR`, default `./data`: the SQLite file, file store and outbox.
    pub data_dir: PathBuf,
    pub database: DatabaseConfig,
    /// `VOICEMARK_SUPPORT_EMAIL`, default `support@voicemark.app`: shown to disabled users.
    pub support_email: String,
    /// `VOICEMARK_LOG_FORMAT`: `text` (default) or `json`.
    pub log_json: bool,
    pub mail: MailConfig,
    pub auth: AuthConfig,
    /// Background job workers: `VOICEMARK_JOB_WORKERS` (default 2; 0 runs none),
    /// `VOICEMARK_JOB_POLL_MS` (500), `VOICEMARK_JOB_LEASE_SECONDS` (300),
    /// `VOICEMARK_JOB_BACKOFF_SECONDS` (30).
    pub jobs: WorkerSettings,
    /// `VOICEMARK_DIGEST_HOUR` (UTC, default 16): when daily digests go out (weekly ones on
    /// Fridays at that hour).
    pub digest_hour: u32,
    /// Where files are kept: `VOICEMARK_STORAGE_URL` unset or `local` = `{data_dir}/files`;
    /// `s3://bucket?endpoint=...&region=...&path_style=true` = an S3-compatible bucket
    /// (credentials in the URL or `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`).
    pub storage: crate::storage::StorageConfig,
    /// `VOICEMARK_UPLOAD_TTL_HOURS` (default 24): how long a `user.uploadFile` file is kept.
    pub upload_ttl_hours: u32,
    /// The AI that reads photos of pupils' work: `None` (photo analysis off) unless
    /// `VOICEMARK_VISION_BASE_URL` is set.
    pub vision: Option<VisionConfig>,
    /// Live dictation's speech provider: `None` (dictation off) unless
    /// `VOICEMARK_DEEPGRAM_API_KEY` is set.
    pub speech: Option<SpeechConfig>,
    /// Recorded audio's transcription server (`VOICEMARK_TRANSCRIPTION_URL`); `None`: Deepgram.
    pub transcription: Option<TranscriptionConfig>,
    /// Metrics address and the drain on SIGTERM (docs/operations.md).
    pub ops: OpsConfig,
    /// The text model that fills and tidies a task's answers: `None` (autofill off) unless
    /// `VOICEMARK_CHAT_BASE_URL` or `VOICEMARK_VISION_BASE_URL` is set.
    pub chat: Option<ChatConfig>,
    /// Billing: `None` (off) unless `VOICEMARK_STRIPE_SECRET_KEY` is set.
    pub stripe: Option<StripeConfig>,
    /// The plans' payment products (`VOICEMARK_STRIPE_PRODUCT_BASIC`, `_PRO`, `_ENTERPRISE`).
    pub products: StripeProducts,
    /// Sign in with Microsoft: `None` (not offered) unless `VOICEMARK_MICROSOFT_CLIENT_ID`
    /// and `VOICEMARK_MICROSOFT_CLIENT_SECRET` are set (docs/microsoft-signin.md).
    pub microsoft: Option<MicrosoftConfig>,
    /// `VOICEMARK_ENCRYPTION_KEY` (32 bytes in base64): the key that seals secrets at rest.
    /// Unset: derived from the server secret (`crate::crypto::SecretBox::derived_from`).
    pub encryption_key: Option<EncryptionKey>,
    /// The MIS providers' addresses (docs/mis-sync.md).
    pub mis: MisConfig,
    /// Where bounces come back: VERP, IMAP bounce mailbox, SendGrid key (docs/bounces.md).
    pub bounces: BounceConfig,
}

/// A 256-bit key; `Debug` never shows it.
#[derive(Clone)]
pub struct EncryptionKey(pub [u8; 32]);

impl std::fmt::Debug for EncryptionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<set>")
    }
}

/// Where the MIS sync reaches its providers.
#[derive(Debug, Clone, Default)]
pub struct MisConfig {
    /// `VOICEMARK_WONDE_URL`: every Wonde call goes to this base (a proxy or a test server,
    /// e.g. `http://127.0.0.1:3112`) instead of `https://{region domain}`.
    pub wonde_url: Option<String>,
    /// `VOICEMARK_XPORTER_URL`: every Groupcall Xporter call goes to this base instead of
    /// `https://xporter.groupcall.com` (a proxy or a test server).
    pub xporter_url: Option<String>,
    /// Pause between two hourly delta syncs of a school (`VOICEMARK_SYNC_DELTA_MINUTES`, 60).
    pub delta_minutes: u32,
    /// UTC hour of the nightly full sync (`VOICEMARK_SYNC_FULL_HOUR`, 2).
    pub full_sync_hour: u32,
}

/// How background job workers poll, lease and back off (`crate::jobs::worker` runs them).
#[derive(Debug, Clone)]
pub struct WorkerSettings {
    /// How many workers this process runs (0: none).
    pub workers: usize,
    /// The pause when no job is ready.
    pub poll_interval: std::time::Duration,
    /// A job `RUNNING` for longer than this without renewal is taken for abandoned.
    pub lease: std::time::Duration,
    /// The first retry's delay; each further retry doubles it (at most one hour).
    pub backoff_base: std::time::Duration,
    /// A run that takes longer is stopped and failed like an error (then retried), so a
    /// worker is never stuck on a job (`VOICEMARK_JOB_TIMEOUT_SECONDS`, default 600).
    pub run_timeout: std::time::Duration,
    /// How long shutdown waits for the jobs in hand before stopping them and handing their
    /// jobs back to the queue (`VOICEMARK_JOB_SHUTDOWN_SECONDS`, default 10).
    pub shutdown_grace: std::time::Duration,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        WorkerSettings {
            workers: 2,
            poll_interval: std::time::Duration::from_millis(500),
            lease: std::time::Duration::from_secs(300),
            backoff_base: std::time::Duration::from_secs(30),
            run_timeout: std::time::Duration::from_secs(600),
            shutdown_grace: std::time::Duration::from_secs(10),
        }
    }
}

/// An OpenAI-compatible Chat Completions server with image input (OpenAI, Ollama, vLLM,
/// llama.cpp): docs/providers.md.
#[derive(Clone)]
pub struct VisionConfig {
    /// `VOICEMARK_VISION_BASE_URL`, e.g. `https://api.openai.com/v1` or
    /// `http://localhost:11434/v1`, without a trailing slash.
    pub base_url: String,
    /// `VOICEMARK_VISION_MODEL`, default `gpt-4o-mini`.
    pub model: String,
    /// `VOICEMARK_VISION_API_KEY`: sent as `Bearer <key>` when set (local servers need none).
    pub api_key: Option<String>,
}

impl std::fmt::Debug for VisionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VisionConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .finish()
    }
}

/// How e-mail leaves the server.
#[derive(Clone)]
pub struct MailConfig {
    /// `VOICEMARK_SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…:465`): unset writes every
    /// message to `{data_dir}/outbox/*.eml` instead.
    pub smtp_url: Option<String>,
    /// `VOICEMARK_MAIL_FROM`, default `Voicemark <no-reply@voicemark.app>`.
    pub from: String,
    /// How long an SMTP server may take before the send is given up (and its job retried).
    pub timeouts: SmtpTimeouts,
}

/// Bounds on every SMTP conversation, so a silent mail server cannot hold a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmtpTimeouts {
    /// Opening the TCP connection (and TLS): `VOICEMARK_SMTP_CONNECT_TIMEOUT_SECONDS`, 10.
    pub connect: std::time::Duration,
    /// Each SMTP command's answer, the greeting included:
    /// `VOICEMARK_SMTP_COMMAND_TIMEOUT_SECONDS`, 30.
    pub command: std::time::Duration,
    /// One whole message, connecting included: `VOICEMARK_SMTP_SEND_TIMEOUT_SECONDS`, 60.
    pub message: std::time::Duration,
}

impl Default for SmtpTimeouts {
    fn default() -> Self {
        SmtpTimeouts {
            connect: std::time::Duration::from_secs(10),
            command: std::time::Duration::from_secs(30),
            message: std::time::Duration::from_secs(60),
        }
    }
}

/// Sign-in settings.
#[derive(Clone)]
pub struct AuthConfig {
    /// `VOICEMARK_SECRET`: keys the CSRF tokens. Unset: a random secret kept in
    /// `{data_dir}/secret` (made on first start, mode 0600).
    pub secret: Option<String>,
    /// `VOICEMARK_TRUST_PROXY=1`: take the client address from `X-Forwarded-For` (only
    /// behind a proxy that sets it), not from the socket.
    pub trust_proxy: bool,
    /// `VOICEMARK_SESSION_POLL_SECONDS` (default 0, off): how often the app asks for the
    /// session while a page stays open, besides on every page change and when the tab
    /// comes back (so a disabled user or an ended session is noticed without a click).
    /// Handed to the browser in the session (`pollSeconds`).
    pub session_poll_seconds: u64,
}

impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The SMTP URL may carry a password: show only its scheme and host.
        let smtp = self.smtp_url.as_deref().map(|u| match url::Url::parse(u) {
            Ok(parsed) => format!("{}://{}", parsed.scheme(), parsed.host_str().unwrap_or("?")),
            Err(_) => "<invalid>".to_owned(),
        });
        f.debug_struct("MailConfig")
            .field("smtp_url", &smtp)
            .field("from", &self.from)
            .field("timeouts", &self.timeouts)
            .finish()
    }
}

impl std::fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthConfig")
            .field("secret", &self.secret.as_ref().map(|_| "<set>"))
            .field("trust_proxy", &self.trust_proxy)
            .field("session_poll_seconds", &self.session_poll_seconds)
            .finish()
    }
}

/// Which database and how many connections.
#[derive(Debug, Clone)]
pub struct DatabaseConfig {
    /// `DATABASE_URL`, default `sqlite://{data_dir}/voicemark.db`.
    pub url: DatabaseUrl,
    /// `VOICEMARK_DB_POOL_SIZE`, default 8.
    pub pool_size: usize,
    /// `VOICEMARK_READ_CACHES`: the read caches kept (`crate::cache`), all by default; `off`
    /// sends every read to the database, a list such as `sessions,hub-count` keeps those.
    pub read_caches: Vec<crate::cache::CacheKind>,
}

/// A setting that could not be read, as one sentence.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    DatabaseUrl(#[from] DatabaseUrlError),
    #[error("{name} must be {expected} (it is '{value}').")]
    Invalid {
        name: &'static str,
        expected: &'static str,
        value: String,
    },
}

/// Reads configuration through `lookup` (the process environment in production; a map in tests).
pub fn from_lookup(
    lookup: impl Fn(&str) -> Option<String>,
    bind_flag: Option<SocketAddr>,
) -> Result<Config, ConfigError> {
    let get = |name: &str| {
        lookup(name)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let bind = match bind_flag {
        Some(addr) => addr,
        None => match get("VOICEMARK_BIND") {
            Some(v) => v.parse().map_err(|_| ConfigError::Invalid {
                name: "VOICEMARK_BIND",
                expected: "an address such as 127.0.0.1:3000",
                value: v,
            })?,
            None => SocketAddr::from(([127, 0, 0, 1], 3000)),
        },
    };
    let data_dir = PathBuf::from(get("VOICEMARK_DATA_DIR").unwrap_or_else(|| "data".into()));
    let url = match get("DATABASE_URL") {
        Some(raw) => DatabaseUrl::parse(&raw)?,
        None => DatabaseUrl::sqlite_file(&data_dir.join("voicemark.db")),
    };
    let pool_size = match get("VOICEMARK_DB_POOL_SIZE") {
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .ok_or(ConfigError::Invalid {
                name: "VOICEMARK_DB_POOL_SIZE",
                expected: "a number from 1 to 1000",
                value: v,
            })?,
        None => 8,
    };
    let log_json = match get("VOICEMARK_LOG_FORMAT").as_deref() {
        None | Some("text") => false,
        Some("json") => true,
        Some(other) => {
            return Err(ConfigError::Invalid {
                name: "VOICEMARK_LOG_FORMAT",
                expected: "text or json",
                value: other.to_owned(),
            })
        }
    };
    // A setting that is on or off, spelt one of the ways given.
    let switch = |name: &'static str, default: bool, on: &[&str], off: &[&str], expected| {
        match get(name).as_deref() {
            None => Ok(default),
            Some(v) if on.contains(&v) => Ok(true),
            Some(v) if off.contains(&v) => Ok(false),
            Some(other) => Err(ConfigError::Invalid {
                name,
                expected,
                value: other.to_owned(),
            }),
        }
    };
    let trust_proxy =
        switch("VOICEMARK_TRUST_PROXY", false, &["1", "true"], &["0", "false"], "1 or 0")?;
    let read_caches = match get("VOICEMARK_READ_CACHES") {
        None => crate::cache::CacheKind::ALL.to_vec(),
        Some(value) => crate::cache::CacheKind::parse_setting(&value).ok_or(ConfigError::Invalid {
            name: "VOICEMARK_READ_CACHES",
            expected: "on, off or a list of sessions, hub-count, roster",
            value,
        })?,
    };
    let number =
        |name: &'static str, default: u64, min: u64, max: u64| -> Result<u64, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => v
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or(ConfigError::Invalid {
                        name,
                        expected: "a whole number in range",
                        value: v,
                    }),
            }
        };
    let jobs = WorkerSettings {
        workers: number("VOICEMARK_JOB_WORKERS", 2, 0, 64)? as usize,
        poll_interval: std::time::Duration::from_millis(number(
            "VOICEMARK_JOB_POLL_MS",
            500,
            10,
            60_000,
        )?),
        lease: std::time::Duration::from_secs(number(
            "VOICEMARK_JOB_LEASE_SECONDS",
            300,
            1,
            86_400,
        )?),
        backoff_base: std::time::Duration::from_secs(number(
            "VOICEMARK_JOB_BACKOFF_SECONDS",
            30,
            0,
            3600,
        )?),
        run_timeout: std::time::Duration::from_secs(number(
            "VOICEMARK_JOB_TIMEOUT_SECONDS",
            600,
            1,
            86_400,
        )?),
        shutdown_grace: std::time::Duration::from_secs(number(
            "VOICEMARK_JOB_SHUTDOWN_SECONDS",
            10,
            0,
            3600,
        )?),
    };
    let smtp_timeouts = SmtpTimeouts {
        connect: std::time::Duration::from_secs(number(
            "VOICEMARK_SMTP_CONNECT_TIMEOUT_SECONDS",
            10,
            1,
            600,
        )?),
        command: std::time::Duration::from_secs(number(
            "VOICEMARK_SMTP_COMMAND_TIMEOUT_SECONDS",
            30,
            1,
            600,
        )?),
        message: std::time::Duration::from_secs(number(
            "VOICEMARK_SMTP_SEND_TIMEOUT_SECONDS",
            60,
            1,
            3600,
        )?),
    };
    let digest_hour = number("VOICEMARK_DIGEST_HOUR", 16, 0, 23)? as u32;
    let upload_ttl_hours = number("VOICEMARK_UPLOAD_TTL_HOURS", 24, 1, 24 * 365)? as u32;
    let storage = match get("VOICEMARK_STORAGE_URL") {
        None => crate::storage::StorageConfig::Local,
        Some(raw) => crate::storage::parse_storage_url(
            &raw,
            (
                get("AWS_ACCESS_KEY_ID"),
                get("AWS_SECRET_ACCESS_KEY"),
                get("AWS_SESSION_TOKEN"),
            ),
        )
        .map_err(|expected| ConfigError::Invalid {
            name: "VOICEMARK_STORAGE_URL",
            expected,
            // Never echo credentials: only the scheme and bucket.
            value: url::Url::parse(&raw)
                .map(|u| format!("{}://{}", u.scheme(), u.host_str().unwrap_or("")))
                .unwrap_or_else(|_| "<unreadable>".into()),
        })?,
    };
    let vision = match get("VOICEMARK_VISION_BASE_URL") {
        None => None,
        Some(base) => Some(VisionConfig {
            base_url: http_base_url("VOICEMARK_VISION_BASE_URL", base)?,
            model: get("VOICEMARK_VISION_MODEL").unwrap_or_else(|| "gpt-4o-mini".into()),
            api_key: get("VOICEMARK_VISION_API_KEY"),
        }),
    };
    let chat = chat_config(&get, vision.as_ref())?;
    let speech = speech::speech_config(&get)?;
    let stripe = stripe_config(&get)?;
    let products = stripe_products(&get);
    let microsoft = microsoft_config(&get)?;
    let encryption_key = match get("VOICEMARK_ENCRYPTION_KEY") {
        None => None,
        Some(raw) => Some(EncryptionKey(crate::crypto::parse_key(&raw).ok_or(
            ConfigError::Invalid {
                name: "VOICEMARK_ENCRYPTION_KEY",
                expected: "32 bytes written in base64 (openssl rand -base64 32)",
                value: "<hidden>".into(),
            },
        )?)),
    };
    let mis = MisConfig {
        wonde_url: get("VOICEMARK_WONDE_URL")
            .map(|u| http_base_url("VOICEMARK_WONDE_URL", u))
            .transpose()?,
        xporter_url: get("VOICEMARK_XPORTER_URL")
            .map(|u| http_base_url("VOICEMARK_XPORTER_URL", u))
            .transpose()?,
        delta_minutes: number("VOICEMARK_SYNC_DELTA_MINUTES", 60, 5, 24 * 60)? as u32,
        full_sync_hour: number("VOICEMARK_SYNC_FULL_HOUR", 2, 0, 23)? as u32,
    };
    Ok(Config {
        bounces: bounces::bounce_config(&get, &number)?,
        ops: ops::ops_config(&get, &number)?,
        transcription: speech::transcription_config(&get)?,
        microsoft,
        encryption_key,
        mis,
        stripe,
        products,
        jobs,
        digest_hour,
        storage,
        upload_ttl_hours,
        vision,
        speech,
        chat,
        bind,
        public_url: get("VOICEMARK_PUBLIC_URL")
            .map(|u| u.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| format!("http://{bind}")),
        data_dir,
        database: DatabaseConfig { url, pool_size, read_caches },
        support_email: get("VOICEMARK_SUPPORT_EMAIL")
            .unwrap_or_else(|| "support@voicemark.app".into()),
        log_json,
        mail: MailConfig {
            smtp_url: get("VOICEMARK_SMTP_URL"),
            from: get("VOICEMARK_MAIL_FROM")
                .unwrap_or_else(|| "Voicemark <no-reply@voicemark.app>".into()),
            timeouts: smtp_timeouts,
        },
        auth: AuthConfig {
            secret: get("VOICEMARK_SECRET"),
            trust_proxy,
            session_poll_seconds: number("VOICEMARK_SESSION_POLL_SECONDS", 0, 0, 86_400)?,
        },
    })
}

/// An `http(s)://` base URL without its trailing slash.
pub(crate) fn http_base_url(name: &'static str, value: String) -> Result<String, ConfigError> {
    match url::Url::parse(&value) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.has_host() => {
            Ok(value.trim_end_matches('/').to_owned())
        }
        _ => Err(ConfigError::Invalid {
            name,
            expected: "an http:// or https:// URL",
            value,
        }),
    }
}

/// Reads configuration from the process environment.
pub fn from_env(bind_flag: Option<SocketAddr>) -> Result<Config, ConfigError> {
    from_lookup(|name| std::env::var(name).ok(), bind_flag)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::HashMap;

    pub(crate) fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        from_lookup(|k| map.get(k).cloned(), None)
    }

    #[test]
    fn defaults_need_no_configuration() {
        let c = config(&[]).expect("defaults");
        assert_eq!(c.bind.to_string(), "127.0.0.1:3000");
        assert_eq!(c.public_url, "http://127.0.0.1:3000");
        assert_eq!(c.database.url.sqlite_target(), "data/voicemark.db");
        assert_eq!(c.database.pool_size, 8);
        assert_eq!(c.mail.from, "Voicemark <no-reply@voicemark.app>");
        assert!(c.mail.smtp_url.is_none() && c.auth.secret.is_none() && !c.auth.trust_proxy);
        assert!(c.vision.is_none() && c.speech.is_none() && c.chat.is_none());
    }

    #[test]
    fn providers_are_configured_and_their_keys_never_printed() {
        let c = config(&[
            ("VOICEMARK_VISION_BASE_URL", "http://localhost:11434/v1/"),
            ("VOICEMARK_VISION_API_KEY", "sk-vision-secret"),
            ("VOICEMARK_DEEPGRAM_API_KEY", "dg-secret"),
        ])
        .expect("config");
        let vision = c.vision.as_ref().expect("vision");
        assert_eq!(vision.base_url, "http://localhost:11434/v1");
        assert_eq!(vision.model, "gpt-4o-mini");
        let speech = c.speech.as_ref().expect("speech");
        assert_eq!(speech.url, "https://api.deepgram.com");
        let printed = format!("{c:?}");
        assert!(!printed.contains("sk-vision-secret") && !printed.contains("dg-secret"));
        let err =
            config(&[("VOICEMARK_VISION_BASE_URL", "localhost:11434")]).expect_err("no scheme");
        assert_eq!(
            err.to_string(),
            "VOICEMARK_VISION_BASE_URL must be an http:// or https:// URL (it is 'localhost:11434')."
        );
    }

    #[test]
    fn the_session_poll_interval_is_a_setting() {
        assert_eq!(config(&[]).expect("defaults").auth.session_poll_seconds, 0);
        let c = config(&[("VOICEMARK_SESSION_POLL_SECONDS", "45")]).expect("config");
        assert_eq!(c.auth.session_poll_seconds, 45);
        assert!(config(&[("VOICEMARK_SESSION_POLL_SECONDS", "-1")]).is_err());
    }

    #[test]
    fn bad_values_name_the_setting() {
        let err = config(&[("VOICEMARK_DB_POOL_SIZE", "lots")]).expect_err("a bad pool size");
        assert_eq!(
            err.to_string(),
            "VOICEMARK_DB_POOL_SIZE must be a number from 1 to 1000 (it is 'lots')."
        );
        let err = config(&[("DATABASE_URL", "mysql://x")]).expect_err("an unknown scheme");
        assert!(err.to_string().starts_with("DATABASE_URL must start with"));
    }
}
