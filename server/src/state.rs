//! The application state every handler, procedure and job reaches: the database, the
//! configuration, mail, auth services, storage and providers. Its own module so that route
//! modules import it without importing the router that assembles them (`app.rs`).

use std::sync::Arc;

use crate::auth::AuthServices;
use crate::config::Config;
use crate::db::Db;
use crate::mail::Mailer;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    /// Sends e-mail (outbox folder or SMTP).
    pub mailer: Arc<Mailer>,
    /// The CSRF secret and the sign-in attempt counters.
    pub auth: Arc<AuthServices>,
    /// Where uploaded files live (local folder or S3 bucket) and how their URLs are signed.
    pub storage: Arc<crate::storage::Storage>,
    /// The AI vision and speech providers, where configured.
    pub providers: Arc<crate::providers::Providers>,
    /// Seals and opens the secrets kept for schools (MIS tokens, Microsoft tokens).
    pub secrets: Arc<crate::crypto::SecretBox>,
    /// Starting, serving or draining: what `/api/ready` answers (`http::ready`).
    pub readiness: Arc<crate::http::ready::Readiness>,
}

/// Why the state could not be assembled at start-up.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("Cannot set up e-mail: {0}.")]
    Mail(#[from] crate::mail::MailError),
    #[error("Cannot read or create the secret in {dir}: {source}.")]
    Secret { dir: String, source: std::io::Error },
    #[error("Cannot set up the HTTP client for the AI and speech providers: {0}.")]
    Providers(reqwest::Error),
}

impl AppState {
    /// Builds the mailer and the auth services from `config` around an open database.
    pub fn new(db: Db, config: Config) -> Result<AppState, StateError> {
        let mailer = Mailer::from_config(&config)?;
        let auth = AuthServices::from_config(&config, &db).map_err(|source| StateError::Secret {
            dir: config.data_dir.display().to_string(),
            source,
        })?;
        let providers =
            crate::providers::Providers::from_config(&config).map_err(StateError::Providers)?;
        let secret =
            crate::auth::secret::load_or_create(&config).map_err(|source| StateError::Secret {
                dir: config.data_dir.display().to_string(),
                source,
            })?;
        let storage = crate::storage::Storage::new(&config.storage, &config.data_dir, &secret);
        let secrets = match &config.encryption_key {
            Some(key) => crate::crypto::SecretBox::new(&key.0),
            None => crate::crypto::SecretBox::derived_from(&secret),
        };
        Ok(AppState {
            readiness: Arc::new(crate::http::ready::Readiness::new(config.database.url.clone())),
            secrets: Arc::new(secrets),
            storage: Arc::new(storage),
            providers: Arc::new(providers),
            db,
            config: Arc::new(config),
            mailer: Arc::new(mailer),
            auth: Arc::new(auth),
        })
    }
}
