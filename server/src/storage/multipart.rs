//! Uploads in parts (docs/storage.md, "Uploads in parts"): the S3 multipart protocol on
//! both stores. S3 speaks it itself (`POST ?uploads`, presigned `PUT ?partNumber&uploadId`
//! with `content-length` signed, `GET ?uploadId`, `POST ?uploadId`, `DELETE ?uploadId`);
//! the local store keeps each part as a file in `{data_dir}/multipart/{upload id}/` until
//! completion joins them, streaming, into the final file (renamed into place, so it
//! appears whole or not at all).

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use futures_util::{StreamExt, TryStreamExt};
use reqwest::{Method, StatusCode};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use super::configured::{content_disposition, UPLOAD_URL_VALIDITY};
use super::signed_url::{LocalSigner, PartTerms};
use super::{is_valid_key, ByteStream, FileStore, LocalStore, S3Store, Storage, StoreError};

/// Every part but the last is this long (S3's minimum for a part that is not the last):
/// a 50 MB file is 10 parts.
pub const PART_SIZE: u64 = 5 * 1024 * 1024;

/// How many parts a file of `size` bytes is sent in.
pub fn part_count(size: u64, part_size: u64) -> u32 {
    size.div_ceil(part_size.max(1)) as u32
}

/// The exact length of part `number` (1-based) of a `size`-byte file, or `None` when the
/// file has no such part.
pub fn part_length(size: u64, part_size: u64, number: u32) -> Option<u64> {
    if number == 0 || number > part_count(size, part_size) {
        return None;
    }
    let start = u64::from(number - 1) * part_size;
    Some((size - start).min(part_size))
}

/// A part the store holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPart {
    pub number: u32,
    /// As the store answers it (quoted, like S3's).
    pub etag: String,
    pub size: u64,
}

/// Where and how the browser sends one part: `PUT url` with exactly `headers`.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedPart {
    pub number: u32,
    pub url: String,
    pub headers: BTreeMap<String, String>,
    pub expires_at: DateTime<Utc>,
}

/// What the store needs to open an upload in parts.
#[derive(Debug, Clone)]
pub struct MultipartSpec<'a> {
    pub key: &'a str,
    pub filename: &'a str,
    pub content_type: &'a str,
    /// Tags the S3 object `expiring=true`.
    pub expiring: bool,
}

fn strip_quotes(etag: &str) -> &str {
    etag.trim().trim_matches('"')
}

/// The text of every `<name>…</name>` in `xml`, in order.
fn xml_fields<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    xml.split(open.as_str())
        .skip(1)
        .filter_map(|rest| rest.split(close.as_str()).next())
        .collect()
}

/// Only `[A-Za-z0-9]` ids name local part folders (they are made here: 32 hex digits).
fn valid_upload_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl LocalStore {
    fn parts_dir(&self, upload_id: &str) -> Result<PathBuf, StoreError> {
        if !valid_upload_id(upload_id) {
            return Err(StoreError::InvalidKey);
        }
        Ok(self.root().with_file_name("multipart").join(upload_id))
    }

    async fn create_multipart(&self) -> Result<String, StoreError> {
        let id = hex::encode(rand::random::<[u8; 16]>());
        tokio::fs::create_dir_all(self.parts_dir(&id)?).await?;
        Ok(id)
    }

    /// Stores part `number` of `upload_id`, which must be exactly `length` bytes: more stop
    /// the upload at once (`TooLarge`), fewer are `Body` (it broke off); neither keeps
    /// anything. A part sent again replaces the earlier one. Returns its ETag.
    pub async fn put_part(
        &self,
        upload_id: &str,
        number: u32,
        mut body: ByteStream<'_>,
        length: u64,
    ) -> Result<String, StoreError> {
        let dir = self.parts_dir(upload_id)?;
        if !tokio::fs::try_exists(&dir).await? {
            return Err(StoreError::NotFound);
        }
        let target = dir.join(number.to_string());
        let partial = dir.join(format!("{number}.partial-{}", crate::ids::new_id()));
        let result = async {
            let mut file = tokio::fs::File::create(&partial).await?;
            let mut hasher = Sha256::new();
            let mut written: u64 = 0;
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(StoreError::Body)?;
                written += chunk.len() as u64;
                if written > length {
                    return Err(StoreError::TooLarge { limit: length });
                }
                hasher.update(&chunk);
                file.write_all(&chunk).await?;
            }
            if written != length {
                return Err(StoreError::Body(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    format!("{written} of {length} bytes"),
                )));
            }
            file.flush().await?;
            file.sync_all().await?;
            Ok(format!("\"{}\"", &hex::encode(hasher.finalize())[..32]))
        }
        .await;
        match result {
            Ok(etag) => {
                // The ETag beside the part, written first: a part without one is not listed.
                tokio::fs::write(dir.join(format!("{number}.etag")), &etag).await?;
                tokio::fs::rename(&partial, &target).await?;
                Ok(etag)
            }
            Err(err) => {
                let _ = tokio::fs::remove_file(&partial).await;
                Err(err)
            }
        }
    }

    async fn list_parts(&self, upload_id: &str) -> Result<Vec<StoredPart>, StoreError> {
        let dir = self.parts_dir(upload_id)?;
        let mut entries = match tokio::fs::read_dir(&dir).await {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::NotFound)
            }
            Err(err) => return Err(err.into()),
        };
        let mut parts = Vec::new();
        while let Some(entry) = entries.next_entry().await? {
            let name = entry.file_name();
            let Some(number) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            let Ok(etag) = tokio::fs::read_to_string(dir.join(format!("{number}.etag"))).await
            else {
                continue;
            };
            let size = entry.metadata().await?.len();
            parts.push(StoredPart { number, etag, size });
        }
        parts.sort_by_key(|p| p.number);
        Ok(parts)
    }

    async fn complete_multipart(
        &self,
        key: &str,
        upload_id: &str,
        parts: &[(u32, String)],
    ) -> Result<u64, StoreError> {
        let dir = self.parts_dir(upload_id)?;
        let stored = self.list_parts(upload_id).await?;
        let mut paths = Vec::new();
        for (number, etag) in parts {
            let Some(part) = stored.iter().find(|p| p.number == *number) else {
                return Err(StoreError::Service(format!("part {number} is missing")));
            };
            if strip_quotes(&part.etag) != strip_quotes(etag) {
                return Err(StoreError::Service(format!(
                    "part {number} has another ETag"
                )));
            }
            paths.push(dir.join(number.to_string()));
        }
        // The parts joined as one stream, written beside the target and renamed into place.
        let stream = futures_util::stream::iter(paths)
            .then(|path| async move {
                tokio::fs::File::open(path)
                    .await
                    .map(|file| tokio_util::io::ReaderStream::with_capacity(file, 64 * 1024))
            })
            .try_flatten()
            .boxed();
        let written = self.put(key, stream, u64::MAX).await?;
        let _ = tokio::fs::remove_dir_all(&dir).await;
        Ok(written)
    }

    async fn abort_multipart(&self, upload_id: &str) -> Result<(), StoreError> {
        match tokio::fs::remove_dir_all(self.parts_dir(upload_id)?).await {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(err.into()),
        }
    }
}

impl S3Store {
    fn upload_query(upload_id: &str) -> Vec<(String, String)> {
        vec![("uploadId".to_owned(), upload_id.to_owned())]
    }

    async fn create_multipart(&self, spec: &MultipartSpec<'_>) -> Result<String, StoreError> {
        let mut headers = vec![
            ("content-type", spec.content_type.to_owned()),
            ("content-disposition", content_disposition(spec.filename)),
        ];
        if spec.expiring {
            headers.push(("x-amz-tagging", "expiring=true".to_owned()));
        }
        let response = self
            .send_with_query(
                Method::POST,
                spec.key,
                &[("uploads".to_owned(), String::new())],
                &headers,
                None,
            )
            .await?;
        if !response.status().is_success() {
            return Err(Self::refused("CreateMultipartUpload", response).await);
        }
        let xml = response.text().await.unwrap_or_default();
        xml_fields(&xml, "UploadId")
            .first()
            .map(|id| (*id).to_owned())
            .ok_or_else(|| StoreError::Service("CreateMultipartUpload gave no UploadId".into()))
    }

    async fn list_parts(&self, key: &str, upload_id: &str) -> Result<Vec<StoredPart>, StoreError> {
        let response = self
            .send_with_query(Method::GET, key, &Self::upload_query(upload_id), &[], None)
            .await?;
        match response.status() {
            s if s.is_success() => {}
            StatusCode::NOT_FOUND => return Err(StoreError::NotFound),
            _ => return Err(Self::refused("ListParts", response).await),
        }
        let xml = response.text().await.unwrap_or_default();
        let mut parts: Vec<StoredPart> = xml
            .split("<Part>")
            .skip(1)
            .filter_map(|part| {
                let field = |name: &str| xml_fields(part, name).first().map(|v| v.to_string());
                Some(StoredPart {
                    number: field("PartNumber")?.parse().ok()?,
                    etag: field("ETag")?.replace("&quot;", "\""),
                    size: field("Size")?.parse().ok()?,
                })
            })
            .collect();
        parts.sort_by_key(|p| p.number);
        Ok(parts)
    }

    async fn complete_multipart(
        &self,
        key: &str,
        upload_id: &str,
        parts: &[(u32, String)],
    ) -> Result<(), StoreError> {
        let mut xml = String::from("<CompleteMultipartUpload>");
        for (number, etag) in parts {
            xml.push_str(&format!(
                "<Part><PartNumber>{number}</PartNumber><ETag>\"{}\"</ETag></Part>",
                strip_quotes(etag)
            ));
        }
        xml.push_str("</CompleteMultipartUpload>");
        let response = self
            .send_with_query(
                Method::POST,
                key,
                &Self::upload_query(upload_id),
                &[("content-type", "application/xml".to_owned())],
                Some(xml.into_bytes()),
            )
            .await?;
        if !response.status().is_success() {
            return Err(Self::refused("CompleteMultipartUpload", response).await);
        }
        // S3 may answer 200 and put the error in the body.
        let text = response.text().await.unwrap_or_default();
        if text.contains("<Error>") {
            let code = xml_fields(&text, "Code").first().copied().unwrap_or("");
            return Err(StoreError::Service(format!(
                "CompleteMultipartUpload answered {code}"
            )));
        }
        Ok(())
    }

    async fn abort_multipart(&self, key: &str, upload_id: &str) -> Result<(), StoreError> {
        let response = self
            .send_with_query(
                Method::DELETE,
                key,
                &Self::upload_query(upload_id),
                &[],
                None,
            )
            .await?;
        match response.status() {
            s if s.is_success() => Ok(()),
            StatusCode::NOT_FOUND => Ok(()), // NoSuchUpload: already gone
            _ => Err(Self::refused("AbortMultipartUpload", response).await),
        }
    }
}

impl Storage {
    /// Opens an upload in parts for `spec.key`; returns the store's upload id.
    pub async fn create_multipart(&self, spec: &MultipartSpec<'_>) -> Result<String, StoreError> {
        if !is_valid_key(spec.key) {
            return Err(StoreError::InvalidKey);
        }
        match self {
            Storage::Local { store, .. } => store.create_multipart().await,
            Storage::S3(store) => store.create_multipart(spec).await,
        }
    }

    /// A URL valid for 15 minutes from `now` to which the browser PUTs part `number`,
    /// exactly `length` bytes, with the returned headers. S3 signs `content-length`, so it
    /// refuses any other length itself; the local store checks the signed length, and the
    /// type every part must carry.
    pub fn sign_part(
        &self,
        key: &str,
        upload_id: &str,
        content_type: &str,
        number: u32,
        length: u64,
        now: DateTime<Utc>,
    ) -> SignedPart {
        match self {
            Storage::Local { signer, .. } => {
                let expires = (now + UPLOAD_URL_VALIDITY).timestamp();
                let sig = signer.part_signature(&PartTerms {
                    upload_id,
                    part_number: number,
                    expires,
                    content_type,
                    length,
                });
                SignedPart {
                    number,
                    url: LocalSigner::part_url(upload_id, number, expires, &sig),
                    headers: BTreeMap::from([("content-type".to_owned(), content_type.to_owned())]),
                    expires_at: DateTime::from_timestamp(expires, 0).unwrap_or(now),
                }
            }
            Storage::S3(store) => {
                let presigned = store.presign(
                    "PUT",
                    key,
                    &[("content-length".to_owned(), length.to_string())],
                    &[
                        ("partNumber".to_owned(), number.to_string()),
                        ("uploadId".to_owned(), upload_id.to_owned()),
                    ],
                    now,
                    UPLOAD_URL_VALIDITY.num_seconds() as u64,
                );
                SignedPart {
                    number,
                    url: presigned.url,
                    headers: BTreeMap::new(),
                    expires_at: presigned.expires_at,
                }
            }
        }
    }

    /// The parts the store holds for the upload, in order.
    pub async fn list_parts(
        &self,
        key: &str,
        upload_id: &str,
    ) -> Result<Vec<StoredPart>, StoreError> {
        match self {
            Storage::Local { store, .. } => store.list_parts(upload_id).await,
            Storage::S3(store) => store.list_parts(key, upload_id).await,
        }
    }

    /// Joins `parts` (number, ETag; in order) into the object at `key` and ends the upload.
    pub async fn complete_multipart(
        &self,
        key: &str,
        upload_id: &str,
        parts: &[(u32, String)],
    ) -> Result<(), StoreError> {
        if !is_valid_key(key) {
            return Err(StoreError::InvalidKey);
        }
        match self {
            Storage::Local { store, .. } => store
                .complete_multipart(key, upload_id, parts)
                .await
                .map(|_| ()),
            Storage::S3(store) => store.complete_multipart(key, upload_id, parts).await,
        }
    }

    /// Ends the upload and deletes its parts; an upload already gone is not an error.
    pub async fn abort_multipart(&self, key: &str, upload_id: &str) -> Result<(), StoreError> {
        match self {
            Storage::Local { store, .. } => store.abort_multipart(upload_id).await,
            Storage::S3(store) => store.abort_multipart(key, upload_id).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_cut_into_fixed_parts() {
        let mib = 1024 * 1024;
        assert_eq!(part_count(50_000_000, PART_SIZE), 10);
        assert_eq!(part_count(5 * mib, PART_SIZE), 1);
        assert_eq!(part_count(5 * mib + 1, PART_SIZE), 2);
        assert_eq!(part_length(5 * mib + 1, PART_SIZE, 1), Some(5 * mib));
        assert_eq!(part_length(5 * mib + 1, PART_SIZE, 2), Some(1));
        assert_eq!(part_length(5 * mib + 1, PART_SIZE, 3), None);
        assert_eq!(part_length(10, PART_SIZE, 0), None);
    }

    #[test]
    fn list_parts_answers_are_read() {
        let xml = "<ListPartsResult><Part><PartNumber>2</PartNumber><ETag>&quot;b&quot;</ETag><Size>3</Size></Part><Part><PartNumber>1</PartNumber><ETag>\"a\"</ETag><Size>5</Size></Part></ListPartsResult>";
        let fields = xml_fields(xml, "PartNumber");
        assert_eq!(fields, vec!["2", "1"]);
        assert!(valid_upload_id("0123abcd"));
        assert!(!valid_upload_id("../x"));
    }
}
