//! [`Storage`]: the store this server is configured with (`VOICEMARK_STORAGE_URL`), and the
//! signed URLs through which browsers PUT and GET files without the bytes passing through
//! the RPC layer.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};

use super::s3::{S3Config, S3Store};
use super::signed_url::{GetTerms, LocalSigner, PutTerms};
use super::sigv4::{uri_encode, Credentials};
use super::{ByteStream, FileStore, LocalStore, StoreError};

/// How long a signed upload URL stays valid.
pub const UPLOAD_URL_VALIDITY: Duration = Duration::minutes(15);

/// Which store: `VOICEMARK_STORAGE_URL` unset (or `local`) keeps files in
/// `{data_dir}/files`; `s3://bucket?...` in a bucket.
#[derive(Debug, Clone, Default)]
pub enum StorageConfig {
    #[default]
    Local,
    S3(Box<S3Config>),
}

/// Reads `s3://[key:secret@]bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&path_style=true`.
/// Credentials not in the URL come from `env_credentials` (`AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`). The error says what is wrong.
pub fn parse_storage_url(
    raw: &str,
    env_credentials: (Option<String>, Option<String>, Option<String>),
) -> Result<StorageConfig, &'static str> {
    if raw == "local" {
        return Ok(StorageConfig::Local);
    }
    let url = url::Url::parse(raw).map_err(|_| "local or s3://bucket?endpoint=...&region=...")?;
    if url.scheme() != "s3" {
        return Err("local or s3://bucket?endpoint=...&region=...");
    }
    let bucket = url
        .host_str()
        .filter(|b| !b.is_empty())
        .ok_or("s3://<bucket>?...: the bucket name is missing")?
        .to_owned();
    let mut endpoint = None;
    let mut region = "us-east-1".to_owned();
    let mut path_style = None;
    for (name, value) in url.query_pairs() {
        match name.as_ref() {
            "endpoint" => {
                let parsed = url::Url::parse(&value)
                    .ok()
                    .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
                    .ok_or("an s3:// URL whose endpoint is an http(s) URL")?;
                endpoint = Some(parsed);
            }
            "region" => region = value.into_owned(),
            "path_style" => {
                path_style = Some(match value.as_ref() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => return Err("an s3:// URL with path_style=true or false"),
                })
            }
            _ => return Err("an s3:// URL with only endpoint, region and path_style"),
        }
    }
    let decode = |s: &str| {
        url::form_urlencoded::parse(format!("v={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default()
    };
    let (env_key, env_secret, env_token) = env_credentials;
    let (access_key_id, secret_access_key) = if !url.username().is_empty() {
        (
            decode(url.username()),
            url.password().map(decode).unwrap_or_default(),
        )
    } else {
        (env_key.unwrap_or_default(), env_secret.unwrap_or_default())
    };
    if access_key_id.is_empty() || secret_access_key.is_empty() {
        return Err(
            "an s3:// URL with credentials (key:secret@bucket, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)",
        );
    }
    let custom_endpoint = endpoint.is_some();
    let endpoint = match endpoint {
        Some(endpoint) => endpoint,
        None => url::Url::parse(&format!("https://s3.{region}.amazonaws.com"))
            .map_err(|_| "an s3:// URL with a valid region")?,
    };
    Ok(StorageConfig::S3(Box::new(S3Config {
        bucket,
        endpoint,
        region,
        // MinIO and most self-hosted servers only answer path-style requests.
        path_style: path_style.unwrap_or(custom_endpoint),
        credentials: Credentials {
            access_key_id,
            secret_access_key,
            session_token: env_token,
        },
    })))
}

/// The configured store and how to sign URLs for it.
#[derive(Debug, Clone)]
pub enum Storage {
    Local {
        store: LocalStore,
        signer: LocalSigner,
    },
    S3(S3Store),
}

/// An upload the browser is about to send.
#[derive(Debug, Clone)]
pub struct UploadSpec<'a> {
    pub key: &'a str,
    pub filename: &'a str,
    /// As declared by the browser (parameters such as `;codecs=opus` kept).
    pub content_type: &'a str,
    /// The exact number of bytes the browser will send, when it said so; without it the
    /// upload may be of any size up to the 50 MB limit (enforced by the PUT handler).
    pub size: Option<u64>,
    /// Tags the S3 object `expiring=true` (for a bucket lifecycle rule as a second net).
    pub expiring: bool,
}

/// Where and how the browser sends the file: `PUT url` with exactly `headers`.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedUpload {
    pub url: String,
    pub headers: BTreeMap<String, String>,
    pub expires_at: DateTime<Utc>,
}

/// `attachment; filename="notes.pdf"; filename*=UTF-8''notes.pdf`: an ASCII fallback for
/// old clients and the exact name in RFC 5987 form.
pub fn content_disposition(filename: &str) -> String {
    let ascii: String = filename
        .chars()
        .map(|c| {
            if (c.is_ascii_graphic() && c != '"' && c != '\\') || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{}",
        uri_encode(filename, false)
    )
}

impl Storage {
    /// The store `config` names; local URLs are signed with a key derived from `secret`.
    pub fn new(config: &StorageConfig, data_dir: &Path, secret: &str) -> Storage {
        match config {
            StorageConfig::Local => Storage::Local {
                store: LocalStore::in_data_dir(data_dir),
                signer: LocalSigner::new(secret),
            },
            StorageConfig::S3(s3) => Storage::S3(S3Store::new((**s3).clone())),
        }
    }

    /// The signer of local URLs (`None` with S3, which signs its own).
    pub fn local_signer(&self) -> Option<&LocalSigner> {
        match self {
            Storage::Local { signer, .. } => Some(signer),
            Storage::S3(_) => None,
        }
    }

    /// A URL valid for 15 minutes from `now` to which the browser PUTs the file with the
    /// returned headers: exactly `spec.size` bytes when the size was declared. S3 then also
    /// signs `content-length`, so it refuses any other size itself (the browser sets that
    /// header on its own); an undeclared size is checked when the upload is confirmed.
    pub fn sign_upload(&self, spec: &UploadSpec<'_>, now: DateTime<Utc>) -> SignedUpload {
        let disposition = content_disposition(spec.filename);
        let mut headers = BTreeMap::from([
            ("content-type".to_owned(), spec.content_type.to_owned()),
            ("content-disposition".to_owned(), disposition.clone()),
        ]);
        match self {
            Storage::Local { signer, .. } => {
                let expires = (now + UPLOAD_URL_VALIDITY).timestamp();
                let sig = signer.put_signature(&PutTerms {
                    key: spec.key,
                    expires,
                    content_type: spec.content_type,
                    content_disposition: &disposition,
                    size: spec.size,
                });
                SignedUpload {
                    url: LocalSigner::url(spec.key, expires, &sig),
                    headers,
                    expires_at: DateTime::from_timestamp(expires, 0).unwrap_or(now),
                }
            }
            Storage::S3(store) => {
                if spec.expiring {
                    headers.insert("x-amz-tagging".to_owned(), "expiring=true".to_owned());
                }
                let mut signed: Vec<(String, String)> = headers
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if let Some(size) = spec.size {
                    signed.push(("content-length".to_owned(), size.to_string()));
                }
                let presigned = store.presign(
                    "PUT",
                    spec.key,
                    &signed,
                    &[],
                    now,
                    UPLOAD_URL_VALIDITY.num_seconds() as u64,
                );
                SignedUpload {
                    url: presigned.url,
                    headers,
                    expires_at: presigned.expires_at,
                }
            }
        }
    }

    /// A URL that serves the file at `key` as `content_type`, as an attachment named
    /// `filename`, until `now + valid_for`.
    pub fn sign_download(
        &self,
        key: &str,
        content_type: &str,
        filename: &str,
        now: DateTime<Utc>,
        valid_for: Duration,
    ) -> String {
        let disposition = content_disposition(filename);
        match self {
            Storage::Local { signer, .. } => {
                let expires = (now + valid_for).timestamp();
                let sig = signer.get_signature(&GetTerms {
                    key,
                    expires,
                    content_type,
                    content_disposition: &disposition,
                });
                LocalSigner::url(key, expires, &sig)
            }
            Storage::S3(store) => {
                store
                    .presign(
                        "GET",
                        key,
                        &[],
                        &[
                            ("response-content-type".to_owned(), content_type.to_owned()),
                            ("response-content-disposition".to_owned(), disposition),
                        ],
                        now,
                        valid_for.num_seconds().max(1) as u64,
                    )
                    .url
            }
        }
    }
}

impl Storage {
    /// The file at `key` as a stream of chunks, with its length when known: for reading
    /// large files (a recording sent on to the speech provider) without holding them whole.
    pub async fn get_stream(
        &self,
        key: &str,
    ) -> Result<(ByteStream<'static>, Option<u64>), StoreError> {
        match self {
            Storage::Local { store, .. } => store.get_stream(key).await,
            Storage::S3(store) => store.get_stream(key).await,
        }
    }
}

impl FileStore for Storage {
    async fn put(
        &self,
        key: &str,
        body: ByteStream<'_>,
        max_bytes: u64,
    ) -> Result<u64, StoreError> {
        match self {
            Storage::Local { store, .. } => store.put(key, body, max_bytes).await,
            Storage::S3(store) => store.put(key, body, max_bytes).await,
        }
    }

    async fn get(&self, key: &str) -> Result<Vec<u8>, StoreError> {
        match self {
            Storage::Local { store, .. } => store.get(key).await,
            Storage::S3(store) => store.get(key).await,
        }
    }

    async fn delete(&self, key: &str) -> Result<(), StoreError> {
        match self {
            Storage::Local { store, .. } => store.delete(key).await,
            Storage::S3(store) => store.delete(key).await,
        }
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        match self {
            Storage::Local { store, .. } => store.size(key).await,
            Storage::S3(store) => store.size(key).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> (Option<String>, Option<String>, Option<String>) {
        (None, None, None)
    }

    #[test]
    fn s3_urls_are_read_with_their_defaults() {
        let StorageConfig::S3(c) = parse_storage_url(
            "s3://media?endpoint=http://127.0.0.1:9000&region=eu-west-2",
            (Some("AK".into()), Some("SK".into()), None),
        )
        .expect("valid") else {
            panic!("an S3 config")
        };
        assert_eq!(c.bucket, "media");
        assert_eq!(c.endpoint.as_str(), "http://127.0.0.1:9000/");
        assert_eq!(c.region, "eu-west-2");
        assert!(c.path_style);
        assert_eq!(c.credentials.access_key_id, "AK");

        let StorageConfig::S3(c) =
            parse_storage_url("s3://AK%2B1:S%2FK@media", none()).expect("valid")
        else {
            panic!("an S3 config")
        };
        assert_eq!(c.endpoint.as_str(), "https://s3.us-east-1.amazonaws.com/");
        assert!(!c.path_style);
        assert_eq!(c.credentials.access_key_id, "AK+1");
        assert_eq!(c.credentials.secret_access_key, "S/K");

        assert!(parse_storage_url("s3://media", none()).is_err());
        assert!(parse_storage_url("ftp://media", none()).is_err());
        assert!(parse_storage_url("s3://a:b@media?path_style=maybe", none()).is_err());
        assert!(matches!(
            parse_storage_url("local", none()),
            Ok(StorageConfig::Local)
        ));
    }

    #[test]
    fn dispositions_and_key_names_are_safe() {
        assert_eq!(
            content_disposition("Année 7 \"notes\".m4a"),
            "attachment; filename=\"Ann_e 7 _notes_.m4a\"; filename*=UTF-8''Ann%C3%A9e%207%20%22notes%22.m4a"
        );
        assert_eq!(
            core_wasm::filename::key_safe_name("../Année 7.m4a"),
            "_Ann_e_7.m4a"
        );
        assert_eq!(core_wasm::filename::key_safe_name("..."), "file");
        assert!(super::super::is_valid_key(&format!(
            "s/voice_note/ab/{}",
            core_wasm::filename::key_safe_name("a/b\\c d")
        )));
    }

    #[test]
    fn local_upload_urls_point_at_our_server_and_expire_in_15_minutes() {
        let dir = std::env::temp_dir();
        let storage = Storage::new(&StorageConfig::Local, &dir, "secret");
        let now = Utc::now();
        let signed = storage.sign_upload(
            &UploadSpec {
                key: "s/upload/ab/a.pdf",
                filename: "a.pdf",
                content_type: "application/pdf",
                size: Some(10),
                expiring: true,
            },
            now,
        );
        assert!(signed
            .url
            .starts_with("/api/uploads/s/upload/ab/a.pdf?expires="));
        assert!(signed.url.contains("&sig="));
        assert_eq!(signed.headers["content-type"], "application/pdf");
        assert!(!signed.headers.contains_key("x-amz-tagging"));
        let minutes = (signed.expires_at - now).num_seconds();
        assert!((899..=900).contains(&minutes), "{minutes}");
    }
}
