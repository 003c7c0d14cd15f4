//! `LocalStore`: files in a folder on this machine (the default, `{data_dir}/files`).

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;

use super::{is_valid_key, ByteStream, FileStore, StoreError};

/// Keeps each key as a file under `root`.
#[derive(Debug, Clone)]
pub struct LocalStore {
    root: PathBuf,
}

impl LocalStore {
    pub fn new(root: impl Into<PathBuf>) -> LocalStore {
        LocalStore { root: root.into() }
    }

    /// The store of a data folder: `{data_dir}/files`.
    pub fn in_data_dir(data_dir: &Path) -> LocalStore {
        LocalStore::new(data_dir.join("files"))
    }

    /// The folder files are kept in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &str) -> Result<PathBuf, StoreError> {
        if !is_valid_key(key) {
            return Err(StoreError::InvalidKey);
        }
        Ok(self.root.join(key))
    }
}

impl LocalStore {
    /// The file at `key` as a stream of chunks (64 KiB reads), with its length.
    pub async fn get_stream(
        &self,
        key: &str,
    ) -> Result<(super::ByteStream<'static>, Option<u64>), StoreError> {
        let file = match tokio::fs::File::open(self.path(key)?).await {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::NotFound)
            }
            Err(err) => return Err(err.into()),
        };
        let length = file.metadata().await?.len();
        let stream = tokio_util::io::ReaderStream::with_capacity(file, 64 * 1024).boxed();
        Ok((stream, Some(length)))
    }
}

impl FileStore for LocalStore {
    async fn put(
        &self,
        key: &str,
        mut body: ByteStream<'_>,
        max_bytes: u64,
    ) -> Result<u64, StoreError> {
        let path = self.path(key)?;
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        // Written beside the target and renamed into place when whole, so a reader never
        // sees half a file and a refused upload leaves nothing behind.
        let partial = path.with_extension(format!("part-{}", crate::ids::new_id()));
        let result = async {
            let mut file = tokio::fs::File::create(&partial).await?;
            let mut written: u64 = 0;
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(StoreError::Body)?;
                written += chunk.len() as u64;
                if written > max_bytes {
                    return Err(StoreError::TooLarge { limit: max_bytes });
                }
                file.write_all(&chunk).await?;
            }
            file.flush().await?;
            file.sync_all().await?;
            Ok(written)
        }
        .await;
        match result {
            Ok(written) => {
                tokio::fs::rename(&partial, &path).await?;
                Ok(written)
            }
            Err(err) => {
                let _ = tokio::fs::remove_file(&partial).await;
                Err(err)
            }
        }
    }

    async fn get(&self, key: &str) -> Result<Vec<u8>, StoreError> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(bytes) => Ok(bytes),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Err(StoreError::NotFound),
            Err(err) => Err(err.into()),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), StoreError> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(err.into()),
        }
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        match tokio::fs::metadata(self.path(key)?).await {
            Ok(meta) if meta.is_file() => Ok(Some(meta.len())),
            Ok(_) => Ok(None),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(err.into()),
        }
    }
}
