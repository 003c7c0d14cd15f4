//! AWS Signature Version 4, written out by hand (no SDK): header signing for the requests
//! the server makes to an S3-compatible store, and query-string presigning for the URLs a
//! browser uses directly. Checked against the examples AWS publishes (tests below).
//! Reference: "Authenticating Requests: Using the Authorization Header / Query Parameters
//! (AWS Signature Version 4)" in the Amazon S3 API documentation.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// The payload hash of a request whose body is not signed (presigned URLs, streamed PUTs).
pub const UNSIGNED_PAYLOAD: &str = "UNSIGNED-PAYLOAD";
const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// Who signs: an access key pair (and a session token for temporary credentials).
#[derive(Clone)]
pub struct Credentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<set>")
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| "<set>"),
            )
            .finish()
    }
}

/// One request to sign. `path` is the decoded object path (`/bucket/key` or `/key`);
/// `query` and `headers` are decoded name/value pairs (`host` must be among the headers).
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, String)>,
    /// Hex SHA-256 of the body, or [`UNSIGNED_PAYLOAD`].
    pub payload_hash: &'a str,
}

pub use crate::crypto::hmac_sha256;

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// SigV4's URI encoding: every byte except `A-Z a-z 0-9 - . _ ~` as `%XY` (upper case);
/// `/` is kept when `keep_slash` (object paths) and encoded otherwise (query values).
pub fn uri_encode(text: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(text.len() * 3 / 2);
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~')
            || (keep_slash && b == b'/')
        {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `20130524T000000Z`.
pub fn amz_date(at: DateTime<Utc>) -> String {
    at.format("%Y%m%dT%H%M%SZ").to_string()
}

fn scope(at: DateTime<Utc>, region: &str, service: &str) -> String {
    format!("{}/{region}/{service}/aws4_request", at.format("%Y%m%d"))
}

/// The canonical query string: names and values encoded, sorted by name then value.
fn canonical_query(query: &[(String, String)]) -> String {
    let mut pairs: Vec<(String, String)> = query
        .iter()
        .map(|(k, v)| (uri_encode(k, false), uri_encode(v, false)))
        .collect();
    pairs.sort();
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// (canonical headers block, signed header names `a;b;c`): names in lower case, values
/// trimmed with inner runs of spaces folded, sorted by name.
fn canonical_headers(headers: &[(String, String)]) -> (String, String) {
    let mut list: Vec<(String, String)> = headers
        .iter()
        .map(|(k, v)| {
            (
                k.to_ascii_lowercase(),
                v.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect();
    list.sort();
    let block: String = list.iter().map(|(k, v)| format!("{k}:{v}\n")).collect();
    let names = list
        .iter()
        .map(|(k, _)| k.as_str())
        .collect::<Vec<_>>()
        .join(";");
    (block, names)
}

/// The canonical request (step 1 of signing).
pub fn canonical_request(request: &Request<'_>) -> String {
    let (headers, signed) = canonical_headers(&request.headers);
    format!(
        "{}\n{}\n{}\n{headers}\n{signed}\n{}",
        request.method,
        uri_encode(request.path, true),
        canonical_query(&request.query),
        request.payload_hash
    )
}

/// The signing key for a day, region and service.
fn signing_key(secret: &str, at: DateTime<Utc>, region: &str, service: &str) -> [u8; 32] {
    let date = at.format("%Y%m%d").to_string();
    let k_date = hmac_sha256(format!("AWS4{secret}").as_bytes(), date.as_bytes());
    let k_region = hmac_sha256(&k_date, region.as_bytes());
    let k_service = hmac_sha256(&k_region, service.as_bytes());
    hmac_sha256(&k_service, b"aws4_request")
}

/// The hex signature of `request` at `at`.
pub fn signature(
    credentials: &Credentials,
    request: &Request<'_>,
    at: DateTime<Utc>,
    region: &str,
    service: &str,
) -> String {
    let string_to_sign = format!(
        "{ALGORITHM}\n{}\n{}\n{}",
        amz_date(at),
        scope(at, region, service),
        sha256_hex(canonical_request(request).as_bytes())
    );
    let key = signing_key(&credentials.secret_access_key, at, region, service);
    hex::encode(hmac_sha256(&key, string_to_sign.as_bytes()))
}

/// Signs with an `Authorization` header. `request.headers` must already hold `host`,
/// `x-amz-date` (= `amz_date(at)`), `x-amz-content-sha256` and, for temporary
/// credentials, `x-amz-security-token`; returns the `Authorization` value.
pub fn authorization(
    credentials: &Credentials,
    request: &Request<'_>,
    at: DateTime<Utc>,
    region: &str,
    service: &str,
) -> String {
    let (_, signed) = canonical_headers(&request.headers);
    format!(
        "{ALGORITHM} Credential={}/{}, SignedHeaders={signed}, Signature={}",
        credentials.access_key_id,
        scope(at, region, service),
        signature(credentials, request, at, region, service)
    )
}

/// Presigns `request` (its `query` holds the operation's own parameters, its headers the
/// ones the caller promises to send, `host` included): returns the full query string to
/// append after `?`, valid for `expires_seconds` (at most 7 days) from `at`.
pub fn presign(
    credentials: &Credentials,
    mut request: Request<'_>,
    at: DateTime<Utc>,
    expires_seconds: u64,
    region: &str,
    service: &str,
) -> String {
    let (_, signed) = canonical_headers(&request.headers);
    request.query.extend([
        ("X-Amz-Algorithm".to_owned(), ALGORITHM.to_owned()),
        (
            "X-Amz-Credential".to_owned(),
            format!(
                "{}/{}",
                credentials.access_key_id,
                scope(at, region, service)
            ),
        ),
        ("X-Amz-Date".to_owned(), amz_date(at)),
        ("X-Amz-Expires".to_owned(), expires_seconds.to_string()),
        ("X-Amz-SignedHeaders".to_owned(), signed),
    ]);
    if let Some(token) = &credentials.session_token {
        request
            .query
            .push(("X-Amz-Security-Token".to_owned(), token.clone()));
    }
    request.payload_hash = UNSIGNED_PAYLOAD;
    let sig = signature(credentials, &request, at, region, service);
    format!("{}&X-Amz-Signature={sig}", canonical_query(&request.query))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    /// The example credentials of the AWS documentation.
    fn example() -> Credentials {
        Credentials {
            access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
            secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            session_token: None,
        }
    }

    fn may_24_2013() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2013, 5, 24, 0, 0, 0).unwrap()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// "Example: Presigned URL" (GET examplebucket/test.txt, valid 86400 s).
    #[test]
    fn the_presigned_get_example() {
        let request = Request {
            method: "GET",
            path: "/test.txt",
            query: Vec::new(),
            headers: pairs(&[("host", "examplebucket.s3.amazonaws.com")]),
            payload_hash: UNSIGNED_PAYLOAD,
        };
        let query = presign(&example(), request, may_24_2013(), 86400, "us-east-1", "s3");
        assert_eq!(
            query,
            "X-Amz-Algorithm=AWS4-HMAC-SHA256\
             &X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request\
             &X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host\
             &X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
        );
    }

    /// "Example: GET Object" with the Authorization header (a Range request).
    #[test]
    fn the_header_signed_get_object_example() {
        let empty = sha256_hex(b"");
        assert_eq!(
            empty,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let request = Request {
            method: "GET",
            path: "/test.txt",
            query: Vec::new(),
            headers: pairs(&[
                ("Host", "examplebucket.s3.amazonaws.com"),
                ("Range", "bytes=0-9"),
                ("x-amz-content-sha256", &empty),
                ("x-amz-date", "20130524T000000Z"),
            ]),
            payload_hash: &empty,
        };
        assert_eq!(
            canonical_request(&request),
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n\
             x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n\
             x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n\
             e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            authorization(&example(), &request, may_24_2013(), "us-east-1", "s3"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, \
             SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, \
             Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        );
    }

    /// "Example: PUT Object" (a signed payload, a `$` in the key, a storage class header).
    #[test]
    fn the_header_signed_put_object_example() {
        let body_hash = sha256_hex(b"Welcome to Amazon S3.");
        let request = Request {
            method: "PUT",
            path: "/test$file.text",
            query: Vec::new(),
            headers: pairs(&[
                ("Host", "examplebucket.s3.amazonaws.com"),
                ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                ("x-amz-date", "20130524T000000Z"),
                ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
                ("x-amz-content-sha256", &body_hash),
            ]),
            payload_hash: &body_hash,
        };
        assert_eq!(
            signature(&example(), &request, may_24_2013(), "us-east-1", "s3"),
            "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
        );
    }

    #[test]
    fn encoding_keeps_only_unreserved_bytes() {
        assert_eq!(uri_encode("a b/c~d+é", true), "a%20b/c~d%2B%C3%A9");
        assert_eq!(uri_encode("a/b", false), "a%2Fb");
    }
}
