//! Groupcall Xporter on Demand through its OneRoster v1.1 API (reference/wonde-xporter.md
//! §7 B; docs/mis-sync.md, "Groupcall Xporter"). A token exchange
//! `POST {base}/api/ims/oneroster/v1p1/token` with HTTP Basic auth (the school's
//! `groupcallId` as client id, `groupcallSecret` as secret; `grant_type=client_credentials`)
//! answers `{"access_token","token_type":"Bearer","expires_in"}`; then the OneRoster
//! collections `GET {base}/api/ims/oneroster/v1p1/{users,classes,enrollments}` with
//! `Authorization: Bearer`, each body `{"<collection>":[...]}`, read one page at a time
//! ([`Pager`]): `limit`/`offset`, a `Link: <...>; rel="next"` header followed when given (same
//! scheme, host and port only), else the next offset until a short page or `X-Total-Count`.
//! `VOICEMARK_XPORTER_URL` replaces the base (a proxy, a test server). 401/403 is a refused
//! secret, 429 comes back with its `Retry-After` (the job waits that long). Mapping the
//! records to Voicemark's is `crate::mis::groupcall`.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::config::MisConfig;
use crate::metrics::SendTimed as _;

/// Groupcall's Xporter host.
pub const DEFAULT_BASE: &str = "https://xporter.groupcall.com";
/// The OneRoster v1.1 root under the base.
pub const ROOT: &str = "/api/ims/oneroster/v1p1";
/// Records per page asked for.
pub const LIMIT: usize = 200;
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
const MAX_PAGE_BYTES: usize = 32 * 1024 * 1024;
const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(60);

/// Why an Xporter call failed. `Display` is for the log and the health view (never the
/// secret or the token).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XporterError {
    /// 401 / 403: a wrong id or secret, or the school paused the app's access.
    #[error("Groupcall Xporter refused the request ({status}): {message}")]
    Refused { status: u16, message: String },
    /// 429: try again after this long.
    #[error("Groupcall Xporter asked to slow down: try again in {} s", .retry_after.as_secs())]
    RateLimited { retry_after: Duration },
    /// Another error status (404, 5xx).
    #[error("Groupcall Xporter answered {status}: {message}")]
    Answered { status: u16, message: String },
    #[error("could not reach Groupcall Xporter: {0}")]
    Unreachable(String),
    #[error("Groupcall Xporter did not answer in time")]
    TimedOut,
    /// A success status with a body we cannot read.
    #[error("Groupcall Xporter's answer could not be read: {0}")]
    Malformed(String),
    /// A `Link: rel="next"` on another host: not followed (the token would go there).
    #[error("Groupcall Xporter's next page is on another host ({0}); not followed")]
    ForeignNext(String),
}

impl XporterError {
    fn from_reqwest(err: reqwest::Error) -> XporterError {
        match super::ProviderError::from_reqwest(err) {
            super::ProviderError::TimedOut => XporterError::TimedOut,
            other => XporterError::Unreachable(other.to_string()),
        }
    }

    /// Whether trying again later may help (network trouble, 429, 5xx).
    pub fn is_transient(&self) -> bool {
        match self {
            XporterError::Answered { status, .. } => *status >= 500,
            XporterError::RateLimited { .. } | XporterError::Unreachable(_) => true,
            XporterError::TimedOut => true,
            _ => false,
        }
    }
}

/// A OneRoster reference to another record (`{"href","sourcedId","type"}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuidRef {
    pub sourced_id: String,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

/// One of a user's other ids (`{"type":"UPN","identifier":"..."}`).
#[derive(Debug, Clone, Deserialize)]
pub struct UserId {
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub identifier: Option<String>,
}

/// A OneRoster user (pupil, teacher, parent or guardian).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub sourced_id: String,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub date_last_modified: Option<String>,
    /// `"true"`/`"false"` (a string in OneRoster 1.1) or a boolean.
    #[serde(default)]
    pub enabled_user: Option<Value>,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub given_name: Option<String>,
    #[serde(default)]
    pub family_name: Option<String>,
    #[serde(default)]
    pub identifier: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub agents: Option<Vec<GuidRef>>,
    #[serde(default)]
    pub grades: Option<Vec<String>>,
    #[serde(default)]
    pub user_ids: Option<Vec<UserId>>,
    #[serde(default)]
    pub metadata: Option<serde_json::Map<String, Value>>,
}

/// A OneRoster class: `classType` `homeroom` (a form group) or `scheduled` (a teaching
/// class).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Class {
    pub sourced_id: String,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub class_code: Option<String>,
    #[serde(default)]
    pub class_type: Option<String>,
}

/// A OneRoster enrollment: a user in a class as `student` or `teacher`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Enrollment {
    pub sourced_id: String,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub date_last_modified: Option<String>,
    pub user: GuidRef,
    pub class: GuidRef,
    #[serde(default)]
    pub role: Option<String>,
}

/// Whether a record's `status` is `tobedeleted` (OneRoster's "gone").
pub fn to_be_deleted(status: &Option<String>) -> bool {
    status
        .as_deref()
        .is_some_and(|s| s.trim().eq_ignore_ascii_case("tobedeleted"))
}

/// The answer of the token exchange.
#[derive(Debug, Clone, Deserialize)]
pub struct AccessToken {
    pub access_token: String,
    #[serde(default)]
    pub token_type: Option<String>,
    #[serde(default)]
    pub expires_in: Option<u64>,
}

#[derive(Deserialize)]
struct Page<T> {
    #[serde(
        alias = "users",
        alias = "classes",
        alias = "enrollments",
        alias = "orgs"
    )]
    records: Vec<T>,
}

#[derive(Deserialize)]
struct OneUser {
    user: User,
}

/// Formats `at` for a delta's `filter=dateLastModified>'…'` (ISO 8601, UTC).
pub fn modified_since(at: chrono::NaiveDateTime) -> String {
    format!("dateLastModified>'{}'", at.format("%Y-%m-%dT%H:%M:%SZ"))
}

/// A client for Xporter, reused for every school (the credentials are per call).
#[derive(Debug, Clone)]
pub struct XporterClient {
    http: reqwest::Client,
    base: String,
}

impl XporterClient {
    pub fn new(config: &MisConfig) -> Result<XporterClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(XporterClient {
            http,
            base: config
                .xporter_url
                .clone()
                .unwrap_or_else(|| DEFAULT_BASE.to_owned())
                .trim_end_matches('/')
                .to_owned(),
        })
    }

    fn url(&self, path: &str) -> Result<url::Url, XporterError> {
        url::Url::parse(&format!("{}{ROOT}/{path}", self.base))
            .map_err(|e| XporterError::Malformed(format!("bad URL: {e}")))
    }

    /// Exchanges the school's id and secret for a bearer token.
    pub async fn token(&self, client_id: &str, secret: &str) -> Result<AccessToken, XporterError> {
        let request = self
            .http
            .post(self.url("token")?)
            .basic_auth(client_id, Some(secret))
            .form(&[("grant_type", "client_credentials")]);
        let (_, body) = self.send(request, secret).await?;
        let token: AccessToken =
            serde_json::from_slice(&body).map_err(|e| XporterError::Malformed(e.to_string()))?;
        if token.access_token.trim().is_empty() {
            return Err(XporterError::Malformed("an empty access token".into()));
        }
        Ok(token)
    }

    /// The pages of `GET {root}/{collection}?limit=200&offset=…[&filter=…]`.
    pub fn pages<T: DeserializeOwned>(
        &self,
        token: &str,
        collection: &str,
        filter: Option<&str>,
    ) -> Result<Pager<'_, T>, XporterError> {
        let url = self.url(collection)?;
        Ok(Pager {
            client: self,
            token: token.to_owned(),
            origin: url.origin(),
            base_url: url,
            filter: filter.map(str::to_owned),
            offset: 0,
            next: None,
            done: false,
            _records: std::marker::PhantomData,
        })
    }

    /// `GET {root}/users/{id}`: one user (`None` when Xporter does not know it).
    pub async fn user(&self, token: &str, id: &str) -> Result<Option<User>, XporterError> {
        let url = self
            .url("users/")?
            .join(&encode_segment(id))
            .map_err(|e| XporterError::Malformed(e.to_string()))?;
        match self
            .send(self.http.get(url).bearer_auth(token), token)
            .await
        {
            Ok((_, body)) => {
                let one: OneUser = serde_json::from_slice(&body)
                    .map_err(|e| XporterError::Malformed(e.to_string()))?;
                Ok(Some(one.user))
            }
            Err(XporterError::Answered { status: 404, .. }) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// Sends a request and reads a JSON body (429, refusals and HTML pages told apart).
    async fn send(
        &self,
        request: reqwest::RequestBuilder,
        secret: &str,
    ) -> Result<(reqwest::header::HeaderMap, Vec<u8>), XporterError> {
        let mut response = request
            .header(reqwest::header::ACCEPT, "application/json")
            .send_timed("xporter")
            .await
            .map_err(XporterError::from_reqwest)?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs)
                .unwrap_or(DEFAULT_RETRY_AFTER);
            return Err(XporterError::RateLimited { retry_after });
        }
        let headers = response.headers().clone();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(XporterError::from_reqwest)? {
            if body.len() + chunk.len() > MAX_PAGE_BYTES {
                return Err(XporterError::Malformed(format!(
                    "a page larger than {} MB",
                    MAX_PAGE_BYTES / (1024 * 1024)
                )));
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            let text = String::from_utf8_lossy(&body);
            let message = super::error_message(status, &text, Some(secret));
            return Err(match status.as_u16() {
                401 | 403 => XporterError::Refused {
                    status: status.as_u16(),
                    message,
                },
                code => XporterError::Answered {
                    status: code,
                    message,
                },
            });
        }
        let is_json = headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("json"));
        if !is_json {
            return Err(XporterError::Malformed(
                "the answer is not JSON (a proxy or maintenance page?)".into(),
            ));
        }
        Ok((headers, body))
    }
}

/// A path segment with anything but letters, digits, `-` and `_` percent-encoded.
fn encode_segment(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The `rel="next"` target of a `Link` header, if any.
pub fn link_next(header: &str) -> Option<&str> {
    header.split(',').find_map(|part| {
        let (target, params) = part.split_once(';')?;
        let is_next = params.split(';').any(|p| {
            let p = p.trim().replace(' ', "");
            p.eq_ignore_ascii_case("rel=\"next\"") || p.eq_ignore_ascii_case("rel=next")
        });
        is_next.then(|| target.trim().trim_start_matches('<').trim_end_matches('>'))
    })
}

/// The pages of one collection, fetched one by one as they are asked for.
pub struct Pager<'a, T> {
    client: &'a XporterClient,
    token: String,
    origin: url::Origin,
    base_url: url::Url,
    filter: Option<String>,
    offset: usize,
    /// The `Link: rel="next"` of the last page, when it gave one.
    next: Option<url::Url>,
    done: bool,
    _records: std::marker::PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Pager<'_, T> {
    /// The next page's records, or `None` after the last.
    pub async fn next_page(&mut self) -> Result<Option<Vec<T>>, XporterError> {
        if self.done {
            return Ok(None);
        }
        let url = match self.next.take() {
            Some(url) => url,
            None => {
                let mut url = self.base_url.clone();
                {
                    let mut pairs = url.query_pairs_mut();
                    pairs.append_pair("limit", &LIMIT.to_string());
                    pairs.append_pair("offset", &self.offset.to_string());
                    if let Some(filter) = &self.filter {
                        pairs.append_pair("filter", filter);
                    }
                }
                url
            }
        };
        let request = self.client.http.get(url.clone()).bearer_auth(&self.token);
        let (headers, body) = self.client.send(request, &self.token).await?;
        let page: Page<T> =
            serde_json::from_slice(&body).map_err(|e| XporterError::Malformed(e.to_string()))?;
        drop(body);
        let got = page.records.len();
        self.offset += got;
        let link = headers
            .get_all(reqwest::header::LINK)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|v| link_next(v).map(str::to_owned));
        let total = headers
            .get("x-total-count")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<usize>().ok());
        match link {
            Some(next) => {
                let next = url
                    .join(&next)
                    .map_err(|e| XporterError::Malformed(format!("bad next URL: {e}")))?;
                if next.origin() != self.origin {
                    return Err(XporterError::ForeignNext(
                        next.host_str().unwrap_or("?").to_owned(),
                    ));
                }
                self.next = Some(next);
            }
            None => {
                self.done = got < LIMIT || got == 0 || total.is_some_and(|t| self.offset >= t);
            }
        }
        Ok(Some(page.records))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_headers_give_the_next_page() {
        assert_eq!(
            link_next(
                r#"<https://x.test/a?offset=200>; rel="next", <https://x.test/a?offset=0>; rel="first""#
            ),
            Some("https://x.test/a?offset=200")
        );
        assert_eq!(
            link_next(r#"<https://x.test/a?offset=0>; rel="first""#),
            None
        );
        assert_eq!(
            modified_since(
                chrono::NaiveDate::from_ymd_opt(2026, 11, 24)
                    .unwrap()
                    .and_hms_opt(9, 5, 0)
                    .unwrap()
            ),
            "dateLastModified>'2026-11-24T09:05:00Z'"
        );
    }
}
