//! `providers::msgraph` against a stub Microsoft Graph on loopback that speaks Graph's
//! shapes (msgraph-files-teams.md): driveItem pages joined through `@odata.nextLink`, a
//! link to another host refused, a download that 302s to a pre-authenticated URL on
//! another host (which must not see the token), meeting recordings and transcripts by
//! organiser, WebVTT with `$format=text/vtt`, and Graph's error object with `Retry-After`.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::TryStreamExt;
use serde_json::json;
use voicemark::providers::msgraph::{GraphClient, GraphError};

/// The access token the stub identity platform (microsoft_signin.rs) issues.
pub(crate) const TOKEN: &str = "eyJ0eXAiOiJKV1QiLCJub25jZSI6InN0dWIifQ.stub-access-token.sig";
/// A token for which the stub's listing links to another host.
const ELSEWHERE: &str = "eyJ0eXAiOiJKV1QiLCJub25jZSI6ImVsc2V3aGVyZSJ9.stub";

#[derive(Clone, Default)]
pub(crate) struct Stub {
    /// The Authorization header each request arrived with, by path.
    seen: Arc<Mutex<Vec<(String, Option<String>)>>>,
    /// This stub's own address (for nextLink and redirects).
    base: Arc<Mutex<String>>,
}

impl Stub {
    fn note(&self, path: &str, headers: &HeaderMap) {
        let auth = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        self.seen.lock().expect("seen").push((path.to_owned(), auth));
    }

    pub(crate) fn auth_of(&self, path: &str) -> Option<Option<String>> {
        self.seen
            .lock()
            .expect("seen")
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, a)| a.clone())
    }

    fn base(&self) -> String {
        self.base.lock().expect("base").clone()
    }
}

fn graph_error(status: StatusCode, code: &str, message: &str) -> Response {
    (
        status,
        Json(json!({"error": {"code": code, "message": message,
            "innerError": {"date": "2026-11-24T10:00:00", "request-id": "r1", "client-request-id": "c1"}}})),
    )
        .into_response()
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

fn item(id: &str, name: &str, folder: bool) -> serde_json::Value {
    let mut item = json!({"id": id, "name": name, "size": 1024,
        "parentReference": {"driveId": "b!drive1", "driveType": "business", "id": "01ROOT"},
        "lastModifiedDateTime": "2026-11-20T10:02:11Z"});
    if folder {
        item["folder"] = json!({"childCount": 3});
    } else {
        item["file"] = json!({"mimeType": "video/mp4"});
    }
    item
}

async fn root_children(
    State(stub): State<Stub>,
    headers: HeaderMap,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Response {
    stub.note("/v1.0/me/drive/root/children", &headers);
    if query.get("$skiptoken").map(String::as_str) == Some("page2") {
        return Json(json!({"value": [item("01C", "Lesson 3.mp4", false)]})).into_response();
    }
    if headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {ELSEWHERE}")) {
        return Json(json!({"value": [],
            "@odata.nextLink": "http://evil.test/v1.0/me/drive/root/children?$skiptoken=x"}))
        .into_response();
    }
    if !authorised(&headers) {
        return graph_error(StatusCode::UNAUTHORIZED, "InvalidAuthenticationToken", "Access token has expired or is not yet valid.");
    }
    assert_eq!(query.get("$top").map(String::as_str), Some("200"));
    Json(json!({
        "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users('me')/drive/root/children",
        "value": [item("01A", "Recordings", true), item("01B", "Plan.docx", false)],
        "@odata.nextLink": format!("{}/v1.0/me/drive/root/children?$top=200&$skiptoken=page2", stub.base()),
    }))
    .into_response()
}

async fn item_content(State(stub): State<Stub>, headers: HeaderMap, Path((drive, id)): Path<(String, String)>) -> Response {
    stub.note(&format!("/v1.0/drives/{drive}/items/{id}/content"), &headers);
    if !authorised(&headers) {
        return graph_error(StatusCode::UNAUTHORIZED, "InvalidAuthenticationToken", "no token");
    }
    // Graph answers 302 to a pre-authenticated URL on SharePoint's host.
    let target = stub.base().replace("127.0.0.1", "localhost");
    (StatusCode::FOUND, [(header::LOCATION, format!("{target}/download.aspx?UniqueId={id}&tempauth=xyz"))]).into_response()
}

async fn recording_content(State(stub): State<Stub>, headers: HeaderMap, Path((meeting, id)): Path<(String, String)>) -> Response {
    stub.note(&format!("/v1.0/me/onlineMeetings/{meeting}/recordings/{id}/content"), &headers);
    if !authorised(&headers) {
        return graph_error(StatusCode::UNAUTHORIZED, "InvalidAuthenticationToken", "no token");
    }
    let target = stub.base().replace("127.0.0.1", "localhost");
    (StatusCode::FOUND, [(header::LOCATION, format!("{target}/download.aspx?UniqueId={id}&tempauth=rec"))]).into_response()
}

/// The bytes every download answers: 300,000 of them, `i % 251`.
pub(crate) fn download_bytes() -> Vec<u8> {
    (0..300_000u32).map(|i| (i % 251) as u8).collect()
}

async fn download(State(stub): State<Stub>, headers: HeaderMap) -> Response {
    stub.note("/download.aspx", &headers);
    ([(header::CONTENT_TYPE, "video/mp4")], download_bytes()).into_response()
}

async fn me(State(stub): State<Stub>, headers: HeaderMap) -> Response {
    stub.note("/v1.0/me", &headers);
    Json(json!({"id": "ba321e0d-79ee-478d-8e28-85a19507f456", "displayName": "Mary Somerville"})).into_response()
}

/// `getAllRecordings(...)` and `getAllTranscripts(...)`: axum sees the function call as
/// one path segment.
async fn meetings_function(State(stub): State<Stub>, headers: HeaderMap, Path((user, call)): Path<(String, String)>) -> Response {
    stub.note(&format!("/v1.0/users/{user}/onlineMeetings/{call}"), &headers);
    if call.starts_with("getAllRecordings(") {
        assert!(call.contains(&format!("meetingOrganizerUserId='{user}'")), "{call}");
        assert!(call.contains("startDateTime=2026-11-01T00:00:00Z"), "{call}");
        return Json(json!({"value": [{
            "id": "REC1", "meetingId": "MSo1MEET", "callId": "c1",
            "contentCorrelationId": "corr-0", "createdDateTime": "2026-11-20T09:00:05Z",
            "endDateTime": "2026-11-20T10:01:44Z",
            "recordingContentUrl": format!("{}/v1.0/users/{user}/onlineMeetings/MSo1MEET/recordings/REC1/content", stub.base()),
            "meetingOrganizer": {"user": {"id": user}}}]}))
        .into_response();
    }
    if call.starts_with("getAllTranscripts(") {
        return Json(json!({"value": [{
            "id": "TR1", "meetingId": "MSo1MEET", "contentCorrelationId": "corr-0",
            "createdDateTime": "2026-11-20T09:00:05Z",
            "transcriptContentUrl": format!("{}/v1.0/users/{user}/onlineMeetings/MSo1MEET/transcripts/TR1/content", stub.base())}]}))
        .into_response();
    }
    graph_error(StatusCode::BAD_REQUEST, "BadRequest", "Unknown function")
}

async fn transcript_content(
    State(stub): State<Stub>,
    headers: HeaderMap,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Response {
    stub.note("transcript", &headers);
    if query.get("$format").map(String::as_str) != Some("text/vtt") {
        return graph_error(StatusCode::BAD_REQUEST, "BadRequest", "Invalid format");
    }
    (
        [(header::CONTENT_TYPE, "text/vtt")],
        "WEBVTT\n\n00:00:03.520 --> 00:00:07.110\n<v Mary Somerville>Good morning, everyone.</v>\n",
    )
        .into_response()
}

async fn throttled(State(stub): State<Stub>, headers: HeaderMap) -> Response {
    stub.note("throttled", &headers);
    let mut response = graph_error(StatusCode::TOO_MANY_REQUESTS, "TooManyRequests", "Please retry after 7 seconds.");
    response.headers_mut().insert(header::RETRY_AFTER, "7".parse().expect("header"));
    response
}

/// `/me/followedSites` over two pages: Science (two libraries) and the Year 7 team's site.
async fn followed_sites(
    State(stub): State<Stub>,
    headers: HeaderMap,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    stub.note("/v1.0/me/followedSites", &headers);
    if !authorised(&headers) {
        return graph_error(StatusCode::UNAUTHORIZED, "InvalidAuthenticationToken", "Access token has expired.");
    }
    if q.contains_key("$skiptoken") {
        return Json(json!({"value": [{"id": SITE_TEAM, "displayName": "Year 7 Team", "name": "year7"}]})).into_response();
    }
    Json(json!({
        "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#sites",
        "value": [{"id": SITE_SCIENCE, "displayName": "Science department", "name": "science",
                   "webUrl": "https://contoso.sharepoint.com/sites/science"}],
        "@odata.nextLink": format!("{}/v1.0/me/followedSites?$skiptoken=p2", stub.base()),
    }))
    .into_response()
}

pub(crate) const SITE_SCIENCE: &str = "contoso.sharepoint.com,2C712604-1370-44E7-A1F5-426573FDA80A,2D2244C3-251A-49EA-93A8-39E1C3A060FE";
pub(crate) const SITE_TEAM: &str = "contoso.sharepoint.com,7F2B1C6E-0D54-4F1A-9C3B-1A2B3C4D5E6F,0A1B2C3D-4E5F-4061-8172-93A4B5C6D7E8";

/// `/sites/{id}/drives`: a site's document libraries.
async fn site_drives(State(stub): State<Stub>, headers: HeaderMap, Path(site): Path<String>) -> Response {
    stub.note(&format!("/v1.0/sites/{site}/drives"), &headers);
    if !authorised(&headers) {
        return graph_error(StatusCode::UNAUTHORIZED, "InvalidAuthenticationToken", "Access token has expired.");
    }
    let drives = match site.as_str() {
        SITE_SCIENCE => json!([
            {"id": "b!science-docs", "name": "Documents", "driveType": "documentLibrary"},
            {"id": "b!science-media", "name": "Lesson media", "driveType": "documentLibrary"}
        ]),
        SITE_TEAM => json!([{"id": "b!team-docs", "name": "Documents", "driveType": "documentLibrary"}]),
        _ => return graph_error(StatusCode::NOT_FOUND, "itemNotFound", "The site was not found."),
    };
    Json(json!({"value": drives})).into_response()
}

/// A stub Graph on loopback: (its `…/v1.0` URL, the stub).
pub(crate) async fn graph_stub() -> (String, Stub) {
    let stub = Stub::default();
    let routes = Router::new()
        .route("/v1.0/me", get(me))
        .route("/v1.0/me/drive/root/children", get(root_children))
        .route("/v1.0/me/followedSites", get(followed_sites))
        .route("/v1.0/sites/{site}/drives", get(site_drives))
        .route("/v1.0/drives/{drive}/items/{id}/content", get(item_content))
        .route("/v1.0/drives/{drive}/items/{id}/children", get(throttled))
        .route("/download.aspx", get(download))
        .route("/v1.0/users/{user}/onlineMeetings/{call}", get(meetings_function))
        .route("/v1.0/users/{user}/onlineMeetings/{meeting}/transcripts/{id}/content", get(transcript_content))
        .route("/v1.0/me/onlineMeetings/{meeting}/transcripts/{id}/content", get(transcript_content))
        .route("/v1.0/me/onlineMeetings/{meeting}/recordings/{id}/content", get(recording_content))
        .with_state(stub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    let base = format!("http://{addr}");
    *stub.base.lock().expect("base") = base.clone();
    (format!("{base}/v1.0"), stub)
}

#[tokio::test]
async fn folders_are_listed_across_pages_and_a_refused_token_says_so() {
    let (url, stub) = graph_stub().await;
    let graph = GraphClient::new(&url).expect("client");
    let items = graph.children(TOKEN, None, None).await.expect("children");
    let names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["Recordings", "Plan.docx", "Lesson 3.mp4"]);
    assert!(items[0].folder.is_some() && items[0].file.is_none());
    assert_eq!(items[2].file.as_ref().and_then(|f| f.mime_type.as_deref()), Some("video/mp4"));
    assert_eq!(items[1].drive_id(), Some("b!drive1"));
    assert_eq!(
        stub.auth_of("/v1.0/me/drive/root/children"),
        Some(Some(format!("Bearer {TOKEN}")))
    );

    let refused = graph.children("expired", None, None).await.expect_err("401");
    assert!(refused.is_unauthorised(), "{refused:?}");
    assert!(!refused.is_transient());
}

#[tokio::test]
async fn followed_sites_and_their_libraries_are_listed() {
    let (url, stub) = graph_stub().await;
    let graph = GraphClient::new(&url).expect("client");
    let sites = graph.followed_sites(TOKEN).await.expect("sites");
    let titles: Vec<&str> = sites.iter().map(|s| s.title()).collect();
    assert_eq!(titles, ["Science department", "Year 7 Team"], "both pages");
    let drives = graph.site_drives(TOKEN, SITE_SCIENCE).await.expect("drives");
    let names: Vec<_> = drives.iter().map(|d| d.name.as_deref().unwrap_or_default()).collect();
    assert_eq!(names, ["Documents", "Lesson media"]);
    assert_eq!(drives[0].id, "b!science-docs");
    assert!(stub.auth_of(&format!("/v1.0/sites/{SITE_SCIENCE}/drives")).is_some());
    // A site id that would leave its path segment is refused before any request.
    assert!(graph.site_drives(TOKEN, "contoso/../me").await.is_err());
}

#[tokio::test]
async fn a_next_link_to_another_host_is_refused() {
    let (url, _stub) = graph_stub().await;
    let graph = GraphClient::new(&url).expect("client");
    // For this token the stub's page links to evil.test: the token must not follow it.
    let err = graph.children(ELSEWHERE, None, None).await.expect_err("refused");
    match err {
        GraphError::Malformed(message) => assert!(message.contains("evil.test"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_download_follows_the_redirect_without_the_token_and_streams() {
    let (url, stub) = graph_stub().await;
    let graph = GraphClient::new(&url).expect("client");
    let download = graph.download_item(TOKEN, Some("b!drive1"), "01C").await.expect("download");
    assert_eq!(download.length, Some(300_000));
    assert_eq!(download.content_type.as_deref(), Some("video/mp4"));
    let chunks: Vec<axum::body::Bytes> = download.body.try_collect().await.expect("body");
    let bytes: Vec<u8> = chunks.concat();
    assert_eq!(bytes.len(), 300_000);
    assert!(bytes.iter().enumerate().all(|(i, b)| *b == (i % 251) as u8), "the bytes as sent");
    assert_eq!(
        stub.auth_of("/v1.0/drives/b!drive1/items/01C/content"),
        Some(Some(format!("Bearer {TOKEN}"))),
        "Graph gets the token"
    );
    assert_eq!(stub.auth_of("/download.aspx"), Some(None), "the pre-authenticated host does not");

    let bad = graph.download_item(TOKEN, Some("b!drive1"), "../../me").await.expect_err("bad id");
    assert!(matches!(bad, GraphError::Malformed(_)), "{bad:?}");
}

#[tokio::test]
async fn meeting_recordings_come_with_their_transcript_as_text() {
    let (url, stub) = graph_stub().await;
    let graph = GraphClient::new(&url).expect("client");
    let me = graph.me(TOKEN).await.expect("me");
    assert_eq!(me, "ba321e0d-79ee-478d-8e28-85a19507f456");
    let from = "2026-11-01T00:00:00Z";
    let to = "2026-11-24T00:00:00Z";
    let recordings = graph.recordings(TOKEN, &me, from, to).await.expect("recordings");
    assert_eq!(recordings.len(), 1);
    assert_eq!(recordings[0].meeting_id, "MSo1MEET");
    let transcripts = graph.transcripts(TOKEN, &me, from, to).await.expect("transcripts");
    assert_eq!(transcripts[0].content_correlation_id, recordings[0].content_correlation_id);
    let vtt = graph.transcript_vtt(TOKEN, &transcripts[0]).await.expect("vtt");
    assert!(vtt.starts_with("WEBVTT"), "{vtt}");
    assert_eq!(
        voicemark::providers::msgraph::vtt_to_text(&vtt),
        "Mary Somerville: Good morning, everyone."
    );
    assert_eq!(stub.auth_of("transcript"), Some(Some(format!("Bearer {TOKEN}"))));
    let err = graph.recordings(TOKEN, &me, "2026-11-01'),x", to).await.expect_err("bad time");
    assert!(matches!(err, GraphError::Malformed(_)));
}

#[tokio::test]
async fn throttling_says_how_long_to_wait() {
    let (url, _stub) = graph_stub().await;
    let graph = GraphClient::new(&url).expect("client");
    let err = graph.children(TOKEN, Some("b!drive1"), Some("01A")).await.expect_err("429");
    assert!(err.is_transient());
    assert_eq!(err.retry_after(), Some(std::time::Duration::from_secs(7)));
    match err {
        GraphError::Api { status, code, message, .. } => {
            assert_eq!((status, code.as_str()), (429, "TooManyRequests"));
            assert_eq!(message, "Please retry after 7 seconds.");
        }
        other => panic!("{other:?}"),
    }
}
