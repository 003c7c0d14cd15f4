//! `system.setup`: the superadmin's one page of what this server is set up for (`/setup`):
//! each optional capability, whether it is on, and the settings and docs that switch it on.
//! Staff never read setting names (they see a plain sentence and are told to ask); this is
//! where the operator finds them. Only whether a setting is set is sent, never its value:
//! several are secrets (API keys, the Stripe secret, the SMTP password inside its URL).

use core_wasm::UserRole;

use crate::config::Config;
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};
use crate::storage::StorageConfig;

rpc_type! {
    pub struct Setup {
        pub capabilities: Vec<Capability>,
    }
}

rpc_type! {
    /// One capability as the setup page lists it.
    pub struct Capability {
        /// A stable key (`chat`, `vision`, `speech`, `transcription`, `billing`, `microsoft`,
        /// `mis`, `mail`, `storage`, `metrics`).
        pub key: String,
        /// What staff call it ("AI writing").
        pub name: String,
        /// What it gives staff, in one sentence.
        pub purpose: String,
        pub on: bool,
        /// How it is on (or what happens while it is off), in one sentence.
        pub status: String,
        pub settings: Vec<Setting>,
        /// The guide in the repository's `docs/` folder.
        pub docs: String,
    }
}

rpc_type! {
    /// A setting by name, and whether it is set (its value is never sent).
    pub struct Setting {
        pub name: String,
        pub set: bool,
        /// Needed to switch the capability on (the others are optional).
        pub required: bool,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Setup> {
    ctx.require_role(&[UserRole::Superadmin])?;
    Ok(Setup {
        capabilities: capabilities(&ctx.state.config),
    })
}

fn setting(name: &str, set: bool, required: bool) -> Setting {
    Setting {
        name: name.to_owned(),
        set,
        required,
    }
}

/// The host (and port) of a base URL: where a provider's data goes, in plain words.
fn host(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => match (parsed.host_str(), parsed.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            (None, _) => url.to_owned(),
        },
        Err(_) => url.to_owned(),
    }
}

/// Every capability, in the order the page lists them.
pub fn capabilities(config: &Config) -> Vec<Capability> {
    let vision = config.vision.as_ref();
    let chat = config.chat.as_ref();
    let stripe = config.stripe.as_ref();
    let products = &config.products;
    let billing_on = stripe.is_some_and(|s| s.publishable_key.is_some() && s.pricing_table_id.is_some());
    let s3 = matches!(config.storage, StorageConfig::S3(_));
    let own_chat = chat.is_some_and(|c| vision.is_none_or(|v| v.base_url != c.base_url));
    let (speech, transcription) = (config.speech.as_ref(), config.transcription.as_ref());
    vec![
        Capability {
            key: "chat".into(),
            name: "AI writing".into(),
            purpose: "The AI assistant, task autofill, AI Formatting and the report generator.".into(),
            on: chat.is_some(),
            status: match chat {
                Some(c) if own_chat => format!(
                    "On, with the model {} at {}: what staff ask it to write from is sent there.",
                    c.model,
                    host(&c.base_url)
                ),
                Some(c) => format!(
                    "On, through the photo-reading server, with the model {} at {}: what staff ask it to write from is sent there.",
                    c.model,
                    host(&c.base_url)
                ),
                None => "Off: staff are told it is not switched on for their school.".into(),
            },
            settings: vec![
                setting("VOICEMARK_CHAT_BASE_URL", own_chat, chat.is_none() && vision.is_none()),
                setting("VOICEMARK_CHAT_MODEL", own_chat, false),
                setting("VOICEMARK_CHAT_API_KEY", chat.is_some_and(|c| c.api_key.is_some()), false),
            ],
            docs: "docs/providers.md".into(),
        },
        Capability {
            key: "vision".into(),
            name: "Photo reading".into(),
            purpose: "The photo analyser turns photos of pupils' work into feedback or notes.".into(),
            on: vision.is_some(),
            status: match vision {
                Some(v) => format!(
                    "On, with the model {} at {}: the photos are sent there.",
                    v.model,
                    host(&v.base_url)
                ),
                None => "Off: the photo analyser says so before any photo is taken.".into(),
            },
            settings: vec![
                setting("VOICEMARK_VISION_BASE_URL", vision.is_some(), true),
                setting("VOICEMARK_VISION_MODEL", vision.is_some(), false),
                setting("VOICEMARK_VISION_API_KEY", vision.is_some_and(|v| v.api_key.is_some()), false),
            ],
            docs: "docs/providers.md".into(),
        },
        Capability {
            key: "speech".into(),
            name: "Live dictation".into(),
            purpose: "Staff speak and see their words typed as they talk.".into(),
            on: speech.is_some(),
            status: match speech {
                Some(s) => format!(
                    "On, through Deepgram at {}: the browser streams what is said there while dictating.",
                    host(&s.url)
                ),
                None => "Off: dictation says it is not switched on.".into(),
            },
            settings: vec![
                setting("VOICEMARK_DEEPGRAM_API_KEY", speech.is_some(), true),
                setting("VOICEMARK_DEEPGRAM_URL", speech.is_some_and(|s| s.url != "https://api.deepgram.com"), false),
            ],
            docs: "docs/providers.md".into(),
        },
        Capability {
            key: "transcription".into(),
            name: "Recorded audio transcription".into(),
            purpose: "Transcripts of voice notes and of a task's recordings, for reports and tasks.".into(),
            on: transcription.is_some() || speech.is_some(),
            status: match (transcription, speech) {
                (Some(t), _) => format!(
                    "On, with the model {} at {}: voice notes and recordings are sent there.",
                    t.model,
                    host(&t.base_url)
                ),
                (None, Some(s)) => format!(
                    "On, through Deepgram at {}: voice notes and recordings are sent there.",
                    host(&s.url)
                ),
                (None, None) => "Off: recordings are kept without a transcript, and staff are told it is not switched on.".into(),
            },
            settings: vec![
                setting("VOICEMARK_TRANSCRIPTION_URL", transcription.is_some(), false),
                setting("VOICEMARK_TRANSCRIPTION_MODEL", transcription.is_some_and(|t| t.model != "whisper-1"), false),
                setting("VOICEMARK_TRANSCRIPTION_API_KEY", transcription.is_some_and(|t| t.api_key.is_some()), false),
                setting("VOICEMARK_TRANSCRIPTION_LANGUAGE", transcription.is_some_and(|t| t.language.is_some()), false),
            ],
            docs: "docs/providers.md".into(),
        },
        Capability {
            key: "billing".into(),
            name: "Billing".into(),
            purpose: "Schools upgrade to Pro and manage their subscription by card, through Stripe.".into(),
            on: billing_on,
            status: if billing_on {
                "On: the Upgrade dialog shows the pricing table.".into()
            } else {
                "Off: plans are changed by hand on Manage organisations; staff are asked to write to Support.".into()
            },
            settings: vec![
                setting("VOICEMARK_STRIPE_SECRET_KEY", stripe.is_some(), true),
                setting("VOICEMARK_STRIPE_PUBLISHABLE_KEY", stripe.is_some_and(|s| s.publishable_key.is_some()), true),
                setting("VOICEMARK_STRIPE_PRICING_TABLE_ID", stripe.is_some_and(|s| s.pricing_table_id.is_some()), true),
                setting("VOICEMARK_STRIPE_WEBHOOK_SECRET", stripe.is_some_and(|s| !s.webhook_secrets.is_empty()), true),
                setting("VOICEMARK_STRIPE_PRODUCT_BASIC", products.basic.is_some(), false),
                setting("VOICEMARK_STRIPE_PRODUCT_PRO", products.pro.is_some(), false),
                setting("VOICEMARK_STRIPE_PRODUCT_ENTERPRISE", products.enterprise.is_some(), false),
            ],
            docs: "docs/billing.md".into(),
        },
        Capability {
            key: "microsoft".into(),
            name: "Microsoft 365".into(),
            purpose: "Sign in with Microsoft, and importing OneDrive, SharePoint and Teams recordings into tasks.".into(),
            on: config.microsoft.is_some(),
            status: if config.microsoft.is_some() {
                "On.".into()
            } else {
                "Off: the Microsoft button is hidden and tasks say Microsoft 365 is not switched on.".into()
            },
            settings: vec![
                setting("VOICEMARK_MICROSOFT_CLIENT_ID", config.microsoft.is_some(), true),
                setting("VOICEMARK_MICROSOFT_CLIENT_SECRET", config.microsoft.is_some(), true),
                setting("VOICEMARK_MICROSOFT_TENANT_ID", config.microsoft.as_ref().is_some_and(|m| m.tenant != "organizations"), false),
            ],
            docs: "docs/microsoft-signin.md".into(),
        },
        Capability {
            key: "mis".into(),
            name: "MIS sync".into(),
            purpose: "Pupils, classes and staff kept in step with Wonde or Groupcall Xporter.".into(),
            // Each school connects its own MIS on Manage School; the server needs nothing more.
            on: true,
            status: "On: each school's admin connects Wonde or Groupcall on Manage School, MIS sync.".into(),
            settings: vec![
                setting("VOICEMARK_ENCRYPTION_KEY", config.encryption_key.is_some(), false),
                setting("VOICEMARK_WONDE_URL", config.mis.wonde_url.is_some(), false),
                setting("VOICEMARK_XPORTER_URL", config.mis.xporter_url.is_some(), false),
            ],
            docs: "docs/mis-sync.md".into(),
        },
        Capability {
            key: "mail".into(),
            name: "E-mail".into(),
            purpose: "Messages to parents and pupils, invitations, password resets and digests.".into(),
            on: config.mail.smtp_url.is_some(),
            status: if config.mail.smtp_url.is_some() {
                "On, through the SMTP server.".into()
            } else {
                "Off: messages are written to the outbox folder on the server instead of being sent.".into()
            },
            settings: vec![
                setting("VOICEMARK_SMTP_URL", config.mail.smtp_url.is_some(), true),
                setting("VOICEMARK_MAIL_FROM", true, false),
                setting("VOICEMARK_PUBLIC_URL", true, false),
                // Bounces (docs/bounces.md): all optional.
                setting("VOICEMARK_BOUNCE_ADDRESS", config.bounces.address.is_some(), false),
                setting("VOICEMARK_BOUNCE_IMAP_URL", config.bounces.imap_url.is_some(), false),
                setting("VOICEMARK_BOUNCE_POLL_MINUTES", config.bounces.poll_minutes != 5, false),
                setting("VOICEMARK_SENDGRID_WEBHOOK_PUBLIC_KEY", config.bounces.sendgrid_public_key.is_some(), false),
            ],
            docs: "docs/jobs-and-mail.md".into(),
        },
        Capability {
            key: "storage".into(),
            name: "File storage".into(),
            purpose: "Voice notes, photos, uploads and task files.".into(),
            on: true,
            status: if s3 {
                "On, in an S3-compatible bucket.".into()
            } else {
                "On, in a folder on this server (one server only; use a bucket to run several).".into()
            },
            settings: vec![setting("VOICEMARK_STORAGE_URL", s3, false)],
            docs: "docs/storage.md".into(),
        },
        Capability {
            key: "metrics".into(),
            name: "Metrics".into(),
            purpose: "Request, job, e-mail and provider figures for the operator's monitoring.".into(),
            on: config.ops.metrics_addr.is_some(),
            status: match config.ops.metrics_addr {
                Some(addr) => format!("On, at http://{addr}/metrics, apart from the public address."),
                None => "Off: nothing is collected.".into(),
            },
            settings: vec![
                setting("VOICEMARK_METRICS_ADDR", config.ops.metrics_addr.is_some(), true),
                setting("VOICEMARK_DRAIN_SECONDS", config.ops.drain.as_secs() != 5, false),
            ],
            docs: "docs/operations.md".into(),
        },
    ]
}
