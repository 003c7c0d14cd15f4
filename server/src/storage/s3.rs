//! `S3Store`: files in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph, moto...),
//! spoken to over plain HTTPS with our own Signature V4 ([`super::sigv4`]).

use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};

use super::sigv4::{self, Credentials, UNSIGNED_PAYLOAD};
use super::{is_valid_key, ByteStream, FileStore, StoreError};

/// Where the bucket is and who may use it.
#[derive(Debug, Clone)]
pub struct S3Config {
    pub bucket: String,
    /// The service's base URL, e.g. `https://s3.eu-west-2.amazonaws.com` or
    /// `http://127.0.0.1:9000`.
    pub endpoint: url::Url,
    pub region: String,
    /// `https://endpoint/bucket/key` (MinIO, moto) rather than `https://bucket.endpoint/key`.
    pub path_style: bool,
    pub credentials: Credentials,
}

/// A signed request, ready to send or to hand to a browser.
#[derive(Debug, Clone)]
pub struct Presigned {
    pub url: String,
    pub expires_at: DateTime<Utc>,
}

/// Keeps each key as an object in one bucket.
#[derive(Debug, Clone)]
pub struct S3Store {
    config: S3Config,
    client: reqwest::Client,
}

/// The `host` header value of `url`: the host, and the port when it is not the default.
fn host_of(url: &url::Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

impl S3Store {
    pub fn new(config: S3Config) -> S3Store {
        let client = reqwest::Client::builder()
            .connect_timeout(std::time::Duration::from_secs(10))
            .timeout(std::time::Duration::from_secs(30 * 60))
            .build()
            .unwrap_or_default();
        S3Store { config, client }
    }

    pub fn config(&self) -> &S3Config {
        &self.config
    }

    /// (URL without query, host, decoded path) of `key`, or of the bucket when `key` is empty.
    fn location(&self, key: &str) -> (url::Url, String, String) {
        let mut url = self.config.endpoint.clone();
        let base = url.path().trim_end_matches('/').to_owned();
        let path = if self.config.path_style {
            if key.is_empty() {
                format!("{base}/{}", self.config.bucket)
            } else {
                format!("{base}/{}/{key}", self.config.bucket)
            }
        } else {
            let host = format!(
                "{}.{}",
                self.config.bucket,
                url.host_str().unwrap_or_default()
            );
            let _ = url.set_host(Some(&host));
            format!("{base}/{key}")
        };
        // Keys are `[A-Za-z0-9._-/]` only, so the encoded path is the path itself.
        url.set_path(&sigv4::uri_encode(&path, true));
        url.set_query(None);
        let host = host_of(&url);
        (url, host, path)
    }

    /// Sends one header-signed request.
    async fn send(
        &self,
        method: Method,
        key: &str,
        extra_headers: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Result<reqwest::Response, StoreError> {
        self.send_with_query(method, key, &[], extra_headers, body)
            .await
    }

    /// Sends one header-signed request with the operation's query parameters
    /// (`uploads`, `uploadId`...), decoded name/value pairs.
    pub(super) async fn send_with_query(
        &self,
        method: Method,
        key: &str,
        query: &[(String, String)],
        extra_headers: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Result<reqwest::Response, StoreError> {
        let (mut url, host, path) = self.location(key);
        if !query.is_empty() {
            let encoded: Vec<String> = query
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}={}",
                        sigv4::uri_encode(k, false),
                        sigv4::uri_encode(v, false)
                    )
                })
                .collect();
            url.set_query(Some(&encoded.join("&")));
        }
        let at = Utc::now();
        let payload_hash = match &body {
            Some(bytes) => sigv4::sha256_hex(bytes),
            None => sigv4::sha256_hex(b""),
        };
        let mut headers: Vec<(String, String)> = vec![
            ("host".into(), host),
            ("x-amz-date".into(), sigv4::amz_date(at)),
            ("x-amz-content-sha256".into(), payload_hash.clone()),
        ];
        if let Some(token) = &self.config.credentials.session_token {
            headers.push(("x-amz-security-token".into(), token.clone()));
        }
        headers.extend(
            extra_headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone())),
        );
        let request = sigv4::Request {
            method: method.as_str(),
            path: &path,
            query: query.to_vec(),
            headers: headers.clone(),
            payload_hash: &payload_hash,
        };
        let authorization = sigv4::authorization(
            &self.config.credentials,
            &request,
            at,
            &self.config.region,
            "s3",
        );
        let mut builder = self
            .client
            .request(method, url)
            .header("authorization", authorization);
        for (name, value) in headers.iter().filter(|(k, _)| k != "host") {
            builder = builder.header(name.as_str(), value.as_str());
        }
        if let Some(bytes) = body {
            builder = builder.body(bytes);
        }
        builder
            .send()
            .await
            .map_err(|e| StoreError::Service(format!("cannot reach the bucket: {e}")))
    }

    /// Turns a non-success answer into an error naming the status and S3's code.
    pub(super) async fn refused(operation: &str, response: reqwest::Response) -> StoreError {
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        let code = text
            .split("<Code>")
            .nth(1)
            .and_then(|rest| rest.split("</Code>").next())
            .unwrap_or("");
        StoreError::Service(
            format!("{operation} answered {status} {code}")
                .trim()
                .to_owned(),
        )
    }

    /// Creates the bucket (test servers and first-time setups); an existing one is fine.
    pub async fn create_bucket(&self) -> Result<(), StoreError> {
        let response = self.send(Method::PUT, "", &[], None).await?;
        match response.status() {
            s if s.is_success() => Ok(()),
            StatusCode::CONFLICT => Ok(()), // BucketAlreadyOwnedByYou
            _ => Err(Self::refused("CreateBucket", response).await),
        }
    }

    /// A URL that lets its holder send `method` to `key` until `expires_at`, provided the
    /// request carries exactly `headers` (which are signed; `host` is added here).
    /// `query` holds extra signed parameters (`response-content-type`...).
    pub fn presign(
        &self,
        method: &str,
        key: &str,
        headers: &[(String, String)],
        query: &[(String, String)],
        at: DateTime<Utc>,
        valid_for_seconds: u64,
    ) -> Presigned {
        let (url, host, path) = self.location(key);
        let mut signed_headers = vec![("host".to_owned(), host)];
        signed_headers.extend(headers.iter().cloned());
        let request = sigv4::Request {
            method,
            path: &path,
            query: query.to_vec(),
            headers: signed_headers,
            payload_hash: UNSIGNED_PAYLOAD,
        };
        let query = sigv4::presign(
            &self.config.credentials,
            request,
            at,
            valid_for_seconds,
            &self.config.region,
            "s3",
        );
        Presigned {
            url: format!("{url}?{query}"),
            expires_at: at + chrono::Duration::seconds(valid_for_seconds as i64),
        }
    }

    /// The object at `key` as a stream of chunks, with its length when S3 says it; the
    /// body is never held whole (task files go from here to the speech provider).
    pub async fn get_stream(
        &self,
        key: &str,
    ) -> Result<(super::ByteStream<'static>, Option<u64>), StoreError> {
        use futures_util::{StreamExt, TryStreamExt};
        check(key)?;
        let response = self.send(Method::GET, key, &[], None).await?;
        match response.status() {
            s if s.is_success() => {
                let length = response.content_length();
                let stream = response
                    .bytes_stream()
                    .map_err(std::io::Error::other)
                    .boxed();
                Ok((stream, length))
            }
            StatusCode::NOT_FOUND => Err(StoreError::NotFound),
            _ => Err(Self::refused("GetObject", response).await),
        }
    }

    /// The object's tags (`GET ?tagging`), as (key, value) pairs.
    pub async fn tags(&self, key: &str) -> Result<Vec<(String, String)>, StoreError> {
        check(key)?;
        let (url, host, path) = self.location(key);
        let at = Utc::now();
        let empty = sigv4::sha256_hex(b"");
        let headers = vec![
            ("host".to_owned(), host),
            ("x-amz-date".to_owned(), sigv4::amz_date(at)),
            ("x-amz-content-sha256".to_owned(), empty.clone()),
        ];
        let request = sigv4::Request {
            method: "GET",
            path: &path,
            query: vec![("tagging".into(), String::new())],
            headers: headers.clone(),
            payload_hash: &empty,
        };
        let authorization = sigv4::authorization(
            &self.config.credentials,
            &request,
            at,
            &self.config.region,
            "s3",
        );
        let mut builder = self
            .client
            .get(format!("{url}?tagging="))
            .header("authorization", authorization);
        for (name, value) in headers.iter().filter(|(k, _)| k != "host") {
            builder = builder.header(name.as_str(), value.as_str());
        }
        let response = builder
            .send()
            .await
            .map_err(|e| StoreError::Service(format!("cannot reach the bucket: {e}")))?;
        if !response.status().is_success() {
            return Err(Self::refused("GetObjectTagging", response).await);
        }
        let xml = response.text().await.unwrap_or_default();
        let tags = xml
            .split("<Tag>")
            .skip(1)
            .filter_map(|tag| {
                let field = |name: &str| {
                    tag.split(&format!("<{name}>"))
                        .nth(1)?
                        .split(&format!("</{name}>"))
                        .next()
                        .map(str::to_owned)
                };
                Some((field("Key")?, field("Value")?))
            })
            .collect();
        Ok(tags)
    }
}

fn check(key: &str) -> Result<(), StoreError> {
    if is_valid_key(key) {
        Ok(())
    } else {
        Err(StoreError::InvalidKey)
    }
}

impl FileStore for S3Store {
    /// Reads the body whole (at most `max_bytes`, 50 MB for uploads) and sends it in one
    /// signed PUT: S3 keeps an object only when the PUT completes, so nothing is half-written.
    async fn put(
        &self,
        key: &str,
        mut body: ByteStream<'_>,
        max_bytes: u64,
    ) -> Result<u64, StoreError> {
        check(key)?;
        let mut bytes = Vec::new();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(StoreError::Body)?;
            if (bytes.len() + chunk.len()) as u64 > max_bytes {
                return Err(StoreError::TooLarge { limit: max_bytes });
            }
            bytes.extend_from_slice(&chunk);
        }
        let size = bytes.len() as u64;
        let response = self.send(Method::PUT, key, &[], Some(bytes)).await?;
        if response.status().is_success() {
            Ok(size)
        } else {
            Err(Self::refused("PutObject", response).await)
        }
    }

    async fn get(&self, key: &str) -> Result<Vec<u8>, StoreError> {
        check(key)?;
        let response = self.send(Method::GET, key, &[], None).await?;
        match response.status() {
            s if s.is_success() => Ok(response
                .bytes()
                .await
                .map_err(|e| StoreError::Service(format!("reading the object: {e}")))?
                .to_vec()),
            StatusCode::NOT_FOUND => Err(StoreError::NotFound),
            _ => Err(Self::refused("GetObject", response).await),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), StoreError> {
        check(key)?;
        let response = self.send(Method::DELETE, key, &[], None).await?;
        match response.status() {
            s if s.is_success() => Ok(()),
            StatusCode::NOT_FOUND => Ok(()),
            _ => Err(Self::refused("DeleteObject", response).await),
        }
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        check(key)?;
        let response = self.send(Method::HEAD, key, &[], None).await?;
        match response.status() {
            s if s.is_success() => Ok(response
                .headers()
                .get(reqwest::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok())),
            StatusCode::NOT_FOUND => Ok(None),
            _ => Err(Self::refused("HeadObject", response).await),
        }
    }
}
