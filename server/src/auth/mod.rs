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
    pub limiter: rate_limit::RateLimiter,
}

impl AuthServices {
    /// Reads (or makes) the secret; see [`secret::load_or_create`].
    pub fn from_config(config: &Config) -> std::io::Result<AuthServices> {
        Ok(AuthServices {
            secret: secret::load_or_create(config)?,
            limiter: Default::default(),
        })
    }

    /// The secret that keys CSRF tokens.
    pub fn secret(&self) -> &str {
        &self.secret
    }
}
