//! What a failed statement means for the caller: a fault of the service (answered 503
//! with a plain reason, the cause logged), a user's duplicate (answered as a clear
//! refusal), or a bug (500). Read by the error types of HTTP and RPC, so both answer a
//! fault the same way.
//!
//! diesel hands over a kind and the database's message, not the SQLSTATE or SQLite's
//! result code, so part of this reads the message. Those texts are stable: SQLite's come
//! from `sqlite3_errstr`, PostgreSQL's are its English messages (a server whose
//! `lc_messages` is not English still gets 503 for dropped connections, which carry no
//! text, and 500 for a timeout).

use diesel::result::{DatabaseErrorKind, Error};

/// The plain sentence for a database or store that cannot be used right now.
pub const UNAVAILABLE: &str = "The service is temporarily unavailable. Please try again.";
/// The plain sentence for a full disk (SQLite, PostgreSQL or the file store).
pub const DISK_FULL: &str = "The server cannot store data right now: its disk is full.";
/// The plain sentence for storage mounted or opened read-only.
pub const READ_ONLY: &str = "The server cannot store data right now: its storage is read-only.";
/// The plain sentence for a store folder the server may not write (permissions, or a
/// path that is not a folder).
pub const NOT_WRITABLE: &str =
    "The server cannot store data right now: its storage folder cannot be written.";
/// The plain sentence for a unique index met by a user's request that no procedure handled.
pub const DUPLICATE: &str = "This already exists.";

/// What a failed statement means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The connection broke or was closed, the database is busy, or a statement or lock
    /// wait ran out of time: the same request may work in a moment.
    Unavailable,
    /// The disk under the database is full.
    DiskFull,
    /// The database or store cannot be written (read-only file, folder or transaction).
    ReadOnly,
    /// The store's folder may not be written (permissions, or not a folder).
    NotWritable,
    /// A unique index refused the row.
    Duplicate,
    /// Anything else: a bug, answered 500.
    Bug,
}

impl Fault {
    /// Reads what `err` means.
    pub fn of(err: &Error) -> Fault {
        match err {
            Error::DatabaseError(kind, info) => match kind {
                DatabaseErrorKind::UniqueViolation => Fault::Duplicate,
                DatabaseErrorKind::ReadOnlyTransaction => Fault::ReadOnly,
                DatabaseErrorKind::ClosedConnection
                | DatabaseErrorKind::UnableToSendCommand
                | DatabaseErrorKind::SerializationFailure => Fault::Unavailable,
                _ => Fault::of_message(info.message()),
            },
            Error::BrokenTransactionManager => Fault::Unavailable,
            _ => Fault::Bug,
        }
    }

    /// Reads a database's error message (see the module note).
    pub fn of_message(message: &str) -> Fault {
        let m = message.to_ascii_lowercase();
        let any = |needles: &[&str]| needles.iter().any(|n| m.contains(n));
        if any(&[
            "database or disk is full",
            "no space left on device",
            "disk quota",
        ]) {
            Fault::DiskFull
        } else if any(&["readonly database", "read-only", "read only"]) {
            Fault::ReadOnly
        } else if any(&[
            // SQLite: SQLITE_BUSY / SQLITE_LOCKED after busy_timeout.
            "database is locked",
            "database table is locked",
            "database schema is locked",
            // PostgreSQL: statement_timeout, lock_timeout, a terminated backend, shutdown.
            "canceling statement due to",
            "terminating connection",
            "server closed the connection",
            "connection closed",
            "broken pipe",
            "connection reset",
            "the database system is shutting down",
            "the database system is starting up",
            "too many clients",
            "disk i/o error",
        ]) {
            Fault::Unavailable
        } else {
            Fault::Bug
        }
    }

    /// Reads an I/O error of the file store: a full or read-only disk, a folder the
    /// server may not write, or a path that is not a folder, are faults of the server.
    pub fn of_io(err: &std::io::Error) -> Fault {
        use std::io::ErrorKind;
        match err.kind() {
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded => Fault::DiskFull,
            ErrorKind::ReadOnlyFilesystem => Fault::ReadOnly,
            ErrorKind::PermissionDenied | ErrorKind::NotADirectory => Fault::NotWritable,
            _ => Fault::Bug,
        }
    }

    /// The sentence shown for a fault of the service; `None` for a duplicate or a bug.
    pub fn unavailable_message(self) -> Option<&'static str> {
        match self {
            Fault::Unavailable => Some(UNAVAILABLE),
            Fault::DiskFull => Some(DISK_FULL),
            Fault::ReadOnly => Some(READ_ONLY),
            Fault::NotWritable => Some(NOT_WRITABLE),
            Fault::Duplicate | Fault::Bug => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db_error(kind: DatabaseErrorKind, message: &str) -> Error {
        Error::DatabaseError(kind, Box::new(message.to_owned()))
    }

    #[test]
    fn database_messages_read_as_faults() {
        use DatabaseErrorKind::Unknown;
        let cases = [
            ("database or disk is full", Fault::DiskFull),
            ("attempt to write a readonly database", Fault::ReadOnly),
            ("database is locked", Fault::Unavailable),
            (
                "canceling statement due to lock timeout",
                Fault::Unavailable,
            ),
            (
                "canceling statement due to statement timeout",
                Fault::Unavailable,
            ),
            (
                "terminating connection due to administrator command",
                Fault::Unavailable,
            ),
            (
                "could not extend file \"base/1/2\": No space left on device",
                Fault::DiskFull,
            ),
            ("syntax error at or near \"SELEC\"", Fault::Bug),
        ];
        for (message, fault) in cases {
            assert_eq!(Fault::of(&db_error(Unknown, message)), fault, "{message}");
        }
        assert_eq!(
            Fault::of(&db_error(DatabaseErrorKind::UniqueViolation, "dup")),
            Fault::Duplicate
        );
        assert_eq!(
            Fault::of(&db_error(DatabaseErrorKind::ClosedConnection, "")),
            Fault::Unavailable
        );
        assert_eq!(Fault::of(&Error::NotFound), Fault::Bug);
    }

    #[test]
    fn store_errors_read_by_kind() {
        use std::io::{Error as IoError, ErrorKind};
        assert_eq!(
            Fault::of_io(&IoError::from(ErrorKind::StorageFull)),
            Fault::DiskFull
        );
        assert_eq!(
            Fault::of_io(&IoError::from_raw_os_error(30)), // EROFS
            Fault::ReadOnly
        );
        assert_eq!(
            Fault::of_io(&IoError::from_raw_os_error(122)), // EDQUOT
            Fault::DiskFull
        );
        assert_eq!(
            Fault::of_io(&IoError::from_raw_os_error(20)), // ENOTDIR
            Fault::NotWritable
        );
        assert_eq!(
            Fault::of_io(&IoError::from(ErrorKind::UnexpectedEof)),
            Fault::Bug
        );
    }
}
