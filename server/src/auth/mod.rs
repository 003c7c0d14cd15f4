//! Authentication: Auth.js-compatible endpoints, server-side sessions, CSRF, sign-in limits,
//! and the account flows (register, confirm, forgot/reset and change password).

pub mod accounts;
pub mod csrf;
pub mod rate_limit;
pub mod routes;
pub mod secret;
pub mod session;
pub mod session_cache;
pub mod tokens;

pub use accounts::account_disabled_message;
pub use routes::{client_address, microsoft_connect_routes, routes};

use crate::config::Config;

/// What sign-in keeps between requests: the CSRF secret and the attempt counters.
#[derive(Debug)]
pub struct AuthServices {
    secret: String,
    /// Counted in `db` on PostgreSQL (every process shares them), else in memory.
    pub limiter: rate_limit::Limits,
}

impl AuthServices {
    /// Reads (or makes) the secret (see [`secret::load_or_create`]); the limits count in
    /// `db` when it is PostgreSQL.
    pub fn from_config(config: &Config, db: &crate::db::Db) -> std::io::Result<AuthServices> {
        Ok(AuthServices {
            secret: secret::load_or_create(config)?,
            limiter: rate_limit::Limits::new(db),
        })
    }

    /// The secret that keys CSRF tokens.
    pub fn secret(&self) -> &str {
        &self.secret
    }
}
