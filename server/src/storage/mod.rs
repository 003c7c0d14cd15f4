//! Object storage: files kept by key. `FileStore` is the small interface every store
//! implements; [`LocalStore`] (a folder, `{data_dir}/files`) is the default and
//! [`S3Store`] (any S3-compatible bucket) is picked by `VOICEMARK_STORAGE_URL`.
//! [`Storage`] is the configured one, with signed URLs the browser uses to PUT and GET
//! files directly (see docs/storage.md).

mod configured;
mod local;
pub mod multipart;
pub mod s3;
pub mod signed_url;
pub mod sigv4;

use axum::body::Bytes;
use futures_util::stream::BoxStream;

pub use configured::{
    content_disposition, parse_storage_url, SignedUpload, Storage, StorageConfig, UploadSpec,
};
pub use local::LocalStore;
pub use s3::{S3Config, S3Store};

/// Why a store refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// More than the allowed number of bytes arrived; nothing was kept.
    #[error("the file is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    /// The key has characters a key may not have (only `[A-Za-z0-9._-]` and `/`).
    #[error("invalid key")]
    InvalidKey,
    #[error("no file at this key")]
    NotFound,
    /// The storage service answered with an error (an S3 status and its text).
    #[error("storage service: {0}")]
    Service(String),
    /// The upload's body broke off while it was read (the client went away or sent a
    /// malformed body): the client's fault, nothing was kept.
    #[error("the upload broke off: {0}")]
    Body(std::io::Error),
    /// The store failed to read or write (a full or read-only disk, no permission, a
    /// network error): the server's fault. See `db::fault::Fault::of_io`.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A stream of body chunks, as an upload arrives.
pub type ByteStream<'a> = BoxStream<'a, Result<Bytes, std::io::Error>>;

/// A place to keep files by key.
#[allow(async_fn_in_trait)]
pub trait FileStore {
    /// Stores `body` under `key`, reading it chunk by chunk; once more than `max_bytes`
    /// have arrived it stops reading, keeps nothing and answers `TooLarge`. A file
    /// appears under `key` only when it arrived whole. Returns the number of bytes kept.
    async fn put(&self, key: &str, body: ByteStream<'_>, max_bytes: u64)
        -> Result<u64, StoreError>;

    /// The whole file at `key`.
    async fn get(&self, key: &str) -> Result<Vec<u8>, StoreError>;

    /// Removes the file at `key`; a missing file is not an error.
    async fn delete(&self, key: &str) -> Result<(), StoreError>;

    /// The size of the file at `key`, or `None` when there is none (S3: `HEAD`).
    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError>;
}

/// Whether `key` is safe to use as a relative path: non-empty segments of `[A-Za-z0-9._-]`,
/// none of them `.` or `..`.
pub fn is_valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 512
        && key.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cannot_leave_the_store() {
        assert!(is_valid_key("submissions/abc-1/def_2.bin"));
        assert!(!is_valid_key("../etc/passwd"));
        assert!(!is_valid_key("a//b"));
        assert!(!is_valid_key("/abs"));
        assert!(!is_valid_key("a/./b"));
        assert!(!is_valid_key("a b"));
        assert!(!is_valid_key(""));
    }
}
