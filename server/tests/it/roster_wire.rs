//! The roster on the wire (issue 15, `rpc::wire`): an answer made only of shared parts has a
//! weak ETag and `If-None-Match` gets 304 with no body; a change gives a new ETag; the gzip
//! answer, put together from parts compressed once, decodes to exactly the plain answer, in
//! a batch with a call encoded for the request too; answers of other calls keep `no-store`.

use std::io::Read;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use voicemark::models::students;

use crate::dual_test;
use crate::roster_cache::{two_schools, TwoSchools};
use crate::sending::{make_pupil, make_school, make_teacher, simple};
use crate::support::{session_cookie, TestApp, TestResponse};

const ROSTER: &str = "/api/trpc/school.listStudents";
const ROSTER_AND_COUNT: &str = "/api/trpc/school.listStudents,user.feedbackHubCount?batch=1&input=%7B%7D";

async fn get(app: &TestApp, path: &str, cookie: &str, headers: &[(header::HeaderName, &str)]) -> TestResponse {
    let mut request = Request::get(path).header(header::COOKIE, cookie);
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    app.request(request.body(Body::empty()).expect("request")).await
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut plain).expect("one valid gzip member");
    plain
}

/// Asks with gzip: a shared answer is compressed on every read, its first too (deflated
/// quickly for that read while its best form is made in the background).
async fn gzipped(app: &TestApp, path: &str, cookie: &str) -> TestResponse {
    let answer = get(app, path, cookie, &[(header::ACCEPT_ENCODING, "gzip, deflate, br")]).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.header("content-encoding"), Some("gzip"));
    answer
}

dual_test! {
    async fn a_browser_that_has_the_roster_gets_304_and_gzip_is_the_same_text(app: TestApp) {
        let TwoSchools { school, cookie, outsider } = two_schools(&app, "Wire School").await;
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        for i in 0..300 {
            make_pupil(&mut conn, &school, simple(&format!("Pupil{i:03}"), "Wire")).await;
        }
        drop(conn);
        drop(pooled);

        let first = get(&app, ROSTER, &cookie, &[]).await;
        assert_eq!(first.status, StatusCode::OK, "{}", first.text());
        assert_eq!(first.json()["result"]["data"]["json"].as_array().map(Vec::len), Some(300));
        let etag = first.header("etag").expect("an ETag").to_owned();
        assert!(etag.starts_with("W/\""), "{etag}");
        assert_eq!(first.header("cache-control"), Some("private, no-cache"));
        assert!(first.header("vary").is_some_and(|v| v.contains("accept-encoding")));

        let again = get(&app, ROSTER, &cookie, &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        assert!(again.body.is_empty(), "a 304 has no body");
        assert_eq!(again.header("etag"), Some(etag.as_str()));

        // Another school's roster is another text: its own ETag, never a 304 for this one.
        let elsewhere = get(&app, ROSTER, &outsider, &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(elsewhere.status, StatusCode::OK);
        assert_eq!(elsewhere.json()["result"]["data"]["json"][0]["forename"], "Zed");

        // The gzip answer is the plain answer, byte for byte, and far smaller (the first
        // read's quick form: a quarter at 300 pupils, a tenth at 2,000).
        let zipped = gzipped(&app, ROSTER, &cookie).await;
        assert_eq!(gunzip(&zipped.body), first.body);
        assert!(zipped.body.len() * 3 < first.body.len(), "{} of {} bytes", zipped.body.len(), first.body.len());
        assert_eq!(zipped.header("etag"), Some(etag.as_str()));

        // In a batch with a call encoded for this request: compressed together, no ETag.
        let plain_batch = get(&app, ROSTER_AND_COUNT, &cookie, &[]).await;
        assert_eq!(plain_batch.status, StatusCode::OK, "{}", plain_batch.text());
        assert_eq!(plain_batch.json()[1]["result"]["data"]["json"], 0);
        assert_eq!(plain_batch.header("etag"), None);
        let zipped_batch = gzipped(&app, ROSTER_AND_COUNT, &cookie).await;
        assert_eq!(gunzip(&zipped_batch.body), plain_batch.body);
        assert_eq!(zipped_batch.header("etag"), None);
        assert_eq!(zipped_batch.header("cache-control"), Some("no-store"));

        // A call encoded for the request alone keeps the default: not kept, no ETag.
        let count = get(&app, "/api/trpc/user.feedbackHubCount", &cookie, &[(header::ACCEPT_ENCODING, "gzip")]).await;
        assert_eq!(count.header("etag"), None);
        assert_eq!(count.header("cache-control"), Some("no-store"));

        // A change: the old ETag no longer matches, and the answer has the new pupil.
        let mut pooled = app.db.conn().await.expect("connection");
        make_pupil(&mut pooled.db(), &school, simple("Newcomer", "Wire")).await;
        drop(pooled);
        let changed = get(&app, ROSTER, &cookie, &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(changed.status, StatusCode::OK);
        assert_ne!(changed.header("etag"), Some(etag.as_str()));
        assert_eq!(changed.json()["result"]["data"]["json"].as_array().map(Vec::len), Some(301));
        assert!(changed.text().contains("Newcomer"));
    }
}

dual_test! {
    async fn requests_that_miss_together_all_get_the_roster(app: TestApp) {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = make_school(&mut conn, "Crowd School").await;
        let teacher = make_teacher(&mut conn, &school).await;
        for i in 0..50 {
            make_pupil(&mut conn, &school, simple(&format!("Crowd{i:02}"), "Pupil")).await;
        }
        drop(conn);
        drop(pooled);
        let cookie = session_cookie(&app, &teacher).await;
        students::forget_rosters();
        let answers = futures_util::future::join_all((0..40).map(|_| get(&app, ROSTER, &cookie, &[]))).await;
        let first = &answers[0].body;
        for answer in &answers {
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
            assert_eq!(&answer.body, first);
        }
        let json: serde_json::Value = serde_json::from_slice(first).expect("JSON");
        assert_eq!(json["result"]["data"]["json"].as_array().map(Vec::len), Some(50));
    }
}
