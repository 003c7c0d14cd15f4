//! `DATABASE_URL`: its scheme picks the backend (`sqlite://path` or `postgres://...`).

use std::path::{Path, PathBuf};

/// The two supported databases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// A database URL that has been checked and classified.
#[derive(Debug, Clone)]
pub struct DatabaseUrl {
    raw: String,
    backend: Backend,
    /// For SQLite: the file path, or `:memory:`.
    sqlite_target: Option<String>,
}

/// Why a `DATABASE_URL` was refused, as one sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatabaseUrlError {
    #[error("DATABASE_URL is empty; use sqlite://path/to/file.db or postgres://user@host/db.")]
    Empty,
    #[error("DATABASE_URL must start with sqlite:// or postgres:// (it starts with '{0}').")]
    UnknownScheme(String),
    #[error("DATABASE_URL names no SQLite file; use sqlite://path/to/file.db.")]
    MissingSqlitePath,
    #[error("DATABASE_URL is not a valid PostgreSQL URL: {0}.")]
    BadPostgres(String),
}

impl DatabaseUrl {
    /// Parses and classifies `raw`.
    pub fn parse(raw: &str) -> Result<DatabaseUrl, DatabaseUrlError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(DatabaseUrlError::Empty);
        }
        if let Some(rest) = raw.strip_prefix("sqlite:") {
            let target = rest.strip_prefix("//").unwrap_or(rest);
            let target = target.split('?').next().unwrap_or_default();
            if target.is_empty() {
                return Err(DatabaseUrlError::MissingSqlitePath);
            }
            return Ok(DatabaseUrl {
                raw: raw.to_owned(),
                backend: Backend::Sqlite,
                sqlite_target: Some(target.to_owned()),
            });
        }
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            let parsed =
                url::Url::parse(raw).map_err(|e| DatabaseUrlError::BadPostgres(e.to_string()))?;
            if parsed.host_str().is_none_or(str::is_empty) {
                return Err(DatabaseUrlError::BadPostgres("it names no host".into()));
            }
            return Ok(DatabaseUrl {
                raw: raw.to_owned(),
                backend: Backend::Postgres,
                sqlite_target: None,
            });
        }
        let scheme: String = raw
            .split(':')
            .next()
            .unwrap_or(raw)
            .chars()
            .take(20)
            .collect();
        Err(DatabaseUrlError::UnknownScheme(scheme))
    }

    /// A SQLite file URL for `path`.
    pub fn sqlite_file(path: &Path) -> DatabaseUrl {
        let target = path.to_string_lossy().into_owned();
        DatabaseUrl {
            raw: format!("sqlite://{target}"),
            backend: Backend::Sqlite,
            sqlite_target: Some(target),
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The URL as given (it may hold a password: never log it; use `display_target`).
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// What diesel's SQLite connection opens: a path or `:memory:`.
    pub fn sqlite_target(&self) -> &str {
        self.sqlite_target.as_deref().unwrap_or_default()
    }

    pub fn is_memory(&self) -> bool {
        self.sqlite_target.as_deref() == Some(":memory:")
    }

    /// The SQLite file, if this is a SQLite file URL.
    pub fn sqlite_path(&self) -> Option<PathBuf> {
        match &self.sqlite_target {
            Some(t) if !self.is_memory() => Some(PathBuf::from(t)),
            _ => None,
        }
    }

    /// The PostgreSQL `options` parameter of the URL (e.g. `-c lock_timeout=2s`), decoded;
    /// empty when there is none or this is not PostgreSQL.
    pub fn postgres_options(&self) -> String {
        if self.backend != Backend::Postgres {
            return String::new();
        }
        url::Url::parse(&self.raw)
            .ok()
            .and_then(|u| {
                u.query_pairs()
                    .find(|(k, _)| k == "options")
                    .map(|(_, v)| v.into_owned())
            })
            .unwrap_or_default()
    }

    /// The URL without its password, safe for logs and error messages.
    pub fn display_target(&self) -> String {
        match self.backend {
            Backend::Sqlite => format!("sqlite://{}", self.sqlite_target()),
            Backend::Postgres => match url::Url::parse(&self.raw) {
                Ok(mut u) => {
                    if u.password().is_some() {
                        let _ = u.set_password(Some("***"));
                    }
                    u.to_string()
                }
                Err(_) => "postgres://(invalid)".into(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_pick_the_backend() {
        let sqlite = DatabaseUrl::parse("sqlite://data/voicemark.db").expect("valid");
        assert_eq!(sqlite.backend(), Backend::Sqlite);
        assert_eq!(sqlite.sqlite_target(), "data/voicemark.db");
        let abs = DatabaseUrl::parse("sqlite:///tmp/x.db").expect("valid");
        assert_eq!(abs.sqlite_target(), "/tmp/x.db");
        assert!(DatabaseUrl::parse("sqlite::memory:")
            .expect("valid")
            .is_memory());
        let pg = DatabaseUrl::parse("postgres://u:secret@127.0.0.1:5432/db").expect("valid");
        assert_eq!(pg.backend(), Backend::Postgres);
        assert!(!pg.display_target().contains("secret"));
    }

    #[test]
    fn postgres_options_are_read_decoded() {
        let pg =
            DatabaseUrl::parse("postgres://u@h/db?options=-c%20lock_timeout%3D300").expect("valid");
        assert_eq!(pg.postgres_options(), "-c lock_timeout=300");
        let plain = DatabaseUrl::parse("postgres://u@h/db").expect("valid");
        assert_eq!(plain.postgres_options(), "");
    }

    #[test]
    fn bad_urls_get_one_clear_sentence() {
        assert_eq!(
            DatabaseUrl::parse("mysql://x")
                .expect_err("mysql")
                .to_string(),
            "DATABASE_URL must start with sqlite:// or postgres:// (it starts with 'mysql')."
        );
        assert_eq!(
            DatabaseUrl::parse("").expect_err("empty"),
            DatabaseUrlError::Empty
        );
        assert_eq!(
            DatabaseUrl::parse("sqlite://").expect_err("no path"),
            DatabaseUrlError::MissingSqlitePath
        );
        assert!(matches!(
            DatabaseUrl::parse("postgres://"),
            Err(DatabaseUrlError::BadPostgres(_))
        ));
    }
}
