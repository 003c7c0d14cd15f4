//! The S3 store against a real S3-compatible server on loopback (moto, started here), and
//! our presigned URLs checked by botocore, AWS's own signer, in Python.
//!
//! What each part proves (docs/storage.md): moto with IAM authentication on verifies the
//! header signatures of our server-side PUT/GET/HEAD/DELETE (a wrong secret is refused with
//! SignatureDoesNotMatch). moto does not check presigned URLs at all, so a second moto (no
//! authentication) only shows that a browser-style PUT to our URL with the signed headers
//! stores the object with its type, disposition and tag; botocore then recomputes the
//! signature of the request as sent: equal for the honest request, different when the
//! content type, disposition or length differ (so real S3 answers 403).
//! Skipped (with a note) when moto is not installed: `scripts/setup.sh --test` installs it.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use chrono::Utc;
use futures_util::StreamExt;
use voicemark::storage::sigv4::{self, Credentials};
use voicemark::storage::{
    FileStore, S3Config, S3Store, Storage, StorageConfig, StoreError, UploadSpec,
};

const BUCKET: &str = "voicemark-test";
const REGION: &str = "us-east-1";

/// A moto server on a free loopback port, stopped when dropped.
struct Moto {
    child: Child,
    endpoint: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn moto_installed() -> bool {
    Command::new("python3")
        .args(["-c", "import moto.server, botocore"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Starts moto; with `authenticated`, every request after the first three (our IAM setup)
/// must carry a valid signature of a known access key.
async fn start_moto(authenticated: bool) -> Moto {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut command = Command::new("python3");
    command
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if authenticated {
        command.env("INITIAL_NO_AUTH_ACTION_COUNT", "3");
    }
    let child = command.spawn().expect("start moto");
    let moto = Moto {
        child,
        endpoint: format!("http://127.0.0.1:{port}"),
    };
    let client = reqwest::Client::new();
    for _ in 0..150 {
        if client
            .get(format!("{}/moto-api/", moto.endpoint))
            .send()
            .await
            .is_ok()
        {
            return moto;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("moto did not start on port {port}");
}

fn store(endpoint: &str, credentials: Credentials) -> S3Store {
    S3Store::new(S3Config {
        bucket: BUCKET.into(),
        endpoint: url::Url::parse(endpoint).expect("endpoint"),
        region: REGION.into(),
        path_style: true,
        credentials,
    })
}

fn any_credentials() -> Credentials {
    Credentials {
        access_key_id: "AKIAVOICEMARKTEST".into(),
        secret_access_key: "not-checked-by-this-server".into(),
        session_token: None,
    }
}

/// One IAM query call (form POST signed for service `iam`); returns the XML answer.
async fn iam(endpoint: &str, params: &[(&str, &str)]) -> String {
    let body: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params.iter().copied().chain([("Version", "2010-05-08")]))
        .finish();
    let at = Utc::now();
    let url = url::Url::parse(endpoint).expect("endpoint");
    let host = format!(
        "{}:{}",
        url.host_str().expect("host"),
        url.port().expect("port")
    );
    let hash = sigv4::sha256_hex(body.as_bytes());
    let headers = vec![
        (
            "content-type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ),
        ("host".to_owned(), host),
        ("x-amz-date".to_owned(), sigv4::amz_date(at)),
    ];
    let request = sigv4::Request {
        method: "POST",
        path: "/",
        query: Vec::new(),
        headers: headers.clone(),
        payload_hash: &hash,
    };
    let authorization = sigv4::authorization(&any_credentials(), &request, at, REGION, "iam");
    let mut builder = reqwest::Client::new()
        .post(format!("{endpoint}/"))
        .header("authorization", authorization);
    for (name, value) in headers.iter().filter(|(n, _)| n != "host") {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let response = builder.body(body).send().await.expect("IAM call");
    assert!(
        response.status().is_success(),
        "IAM {params:?}: {}",
        response.status()
    );
    response.text().await.expect("IAM answer")
}

fn xml_field(xml: &str, name: &str) -> String {
    xml.split(&format!("<{name}>"))
        .nth(1)
        .and_then(|rest| rest.split(&format!("</{name}>")).next())
        .unwrap_or_else(|| panic!("no <{name}> in {xml}"))
        .to_owned()
}

/// An IAM user allowed everything on S3, with its key pair (the server's first three calls).
async fn iam_user(endpoint: &str) -> Credentials {
    iam(
        endpoint,
        &[("Action", "CreateUser"), ("UserName", "voicemark")],
    )
    .await;
    let key = iam(
        endpoint,
        &[("Action", "CreateAccessKey"), ("UserName", "voicemark")],
    )
    .await;
    let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#;
    iam(
        endpoint,
        &[
            ("Action", "PutUserPolicy"),
            ("UserName", "voicemark"),
            ("PolicyName", "all-of-s3"),
            ("PolicyDocument", policy),
        ],
    )
    .await;
    Credentials {
        access_key_id: xml_field(&key, "AccessKeyId"),
        secret_access_key: xml_field(&key, "SecretAccessKey"),
        session_token: None,
    }
}

fn body(bytes: &'static [u8]) -> voicemark::storage::ByteStream<'static> {
    futures_util::stream::iter([Ok(axum::body::Bytes::from_static(bytes))]).boxed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_requests_pass_a_signature_checking_server() {
    if !moto_installed() {
        eprintln!("skipped: moto is not installed (scripts/setup.sh --test installs it)");
        return;
    }
    let moto = start_moto(true).await;
    let credentials = iam_user(&moto.endpoint).await;
    let s3 = store(&moto.endpoint, credentials.clone());
    s3.create_bucket().await.expect("create the bucket");
    s3.create_bucket().await.expect("creating it again is fine");

    let key = "school-1/uploads/0123abcd/notes v2.txt".replace(' ', "_");
    assert_eq!(s3.size(&key).await.expect("head"), None);
    assert_eq!(
        s3.put(&key, body(b"hello bucket"), 100).await.expect("put"),
        12
    );
    assert_eq!(s3.size(&key).await.expect("head"), Some(12));
    assert_eq!(s3.get(&key).await.expect("get"), b"hello bucket");
    // Over the limit: refused before anything is sent, nothing stored.
    assert!(matches!(
        s3.put("school-1/uploads/big", body(b"0123456789"), 5).await,
        Err(StoreError::TooLarge { limit: 5 })
    ));
    assert_eq!(s3.size("school-1/uploads/big").await.expect("head"), None);

    // The same calls signed with the wrong secret are refused by the server.
    let forged = store(
        &moto.endpoint,
        Credentials {
            secret_access_key: "wrong".into(),
            ..credentials
        },
    );
    match forged.get(&key).await {
        Err(StoreError::Service(message)) => {
            assert!(message.contains("SignatureDoesNotMatch"), "{message}")
        }
        other => panic!("a refusal, got {other:?}"),
    }

    s3.delete(&key).await.expect("delete");
    assert_eq!(s3.size(&key).await.expect("head"), None);
    assert!(matches!(s3.get(&key).await, Err(StoreError::NotFound)));
    s3.delete(&key)
        .await
        .expect("deleting a missing object is fine");
}

/// Asks botocore whether `url` is a valid presigned `method` request when sent with
/// `headers`: it recomputes the signature from the request as sent.
fn botocore_accepts(
    method: &str,
    url: &str,
    headers: &[(String, String)],
    credentials: &Credentials,
) -> bool {
    const VERIFY: &str = r#"
import json, sys
from urllib.parse import urlsplit, parse_qsl, urlencode, urlunsplit
from botocore.auth import S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
given = json.load(sys.stdin)
parts = urlsplit(given["url"])
query = parse_qsl(parts.query, keep_blank_values=True)
amz = {k: v for k, v in query if k.startswith("X-Amz-")}
rest = [(k, v) for k, v in query if not k.startswith("X-Amz-")]
url = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(rest), ""))
request = AWSRequest(method=given["method"], url=url, headers=dict(given["headers"]))
# Sign as of the URL's own time (botocore otherwise signs as of now).
import botocore.auth, datetime
signed_at = datetime.datetime.strptime(amz["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
botocore.auth.get_current_datetime = lambda *args, **kwargs: signed_at
auth = S3SigV4QueryAuth(Credentials(given["key"], given["secret"]), "s3", given["region"], expires=int(amz["X-Amz-Expires"]))
auth.add_auth(request)
expected = dict(parse_qsl(urlsplit(request.url).query))["X-Amz-Signature"]
print("valid" if expected == amz["X-Amz-Signature"] else "invalid")
"#;
    let input = serde_json::json!({
        "method": method,
        "url": url,
        "headers": headers,
        "key": credentials.access_key_id,
        "secret": credentials.secret_access_key,
        "region": REGION,
    });
    let mut child = Command::new("python3")
        .args(["-c", VERIFY])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("write");
    let output = child.wait_with_output().expect("verifier");
    let verdict = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    assert!(
        verdict == "valid" || verdict == "invalid",
        "verifier failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    verdict == "valid"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_put_and_get_through_presigned_urls() {
    if !moto_installed() {
        eprintln!("skipped: moto is not installed (scripts/setup.sh --test installs it)");
        return;
    }
    let moto = start_moto(false).await;
    let config = S3Config {
        bucket: BUCKET.into(),
        endpoint: url::Url::parse(&moto.endpoint).expect("endpoint"),
        region: REGION.into(),
        path_style: true,
        credentials: any_credentials(),
    };
    let storage = Storage::new(
        &StorageConfig::S3(Box::new(config.clone())),
        std::path::Path::new("/nonexistent"),
        "secret",
    );
    let s3 = S3Store::new(config);
    s3.create_bucket().await.expect("bucket");

    let key = "school-1/uploads/00ff/Ann_e_7.pdf";
    let content = b"%PDF-1.7 pretend".to_vec();
    let now = Utc::now();
    let signed = storage.sign_upload(
        &UploadSpec {
            key,
            filename: "Année 7.pdf",
            content_type: "application/pdf",
            size: Some(content.len() as u64),
            expiring: true,
        },
        now,
    );
    assert!(signed.url.contains("X-Amz-Expires=900"), "{}", signed.url);
    assert!(
        signed
            .url
            .contains("X-Amz-SignedHeaders=content-disposition%3Bcontent-length%3Bcontent-type%3Bhost%3Bx-amz-tagging"),
        "{}",
        signed.url
    );
    assert_eq!(signed.headers["x-amz-tagging"], "expiring=true");
    assert_eq!((signed.expires_at - now).num_seconds(), 900);

    // What the browser sends: the signed headers (its own content-length and host).
    let host = signed.url.split('/').nth(2).expect("host").to_owned();
    let mut sent: Vec<(String, String)> = signed
        .headers
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    sent.push(("content-length".into(), content.len().to_string()));
    sent.push(("host".into(), host));
    let credentials = any_credentials();
    assert!(botocore_accepts("PUT", &signed.url, &sent, &credentials));
    // Real S3 would refuse another type, disposition or size: the signature no longer fits.
    for (name, value) in [
        ("content-type", "text/html"),
        ("content-disposition", "inline"),
        ("content-length", "999"),
    ] {
        let changed: Vec<(String, String)> = sent
            .iter()
            .map(|(k, v)| {
                if k == name {
                    (k.clone(), value.to_owned())
                } else {
                    (k.clone(), v.clone())
                }
            })
            .collect();
        assert!(
            !botocore_accepts("PUT", &signed.url, &changed, &credentials),
            "{name} changed"
        );
    }

    let mut request = reqwest::Client::new().put(&signed.url);
    for (name, value) in &signed.headers {
        request = request.header(name, value);
    }
    let response = request.body(content.clone()).send().await.expect("PUT");
    assert!(response.status().is_success(), "{}", response.status());
    assert_eq!(
        s3.size(key).await.expect("head"),
        Some(content.len() as u64)
    );
    assert_eq!(
        s3.tags(key).await.expect("tags"),
        vec![("expiring".to_owned(), "true".to_owned())]
    );

    let url = storage.sign_download(
        key,
        "application/pdf",
        "Année 7.pdf",
        Utc::now(),
        chrono::Duration::hours(1),
    );
    assert!(url.contains("X-Amz-Expires=3600"), "{url}");
    let host = url.split('/').nth(2).expect("host").to_owned();
    assert!(botocore_accepts(
        "GET",
        &url,
        &[("host".into(), host)],
        &credentials
    ));
    let response = reqwest::get(&url).await.expect("GET");
    assert!(response.status().is_success());
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/pdf")
    );
    assert_eq!(
        response
            .headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok()),
        Some(voicemark::storage::content_disposition("Année 7.pdf").as_str())
    );
    assert_eq!(response.bytes().await.expect("body").to_vec(), content);
}

/// Uploads in parts on S3 (docs/storage.md, "Uploads in parts"): with IAM on, moto checks the
/// header signatures of CreateMultipartUpload, ListParts and AbortMultipartUpload (queries
/// signed with the path).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multipart_calls_pass_a_signature_checking_server() {
    use voicemark::storage::multipart::MultipartSpec;
    if !moto_installed() {
        eprintln!("skipped: moto is not installed (scripts/setup.sh --test installs it)");
        return;
    }
    let moto = start_moto(true).await;
    let credentials = iam_user(&moto.endpoint).await;
    let config = S3Config {
        bucket: BUCKET.into(),
        endpoint: url::Url::parse(&moto.endpoint).expect("endpoint"),
        region: REGION.into(),
        path_style: true,
        credentials,
    };
    S3Store::new(config.clone())
        .create_bucket()
        .await
        .expect("bucket");
    let storage = Storage::new(
        &StorageConfig::S3(Box::new(config)),
        std::path::Path::new("/nonexistent"),
        "secret",
    );
    let key = "school-1/voice-notes/00aa/talk.wav";
    let id = storage
        .create_multipart(&MultipartSpec {
            key,
            filename: "talk.wav",
            content_type: "audio/wav",
            expiring: false,
        })
        .await
        .expect("create");
    assert!(!id.is_empty());
    assert_eq!(storage.list_parts(key, &id).await.expect("list"), vec![]);
    storage.abort_multipart(key, &id).await.expect("abort");
    assert!(matches!(
        storage.list_parts(key, &id).await,
        Err(StoreError::NotFound)
    ));
    storage
        .abort_multipart(key, &id)
        .await
        .expect("aborting again is fine");
}

/// A browser's upload in three parts through presigned UploadPart URLs: each URL signs the
/// part's exact `content-length` (botocore: another length no longer fits, so real S3
/// answers 403); after two parts the store lists them with their ETags (a resumed upload
/// sends only the third); completion joins them into the object with its type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_send_parts_through_presigned_urls_and_resume_from_the_listed_ones() {
    use voicemark::storage::multipart::{part_length, MultipartSpec, PART_SIZE};
    if !moto_installed() {
        eprintln!("skipped: moto is not installed (scripts/setup.sh --test installs it)");
        return;
    }
    let moto = start_moto(false).await;
    let config = S3Config {
        bucket: BUCKET.into(),
        endpoint: url::Url::parse(&moto.endpoint).expect("endpoint"),
        region: REGION.into(),
        path_style: true,
        credentials: any_credentials(),
    };
    let s3 = S3Store::new(config.clone());
    s3.create_bucket().await.expect("bucket");
    let storage = Storage::new(
        &StorageConfig::S3(Box::new(config)),
        std::path::Path::new("/nonexistent"),
        "secret",
    );
    let key = "school-1/uploads/00bb/lesson.wav";
    let size = 2 * PART_SIZE + 100;
    let content: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
    let id = storage
        .create_multipart(&MultipartSpec {
            key,
            filename: "lesson.wav",
            content_type: "audio/wav",
            expiring: true,
        })
        .await
        .expect("create");

    let credentials = any_credentials();
    let mut etags = Vec::new();
    for number in 1..=3u32 {
        let length = part_length(size, PART_SIZE, number).expect("a part");
        let signed = storage.sign_part(key, &id, "audio/wav", number, length, Utc::now());
        assert!(signed.url.contains(&format!("partNumber={number}")), "{}", signed.url);
        assert!(
            signed
                .url
                .contains("X-Amz-SignedHeaders=content-length%3Bhost"),
            "{}",
            signed.url
        );
        let host = signed.url.split('/').nth(2).expect("host").to_owned();
        let sent = vec![
            ("content-length".to_owned(), length.to_string()),
            ("host".to_owned(), host.clone()),
        ];
        assert!(botocore_accepts("PUT", &signed.url, &sent, &credentials));
        let longer = vec![
            ("content-length".to_owned(), (length + 1).to_string()),
            ("host".to_owned(), host),
        ];
        assert!(!botocore_accepts("PUT", &signed.url, &longer, &credentials));
        if number == 3 {
            // The connection was cut here: a new page asks which parts the store holds.
            let held = storage.list_parts(key, &id).await.expect("list");
            assert_eq!(held.len(), 2);
            assert_eq!(held[0].number, 1);
            assert_eq!(held[1].size, PART_SIZE);
            assert_eq!(held[0].etag, etags[0]);
        }
        let start = (u64::from(number) - 1) * PART_SIZE;
        let part = content[start as usize..(start + length) as usize].to_vec();
        let response = reqwest::Client::new()
            .put(&signed.url)
            .body(part)
            .send()
            .await
            .expect("PUT");
        assert!(response.status().is_success(), "{}", response.status());
        let etag = response
            .headers()
            .get("etag")
            .and_then(|v| v.to_str().ok())
            .expect("an ETag")
            .to_owned();
        etags.push(etag);
    }
    let parts: Vec<(u32, String)> = etags
        .iter()
        .enumerate()
        .map(|(i, e)| (i as u32 + 1, e.clone()))
        .collect();
    storage
        .complete_multipart(key, &id, &parts)
        .await
        .expect("complete");
    assert_eq!(s3.size(key).await.expect("head"), Some(size));
    assert!(s3.get(key).await.expect("get") == content);
    assert_eq!(
        s3.tags(key).await.expect("tags"),
        vec![("expiring".to_owned(), "true".to_owned())]
    );

    // An abandoned upload: aborting drops its parts.
    let other = "school-1/uploads/00cc/left.wav";
    let id = storage
        .create_multipart(&MultipartSpec {
            key: other,
            filename: "left.wav",
            content_type: "audio/wav",
            expiring: false,
        })
        .await
        .expect("create");
    let signed = storage.sign_part(other, &id, "audio/wav", 1, 10, Utc::now());
    let response = reqwest::Client::new()
        .put(&signed.url)
        .body(vec![1u8; 10])
        .send()
        .await
        .expect("PUT");
    assert!(response.status().is_success());
    assert_eq!(storage.list_parts(other, &id).await.expect("list").len(), 1);
    storage.abort_multipart(other, &id).await.expect("abort");
    assert!(matches!(
        storage.list_parts(other, &id).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(s3.size(other).await.expect("head"), None);
}
