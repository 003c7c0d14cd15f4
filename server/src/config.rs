//! Configuration: one struct per concern, read from the environment (flags override).
//! Every setting, its variable and its default are listed in the README.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::db::{DatabaseUrl, DatabaseUrlError};

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
}

/// Which database and how many connections.
#[derive(Debug, Clone)]
pub struct DatabaseConfig {
    /// `DATABASE_URL`, default `sqlite://{data_dir}/voicemark.db`.
    pub url: DatabaseUrl,
    /// `VOICEMARK_DB_POOL_SIZE`, default 8.
    pub pool_size: usize,
}

/// A setting that could not be read, as one sentence.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    DatabaseUrl(#[from] DatabaseUrlError),
    #[error("{name} must be {expected} (it is '{value}').")]
    Invalid { name: &'static str, expected: &'static str, value: String },
}

/// Reads configuration through `lookup` (the process environment in production; a map in tests).
pub fn from_lookup(
    lookup: impl Fn(&str) -> Option<String>,
    bind_flag: Option<SocketAddr>,
) -> Result<Config, ConfigError> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
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
        Some(v) => v.parse::<usize>().ok().filter(|n| (1..=1000).contains(n)).ok_or(
            ConfigError::Invalid {
                name: "VOICEMARK_DB_POOL_SIZE",
                expected: "a number from 1 to 1000",
                value: v,
            },
        )?,
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
    Ok(Config {
        bind,
        public_url: get("VOICEMARK_PUBLIC_URL")
            .map(|u| u.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| format!("http://{bind}")),
        data_dir,
        database: DatabaseConfig { url, pool_size },
        support_email: get("VOICEMARK_SUPPORT_EMAIL").unwrap_or_else(|| "support@voicemark.app".into()),
        log_json,
    })
}

/// Reads configuration from the process environment.
pub fn from_env(bind_flag: Option<SocketAddr>) -> Result<Config, ConfigError> {
    from_lookup(|name| std::env::var(name).ok(), bind_flag)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> =
            vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        from_lookup(|k| map.get(k).cloned(), None)
    }

    #[test]
    fn defaults_need_no_configuration() {
        let c = config(&[]).expect("defaults");
        assert_eq!(c.bind.to_string(), "127.0.0.1:3000");
        assert_eq!(c.public_url, "http://127.0.0.1:3000");
        assert_eq!(c.database.url.sqlite_target(), "data/voicemark.db");
        assert_eq!(c.database.pool_size, 8);
    }

    #[test]
    fn bad_values_name_the_setting() {
        let err = config(&[("VOICEMARK_DB_POOL_SIZE", "lots")]).unwrap_err();
        assert_eq!(err.to_string(), "VOICEMARK_DB_POOL_SIZE must be a number from 1 to 1000 (it is 'lots').");
        let err = config(&[("DATABASE_URL", "mysql://x")]).unwrap_err();
        assert!(err.to_string().starts_with("DATABASE_URL must start with"));
    }
}
