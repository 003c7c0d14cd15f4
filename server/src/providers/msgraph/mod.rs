//! Microsoft Graph for a task's content (msgraph-files-teams.md): a leader's OneDrive and
//! SharePoint folders (`driveItem` listings), their Teams meeting recordings and transcripts
//! (`getAllRecordings` / `getAllTranscripts` by organiser), a transcript as WebVTT, and a
//! file's bytes as a stream. Every call carries the leader's delegated access token
//! (`Authorization: Bearer`); where the token comes from is the caller's business. Lists are
//! followed through `@odata.nextLink`, but never to another host than the configured Graph
//! URL, so a token is never sent elsewhere. A download follows Graph's 302 to the
//! pre-authenticated URL without the token (reqwest drops `Authorization` when a redirect
//! changes host) and is read as a stream, never whole in memory. 429 and 503 carry
//! `Retry-After`, which [`GraphError::retry_after`] gives to the job that called.

use std::time::Duration;

use futures_util::TryStreamExt;
use serde::Deserialize;
use serde_json::Value;

use crate::metrics::SendTimed as _;
use crate::storage::ByteStream;

mod libraries;
mod vtt;

pub use libraries::{Drive, Site};
pub use vtt::vtt_to_text;

/// Every listing or transcript call is one small request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// A download may take long, but never stalls longer than this between chunks.
pub const DOWNLOAD_READ_TIMEOUT: Duration = Duration::from_secs(60);
/// The most pages of one listing followed (a folder of 100,000 items at Graph's 200 a page
/// is 500 pages; beyond that the listing is cut, not looped over forever).
pub const MAX_PAGES: usize = 500;
/// Graph's public address; `VOICEMARK_GRAPH_URL` replaces it (a proxy, a test server).
pub const DEFAULT_GRAPH_URL: &str = "https://graph.microsoft.com/v1.0";

/// Why a Graph call failed. `Display` is for the log; it never carries the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// Graph answered with its error object (`{"error":{"code","message"}}`).
    #[error("Microsoft Graph answered {status} ({code}): {message}")]
    Api {
        status: u16,
        code: String,
        message: String,
        /// Seconds to wait before trying again (429 / 503 `Retry-After`).
        retry_after: Option<u64>,
    },
    /// No connection, or it broke before an answer.
    #[error("could not reach Microsoft Graph: {0}")]
    Unreachable(String),
    /// No answer in time.
    #[error("Microsoft Graph did not answer in time")]
    TimedOut,
    /// A success status with a body of no shape we know, or a link to another host.
    #[error("Microsoft Graph's answer could not be used: {0}")]
    Malformed(String),
}

impl GraphError {
    fn from_reqwest(err: reqwest::Error) -> GraphError {
        match super::ProviderError::from_reqwest(err) {
            super::ProviderError::TimedOut => GraphError::TimedOut,
            other => GraphError::Unreachable(other.to_string()),
        }
    }

    /// Whether trying again later may succeed (network trouble, 429, 5xx).
    pub fn is_transient(&self) -> bool {
        match self {
            GraphError::Api { status, .. } => *status == 429 || *status >= 500,
            GraphError::Unreachable(_) | GraphError::TimedOut => true,
            GraphError::Malformed(_) => false,
        }
    }

    /// How long Graph asked us to wait, when it did.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            GraphError::Api {
                retry_after: Some(s),
                ..
            } => Some(Duration::from_secs(*s)),
            _ => None,
        }
    }

    /// Whether the token was refused (expired or revoked): connect again.
    pub fn is_unauthorised(&self) -> bool {
        matches!(self, GraphError::Api { status: 401, .. })
    }
}

/// A file or folder in a drive (the fields used).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DriveItem {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub size: Option<u64>,
    #[serde(default)]
    pub folder: Option<FolderFacet>,
    #[serde(default)]
    pub file: Option<FileFacet>,
    #[serde(default)]
    pub parent_reference: Option<ParentReference>,
    #[serde(default)]
    pub last_modified_date_time: Option<String>,
}

impl DriveItem {
    /// The drive the item lives in, if Graph said.
    pub fn drive_id(&self) -> Option<&str> {
        self.parent_reference
            .as_ref()
            .and_then(|p| p.drive_id.as_deref())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FolderFacet {
    #[serde(default)]
    pub child_count: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileFacet {
    #[serde(default)]
    pub mime_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParentReference {
    #[serde(default)]
    pub drive_id: Option<String>,
}

/// A Teams meeting's recording or transcript (`callRecording` / `callTranscript`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeetingArtifact {
    pub id: String,
    pub meeting_id: String,
    #[serde(default)]
    pub created_date_time: Option<String>,
    #[serde(default)]
    pub end_date_time: Option<String>,
    /// Links a transcript to its recording.
    #[serde(default)]
    pub content_correlation_id: Option<String>,
    #[serde(default)]
    pub recording_content_url: Option<String>,
    #[serde(default)]
    pub transcript_content_url: Option<String>,
}

/// A listing page: `{"value": [...], "@odata.nextLink": "..."}`.
#[derive(Debug, Deserialize)]
struct Page<T> {
    value: Vec<T>,
    #[serde(rename = "@odata.nextLink", default)]
    next_link: Option<String>,
}

/// A file's bytes as they arrive, and their length when Graph said.
pub struct Download {
    pub body: ByteStream<'static>,
    pub length: Option<u64>,
    pub content_type: Option<String>,
}

impl std::fmt::Debug for Download {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Download")
            .field("length", &self.length)
            .field("content_type", &self.content_type)
            .finish_non_exhaustive()
    }
}

/// A client for Microsoft Graph, reused for every call.
#[derive(Debug, Clone)]
pub struct GraphClient {
    http: reqwest::Client,
    download: reqwest::Client,
    base_url: String,
}

impl GraphClient {
    /// `base_url`: Graph's address with its version (`https://graph.microsoft.com/v1.0`).
    pub fn new(base_url: &str) -> Result<GraphClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        let download = reqwest::Client::builder()
            .connect_timeout(REQUEST_TIMEOUT)
            .read_timeout(DOWNLOAD_READ_TIMEOUT)
            .redirect(reqwest::redirect::Policy::limited(5))
            .build()?;
        Ok(GraphClient {
            http,
            download,
            base_url: base_url.trim_end_matches('/').to_owned(),
        })
    }

    /// The children of a folder: the root of the user's OneDrive when `item` is `None`,
    /// else the item's in `drive` (the user's own drive when `drive` is `None`).
    pub async fn children(
        &self,
        token: &str,
        drive: Option<&str>,
        item: Option<&str>,
    ) -> Result<Vec<DriveItem>, GraphError> {
        let path = match (drive, item) {
            (None, None) => "/me/drive/root/children".to_owned(),
            (Some(drive), None) => format!("/drives/{}/root/children", segment(drive)?),
            (None, Some(item)) => format!("/me/drive/items/{}/children", segment(item)?),
            (Some(drive), Some(item)) => format!(
                "/drives/{}/items/{}/children",
                segment(drive)?,
                segment(item)?
            ),
        };
        self.list(token, &format!("{path}?$top=200")).await
    }

    /// The signed-in user's id (`GET /me`).
    pub async fn me(&self, token: &str) -> Result<String, GraphError> {
        let value: Value = self.get_json(token, &self.url("/me")?).await?;
        value["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| GraphError::Malformed("/me has no id".into()))
    }

    /// The recordings of meetings `organiser` organised between `from` and `to` (ISO 8601).
    pub async fn recordings(
        &self,
        token: &str,
        organiser: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<MeetingArtifact>, GraphError> {
        self.artifacts(token, "getAllRecordings", organiser, from, to)
            .await
    }

    /// The transcripts of meetings `organiser` organised between `from` and `to`.
    pub async fn transcripts(
        &self,
        token: &str,
        organiser: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<MeetingArtifact>, GraphError> {
        self.artifacts(token, "getAllTranscripts", organiser, from, to)
            .await
    }

    async fn artifacts(
        &self,
        token: &str,
        function: &str,
        organiser: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<MeetingArtifact>, GraphError> {
        let organiser = segment(organiser)?;
        let path = format!(
            "/users/{organiser}/onlineMeetings/{function}(meetingOrganizerUserId='{organiser}',startDateTime={},endDateTime={})",
            timestamp(from)?,
            timestamp(to)?
        );
        self.list(token, &path).await
    }

    /// A transcript's text as WebVTT (`…/content?$format=text/vtt`).
    pub async fn transcript_vtt(
        &self,
        token: &str,
        transcript: &MeetingArtifact,
    ) -> Result<String, GraphError> {
        let mut url = self.content_url(
            transcript,
            transcript.transcript_content_url.as_deref(),
            "transcripts",
        )?;
        url.query_pairs_mut().append_pair("$format", "text/vtt");
        let response = self
            .http
            .get(url)
            .bearer_auth(token)
            .header(reqwest::header::ACCEPT, "text/vtt")
            .send_timed("graph")
            .await
            .map_err(GraphError::from_reqwest)?;
        let response = check(response).await?;
        response.text().await.map_err(GraphError::from_reqwest)
    }

    /// The bytes of a drive item (`/drives/{drive}/items/{item}/content`) as a stream.
    pub async fn download_item(
        &self,
        token: &str,
        drive: Option<&str>,
        item: &str,
    ) -> Result<Download, GraphError> {
        let path = match drive {
            Some(drive) => format!(
                "/drives/{}/items/{}/content",
                segment(drive)?,
                segment(item)?
            ),
            None => format!("/me/drive/items/{}/content", segment(item)?),
        };
        self.download_url(token, self.url(&path)?).await
    }

    /// The bytes of a meeting recording (its `recordingContentUrl`) as a stream.
    pub async fn download_recording(
        &self,
        token: &str,
        recording: &MeetingArtifact,
    ) -> Result<Download, GraphError> {
        let url = self.content_url(
            recording,
            recording.recording_content_url.as_deref(),
            "recordings",
        )?;
        self.download_url(token, url).await
    }

    /// Where a meeting artefact's content is: the URL Graph gave (on Graph's host only), else
    /// `/me/onlineMeetings/{meeting}/{collection}/{id}/content`.
    fn content_url(
        &self,
        artifact: &MeetingArtifact,
        given: Option<&str>,
        collection: &str,
    ) -> Result<url::Url, GraphError> {
        match given {
            Some(url) => self.same_host(url),
            None => self.url(&format!(
                "/me/onlineMeetings/{}/{collection}/{}/content",
                segment(&artifact.meeting_id)?,
                segment(&artifact.id)?
            )),
        }
    }

    async fn download_url(&self, token: &str, url: url::Url) -> Result<Download, GraphError> {
        let response = self
            .download
            .get(url)
            .bearer_auth(token)
            .send_timed("graph")
            .await
            .map_err(GraphError::from_reqwest)?;
        let response = check(response).await?;
        let length = response.content_length();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or(v).trim().to_owned());
        let body = Box::pin(response.bytes_stream().map_err(std::io::Error::other));
        Ok(Download {
            body,
            length,
            content_type,
        })
    }

    /// Every item of a listing, page after page.
    async fn list<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        path: &str,
    ) -> Result<Vec<T>, GraphError> {
        let mut url = self.url(path)?;
        let mut items = Vec::new();
        for _ in 0..MAX_PAGES {
            let page: Page<T> = self.get_json(token, &url).await?;
            items.extend(page.value);
            match page.next_link {
                Some(next) => url = self.same_host(&next)?,
                None => return Ok(items),
            }
        }
        tracing::warn!(%path, "Graph listing cut at {MAX_PAGES} pages");
        Ok(items)
    }

    async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        url: &url::Url,
    ) -> Result<T, GraphError> {
        let response = self
            .http
            .get(url.clone())
            .bearer_auth(token)
            .send_timed("graph")
            .await
            .map_err(GraphError::from_reqwest)?;
        let response = check(response).await?;
        let body = response.bytes().await.map_err(GraphError::from_reqwest)?;
        serde_json::from_slice(&body).map_err(|e| GraphError::Malformed(e.to_string()))
    }

    fn url(&self, path: &str) -> Result<url::Url, GraphError> {
        url::Url::parse(&format!("{}{path}", self.base_url))
            .map_err(|e| GraphError::Malformed(format!("not a URL: {e}")))
    }

    /// `link` when it points at the configured Graph host (scheme, host and port), so the
    /// token is only ever sent there.
    fn same_host(&self, link: &str) -> Result<url::Url, GraphError> {
        let base = self.url("")?;
        let url =
            url::Url::parse(link).map_err(|e| GraphError::Malformed(format!("not a URL: {e}")))?;
        if url.scheme() == base.scheme()
            && url.host_str() == base.host_str()
            && url.port_or_known_default() == base.port_or_known_default()
        {
            Ok(url)
        } else {
            Err(GraphError::Malformed(format!(
                "a link to another host than Graph: {}",
                url.host_str().unwrap_or("")
            )))
        }
    }
}

/// An error status as [`GraphError::Api`], with Graph's code and message.
async fn check(response: reqwest::Response) -> Result<reqwest::Response, GraphError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let body = response.text().await.unwrap_or_default();
    let json: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let code = json["error"]["code"]
        .as_str()
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("error"))
        .to_owned();
    let message = super::error_message(status, &body, None);
    Err(GraphError::Api {
        status: status.as_u16(),
        code,
        message,
        retry_after,
    })
}

/// An id used as one path segment: Graph's ids are base64-like (letters, digits, `!`, `-`,
/// `_`, `=`, `.`; a site id joins three parts with `,`); anything else is refused rather
/// than escaped into another path.
fn segment(id: &str) -> Result<&str, GraphError> {
    if is_graph_id(id) {
        Ok(id)
    } else {
        Err(GraphError::Malformed(format!("not a Graph id: {id:?}")))
    }
}

/// Whether `id` is shaped like a Graph id (drive, item, meeting, recording, transcript).
pub fn is_graph_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 1024
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '!' | '-' | '_' | '=' | '.' | ','))
}

/// An ISO 8601 UTC time for a function parameter (`2024-09-01T00:00:00Z`).
fn timestamp(at: &str) -> Result<&str, GraphError> {
    chrono::DateTime::parse_from_rfc3339(at)
        .map(|_| at)
        .map_err(|_| GraphError::Malformed(format!("not a time: {at:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_could_leave_their_path_segment_are_refused() {
        assert!(segment("b!xyz-AB_c=").is_ok());
        assert!(segment("01ABCDEF").is_ok());
        assert!(segment("contoso.sharepoint.com,2C712604-1370-44E7-A1F5-426573FDA80A,2D2244C3-251A-49EA-93A8-39E1C3A060FE").is_ok());
        for bad in ["", "../me", "a/b", "a?b", "a b", "a%2f"] {
            assert!(segment(bad).is_err(), "{bad}");
        }
        assert!(timestamp("2024-09-01T00:00:00Z").is_ok());
        assert!(timestamp("2024-09-01'),x").is_err());
    }

    #[test]
    fn links_to_another_host_are_refused() {
        let client = GraphClient::new("http://127.0.0.1:9000/v1.0").expect("client");
        assert!(client
            .same_host("http://127.0.0.1:9000/v1.0/me/drive/root/children?$skiptoken=x")
            .is_ok());
        for other in [
            "http://evil.test/v1.0/me",
            "http://127.0.0.1:9001/v1.0/me",
            "https://127.0.0.1:9000/v1.0/me",
        ] {
            assert!(client.same_host(other).is_err(), "{other}");
        }
    }
}
