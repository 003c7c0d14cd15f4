//! Wonde's REST API v1.0 (reference/wonde-xporter.md): `Authorization: Bearer <token>`, the
//! school's regional domain from its school object (or `VOICEMARK_WONDE_URL` for a proxy or
//! a test server), JSON lists `{"data":[...],"meta":{"pagination":{"next","more"}}}` read one
//! page at a time ([`Pager`]: a whole school never arrives in one body), `next` followed as
//! given but never to another host (the token would leak), includes wrapped in `{"data":..}`,
//! PHP DateTime objects, and `null` for a property whose scope the school did not approve
//! (kept as `None`: unknown, never "empty"). A 429 comes back as
//! [`WondeError::RateLimited`] with its `Retry-After`, so the sync job can wait that long.
//! Mapping these shapes to Voicemark's records is `crate::mis::wonde`.

use std::time::Duration;

use chrono::{NaiveDateTime, TimeDelta};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::{config::MisConfig, metrics::SendTimed as _};

/// Wonde's UK domain: where a school object is first asked for.
pub const DEFAULT_BASE: &str = "https://api.wonde.com";
/// Records per page asked for (Wonde's widely used maximum).
pub const PER_PAGE: &str = "200";
/// One page's call (connect included).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The largest page body read; a bigger one is refused rather than held in memory.
const MAX_PAGE_BYTES: usize = 32 * 1024 * 1024;
/// The wait assumed when a 429 has no readable `Retry-After`.
const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(60);

/// Why a Wonde call failed. `Display` is for the log and the health view (never the token).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WondeError {
    /// 401 / 403: a wrong token, or the school has not approved the app (or the scope).
    #[error("Wonde refused the request ({status}): {message}")]
    Refused { status: u16, message: String },
    /// 404: no school (or record) with that id for this token.
    #[error("Wonde does not know this school id: {0}")]
    NotFound(String),
    /// 429: too many requests; try again after this long.
    #[error("Wonde asked to slow down: try again in {} s", .retry_after.as_secs())]
    RateLimited { retry_after: Duration },
    /// Another error status (422, 5xx).
    #[error("Wonde answered {status}: {message}")]
    Answered { status: u16, message: String },
    /// No connection, or it broke before an answer.
    #[error("could not reach Wonde: {0}")]
    Unreachable(String),
    #[error("Wonde did not answer in time")]
    TimedOut,
    /// A success status with a body we cannot read (e.g. a proxy's HTML page).
    #[error("Wonde's answer could not be read: {0}")]
    Malformed(String),
    /// `meta.pagination.next` pointed at another host: not followed.
    #[error("Wonde's next page is on another host ({0}); not followed")]
    ForeignNext(String),
}

impl WondeError {
    fn from_reqwest(err: reqwest::Error) -> WondeError {
        match super::ProviderError::from_reqwest(err) {
            super::ProviderError::TimedOut => WondeError::TimedOut,
            other => WondeError::Unreachable(other.to_string()),
        }
    }

    /// Whether trying again later may help (network trouble, 429, 5xx).
    pub fn is_transient(&self) -> bool {
        match self {
            WondeError::Answered { status, .. } => *status >= 500,
            WondeError::RateLimited { .. } | WondeError::Unreachable(_) => true,
            WondeError::TimedOut => true,
            _ => false,
        }
    }
}

/// A client for Wonde, reused for every school (the token is per call).
#[derive(Debug, Clone)]
pub struct WondeClient {
    http: reqwest::Client,
    base_override: Option<String>,
}

/// A PHP DateTime as Wonde writes it: `{"date":"2016-06-24 13:49:11.000000",
/// "timezone_type":3,"timezone":"UTC"}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PhpDate {
    pub date: String,
    #[serde(default)]
    pub timezone: Option<String>,
}

impl PhpDate {
    /// The moment in UTC. `UTC`/`Z` and offsets (`+01:00`, timezone_type 1) are exact; a named
    /// zone other than UTC (dates of birth in `Europe/London`) is taken as written, since
    /// only its date part is meaningful.
    pub fn to_utc(&self) -> Option<NaiveDateTime> {
        let text = self.date.trim();
        let local = NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f")
            .or_else(|_| NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S"))
            .ok()?;
        let zone = self.timezone.as_deref().unwrap_or("UTC").trim();
        match zone.as_bytes().first() {
            Some(b'+') | Some(b'-') => {
                let sign = if zone.starts_with('-') { -1 } else { 1 };
                let digits: String = zone[1..].chars().filter(char::is_ascii_digit).collect();
                let hours: i64 = digits.get(..2)?.parse().ok()?;
                let minutes: i64 = digits.get(2..4).unwrap_or("0").parse().ok()?;
                Some(local - TimeDelta::minutes(sign * (hours * 60 + minutes)))
            }
            _ => Some(local),
        }
    }
}

/// A to-one include: `{"data": {...}}` (`data` null: known to have none).
#[derive(Debug, Clone, Deserialize)]
pub struct One<T> {
    pub data: Option<T>,
}

/// A to-many include: `{"data": [...]}`.
#[derive(Debug, Clone, Deserialize)]
pub struct Many<T> {
    #[serde(default = "Vec::new")]
    pub data: Vec<T>,
}

/// A record reached only for its id (a class's pupils, a pupil's classes).
#[derive(Debug, Clone, Deserialize)]
pub struct Ref {
    pub id: String,
}

/// `contact_details.data` (the parts used).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ContactDetails {
    #[serde(default)]
    pub emails: Option<Emails>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Emails {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub primary: Option<String>,
    #[serde(default)]
    pub home: Option<String>,
    #[serde(default)]
    pub work: Option<String>,
}

impl Emails {
    /// The first address given, in the order `primary, email, home, work` (`work` first
    /// when `work_first`, for staff).
    pub fn best(&self, work_first: bool) -> Option<String> {
        let order = if work_first {
            [&self.work, &self.email, &self.primary, &self.home]
        } else {
            [&self.primary, &self.email, &self.home, &self.work]
        };
        order
            .into_iter()
            .flatten()
            .map(|e| e.trim())
            .find(|e| !e.is_empty())
            .map(str::to_owned)
    }
}

/// A year, registration (form) or other group.
#[derive(Debug, Clone, Deserialize)]
pub struct Group {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

/// `education_details.data` (the UPN).
#[derive(Debug, Clone, Deserialize)]
pub struct EducationDetails {
    #[serde(default)]
    pub upn: Option<String>,
}

/// A contact's relationship to the pupil it was reached through.
#[derive(Debug, Clone, Deserialize)]
pub struct Relationship {
    #[serde(default)]
    pub parental_responsibility: Option<Value>,
    #[serde(default)]
    pub priority: Option<Value>,
}

impl Relationship {
    /// `true`, `1` or `"1"`/`"true"`: Wonde's MIS sources differ.
    pub fn has_responsibility(&self) -> bool {
        match &self.parental_responsibility {
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_i64() == Some(1),
            Some(Value::String(s)) => matches!(s.trim(), "1" | "true" | "TRUE" | "True"),
            _ => false,
        }
    }

    /// The priority (1 first); unknown sorts last.
    pub fn priority(&self) -> i64 {
        match &self.priority {
            Some(Value::Number(n)) => n.as_i64().unwrap_or(i64::MAX),
            Some(Value::String(s)) => s.trim().parse().unwrap_or(i64::MAX),
            _ => i64::MAX,
        }
    }
}

/// A parent or carer reached through a pupil (`include=contacts.contact_details`).
#[derive(Debug, Clone, Deserialize)]
pub struct Contact {
    pub id: String,
    #[serde(default)]
    pub relationship: Option<Relationship>,
    #[serde(default)]
    pub contact_details: Option<One<ContactDetails>>,
}

/// A pupil (`/students?include=year,registration,classes,education_details,contact_details,
/// contacts.contact_details`). An include that is `None` was not approved: unknown.
#[derive(Debug, Clone, Deserialize)]
pub struct Student {
    pub id: String,
    #[serde(default)]
    pub forename: Option<String>,
    #[serde(default)]
    pub surname: Option<String>,
    #[serde(default)]
    pub legal_forename: Option<String>,
    #[serde(default)]
    pub legal_surname: Option<String>,
    #[serde(default)]
    pub updated_at: Option<PhpDate>,
    #[serde(default)]
    pub year: Option<One<Group>>,
    #[serde(default)]
    pub registration: Option<One<Group>>,
    #[serde(default)]
    pub classes: Option<Many<Ref>>,
    #[serde(default)]
    pub education_details: Option<One<EducationDetails>>,
    #[serde(default)]
    pub contact_details: Option<One<ContactDetails>>,
    #[serde(default)]
    pub contacts: Option<Many<Contact>>,
}

/// A teaching class (`/classes?include=employees`).
#[derive(Debug, Clone, Deserialize)]
pub struct Class {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub employees: Option<Many<Ref>>,
}

/// `employment_details.data` (the parts used).
#[derive(Debug, Clone, Deserialize)]
pub struct EmploymentDetails {
    #[serde(default)]
    pub teaching_staff: Option<bool>,
    #[serde(default)]
    pub current: Option<bool>,
    #[serde(default)]
    pub staff_code: Option<String>,
}

/// A member of staff (`/employees?include=employment_details,contact_details`).
#[derive(Debug, Clone, Deserialize)]
pub struct Employee {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub forename: Option<String>,
    #[serde(default)]
    pub surname: Option<String>,
    #[serde(default)]
    pub legal_forename: Option<String>,
    #[serde(default)]
    pub legal_surname: Option<String>,
    #[serde(default)]
    pub employment_details: Option<One<EmploymentDetails>>,
    #[serde(default)]
    pub contact_details: Option<One<ContactDetails>>,
}

/// One record removed from the MIS (`/deletions`).
#[derive(Debug, Clone, Deserialize)]
pub struct Deletion {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub restored_at: Option<PhpDate>,
}

/// A school object (the parts used).
#[derive(Debug, Clone, Deserialize)]
pub struct School {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub region: Option<Region>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Region {
    #[serde(default)]
    pub domain: Option<String>,
}

#[derive(Deserialize)]
struct Single<T> {
    data: T,
}

#[derive(Deserialize)]
struct Page<T> {
    data: Vec<T>,
    #[serde(default)]
    meta: Option<Meta>,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    pagination: Option<Pagination>,
}

#[derive(Deserialize)]
struct Pagination {
    #[serde(default)]
    next: Option<String>,
    #[serde(default)]
    more: Option<bool>,
}

/// Formats `at` as Wonde's `updated_after` wants it: `YYYY-MM-DD HH:MM:SS` (UTC).
pub fn updated_after(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%d %H:%M:%S").to_string()
}

impl WondeClient {
    pub fn new(config: &MisConfig) -> Result<WondeClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(WondeClient {
            http,
            base_override: config.wonde_url.clone(),
        })
    }

    /// `GET /v1.0/schools/{id}`: the school and its region, asked of the configured base or
    /// of Wonde's UK domain.
    pub async fn school(&self, token: &str, school_id: &str) -> Result<School, WondeError> {
        let base = self.base_override.as_deref().unwrap_or(DEFAULT_BASE);
        let url = url::Url::parse(&format!("{base}/v1.0/schools/"))
            .and_then(|u| u.join(&encode_segment(school_id)))
            .map_err(|e| WondeError::Malformed(format!("bad school URL: {e}")))?;
        let single: Single<School> = self.get_json(token, url).await?;
        Ok(single.data)
    }

    /// The base URL for the school's data: `VOICEMARK_WONDE_URL` when set, else
    /// `https://{region.domain}` (Wonde's UK domain when the school names none).
    pub fn school_base(&self, school: &School) -> String {
        match &self.base_override {
            Some(base) => base.clone(),
            None => school
                .region
                .as_ref()
                .and_then(|r| r.domain.as_deref())
                .map(str::trim)
                .filter(|d| !d.is_empty() && !d.contains('/'))
                .map(|d| format!("https://{d}"))
                .unwrap_or_else(|| DEFAULT_BASE.to_owned()),
        }
    }

    /// The pages of `GET {base}/v1.0/schools/{school}/{endpoint}?per_page=200&{query}`, read
    /// one at a time with [`Pager::next_page`].
    pub fn pages<T: DeserializeOwned>(
        &self,
        token: &str,
        base: &str,
        school_id: &str,
        endpoint: &str,
        query: &[(&str, &str)],
    ) -> Result<Pager<'_, T>, WondeError> {
        let mut url = url::Url::parse(&format!("{base}/v1.0/schools/"))
            .and_then(|u| u.join(&format!("{}/", encode_segment(school_id))))
            .and_then(|u| u.join(endpoint))
            .map_err(|e| WondeError::Malformed(format!("bad list URL: {e}")))?;
        {
            let mut pairs = url.query_pairs_mut();
            pairs.append_pair("per_page", PER_PAGE);
            for (k, v) in query {
                pairs.append_pair(k, v);
            }
        }
        Ok(Pager {
            client: self,
            token: token.to_owned(),
            origin: url.origin(),
            next: Some(url),
            _records: std::marker::PhantomData,
        })
    }

    /// One GET with the token, read as JSON `T` (429, refusals and HTML pages told apart).
    async fn get_json<T: DeserializeOwned>(
        &self,
        token: &str,
        url: url::Url,
    ) -> Result<T, WondeError> {
        let mut response = self
            .http
            .get(url)
            .bearer_auth(token)
            .header(reqwest::header::ACCEPT, "application/json")
            .send_timed("wonde")
            .await
            .map_err(WondeError::from_reqwest)?;
        let status = response.status();
        if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs)
                .unwrap_or(DEFAULT_RETRY_AFTER);
            return Err(WondeError::RateLimited { retry_after });
        }
        let is_json = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("json"));
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(WondeError::from_reqwest)? {
            if body.len() + chunk.len() > MAX_PAGE_BYTES {
                return Err(WondeError::Malformed(format!(
                    "a page larger than {} MB",
                    MAX_PAGE_BYTES / (1024 * 1024)
                )));
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            let text = String::from_utf8_lossy(&body);
            let message = super::error_message(status, &text, Some(token));
            return Err(match status.as_u16() {
                401 | 403 => WondeError::Refused {
                    status: status.as_u16(),
                    message,
                },
                404 => WondeError::NotFound(message),
                code => WondeError::Answered {
                    status: code,
                    message,
                },
            });
        }
        if !is_json {
            return Err(WondeError::Malformed(
                "the answer is not JSON (a proxy or maintenance page?)".into(),
            ));
        }
        serde_json::from_slice(&body).map_err(|e| WondeError::Malformed(e.to_string()))
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

/// The pages of one list, fetched one by one as they are asked for.
pub struct Pager<'a, T> {
    client: &'a WondeClient,
    token: String,
    origin: url::Origin,
    next: Option<url::Url>,
    _records: std::marker::PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Pager<'_, T> {
    /// The next page's records, or `None` after the last. A `next` URL on another scheme,
    /// host or port is refused; `more: true` without a `next` is an error (not a silent end).
    pub async fn next_page(&mut self) -> Result<Option<Vec<T>>, WondeError> {
        let Some(url) = self.next.take() else {
            return Ok(None);
        };
        let page: Page<T> = self.client.get_json(&self.token, url).await?;
        let pagination = page.meta.and_then(|m| m.pagination);
        let next = pagination
            .as_ref()
            .and_then(|p| p.next.as_deref())
            .map(str::trim)
            .filter(|n| !n.is_empty());
        match next {
            Some(next) => {
                let url = url::Url::parse(next)
                    .map_err(|e| WondeError::Malformed(format!("bad next URL: {e}")))?;
                if url.origin() != self.origin {
                    return Err(WondeError::ForeignNext(
                        url.host_str().unwrap_or("?").to_owned(),
                    ));
                }
                self.next = Some(url);
            }
            None if pagination.as_ref().and_then(|p| p.more) == Some(true) => {
                return Err(WondeError::Malformed(
                    "more pages announced without a next URL".into(),
                ));
            }
            None => {}
        }
        Ok(Some(page.data))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn php_dates_are_read_with_their_zone() {
        let date = |d: &str, tz: &str| PhpDate {
            date: d.into(),
            timezone: Some(tz.into()),
        };
        let utc = date("2024-05-10 14:40:30.000000", "UTC").to_utc().unwrap();
        assert_eq!(utc.to_string(), "2024-05-10 14:40:30");
        let offset = date("2024-05-10 14:40:30.000000", "+01:00").to_utc().unwrap();
        assert_eq!(offset.to_string(), "2024-05-10 13:40:30");
        assert!(date("yesterday", "UTC").to_utc().is_none());
        assert_eq!(updated_after(utc), "2024-05-10 14:40:30");
    }

    #[test]
    fn null_includes_are_unknown_and_data_null_is_none() {
        let student: Student = serde_json::from_str(
            r#"{"id":"A1","forename":"Ada","surname":"Lovelace","contacts":null,
                "registration":{"data":null},"education_details":{"data":{"upn":"U1"}}}"#,
        )
        .unwrap();
        assert!(student.contacts.is_none());
        assert!(student.registration.as_ref().unwrap().data.is_none());
        assert_eq!(
            student.education_details.unwrap().data.unwrap().upn.as_deref(),
            Some("U1")
        );
    }

    #[test]
    fn the_best_address_and_the_relationship_flags() {
        let emails = Emails {
            email: Some("a@x.org".into()),
            work: Some("w@x.org".into()),
            ..Emails::default()
        };
        assert_eq!(emails.best(false).as_deref(), Some("a@x.org"));
        assert_eq!(emails.best(true).as_deref(), Some("w@x.org"));
        let r: Relationship =
            serde_json::from_str(r#"{"parental_responsibility":"1","priority":"2"}"#).unwrap();
        assert!(r.has_responsibility());
        assert_eq!(r.priority(), 2);
    }
}
