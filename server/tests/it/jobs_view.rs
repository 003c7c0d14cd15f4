//! The background jobs view (`/api/bull`): superadmins only (everyone else 404), counts by
//! kind and state, failed jobs with their error and a masked payload, Retry and Discard
//! behind the same-origin and CSRF checks.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use core_wasm::UserRole;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::json;
use voicemark::db::schema::jobs as jobs_table;
use voicemark::jobs::{self, status, NewJob};
use voicemark::models::now;
use voicemark::with_conn;

use crate::dual_test;
use crate::submissions::staff;
use crate::support::{make_school, TestApp, TestResponse};

pub(crate) async fn queue(app: &TestApp, kind: &str, payload: serde_json::Value, state: &str) -> String {
    let mut pooled = app.db.conn().await.expect("connection");
    let job = NewJob { kind: kind.into(), payload, run_at: now(), idempotency_key: None };
    let id = voicemark::models::jobs::insert(&mut pooled.db(), &job)
        .await
        .expect("enqueue")
        .expect("new");
    let error = (state == status::FAILED).then_some("connection refused (os error 111)");
    with_conn!(pooled.db(), |c| diesel::update(jobs_table::table.find(&id))
        .set((jobs_table::status.eq(state), jobs_table::attempts.eq(5), jobs_table::last_error.eq(error)))
        .execute(c)
        .await)
    .expect("state");
    id
}

async fn page(app: &TestApp, cookie: Option<&str>) -> TestResponse {
    let mut request = Request::get("/api/bull");
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    app.request(request.body(Body::empty()).expect("request")).await
}

/// The page's CSRF token (from its hidden fields) and the cookie pair that vouches for it.
pub(crate) fn csrf_of(response: &TestResponse) -> (String, String) {
    let text = response.text();
    let token = text
        .split("name=\"csrfToken\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a csrf field")
        .to_owned();
    let cookie = response
        .header("set-cookie")
        .expect("a csrf cookie")
        .split(';')
        .next()
        .expect("pair")
        .to_owned();
    (token, cookie)
}

async fn post(app: &TestApp, path: &str, cookie: &str, token: &str, origin: Option<&str>) -> TestResponse {
    let mut request = Request::post(path)
        .header("cookie", cookie)
        .header("content-type", "application/x-www-form-urlencoded");
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    app.request(request.body(Body::from(format!("csrfToken={token}"))).expect("request"))
        .await
}

async fn find(app: &TestApp, id: &str) -> Option<voicemark::jobs::Job> {
    let mut pooled = app.db.conn().await.expect("connection");
    jobs::find(&mut pooled.db(), id).await.expect("find")
}

dual_test!(
    async fn only_a_superadmin_sees_the_jobs_view(app: TestApp) {
        let school = make_school(&app, "Northbridge").await;
        let teacher = staff(&app, Some(&school), UserRole::Teacher, "Tess").await;
        let admin = staff(&app, Some(&school), UserRole::Admin, "Ada").await;
        let sa = staff(&app, None, UserRole::Superadmin, "Sam").await;
        for cookie in [None, Some(teacher.cookie.as_str()), Some(admin.cookie.as_str())] {
            let answer = page(&app, cookie).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{cookie:?}");
            assert!(!answer.text().contains("Background jobs"));
        }
        let failed = queue(&app, "email.feedback", json!({"to": "jane.parent@home.test", "submissionId": "sub-1"}), status::FAILED).await;
        // A teacher's POST is 404 too, whatever it sends.
        let answer = post(&app, &format!("/api/bull/jobs/{failed}/retry"), &teacher.cookie, "x", None).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND);
        assert_eq!(find(&app, &failed).await.expect("job").status, status::FAILED);

        let answer = page(&app, Some(&sa.cookie)).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert!(answer.header("content-type").unwrap_or("").starts_with("text/html"));
        let text = answer.text();
        assert!(text.contains("<title>Background jobs</title>") && text.contains("<h1>Background jobs</h1>"));
        assert!(text.contains("<script src=\"/api/bull/refresh.js\" defer></script>"));
        assert!(text.contains("Refresh every 10 seconds"));
        assert!(!text.contains("<script>"), "no inline script");
        let script = app
            .request(Request::get("/api/bull/refresh.js").header("cookie", &sa.cookie).body(Body::empty()).expect("request"))
            .await;
        assert_eq!(script.status, StatusCode::OK);
        assert!(script.text().contains("location.reload()"));
        assert_eq!(page(&app, None).await.status, StatusCode::NOT_FOUND);
    }
);

dual_test!(
    async fn the_view_counts_jobs_and_lists_the_failed_ones_masked_and_escaped(app: TestApp) {
        let sa = staff(&app, None, UserRole::Superadmin, "Sam").await;
        for _ in 0..3 {
            queue(&app, "email.feedback", json!({}), status::DONE).await;
        }
        queue(&app, "email.feedback", json!({}), status::QUEUED).await;
        queue(&app, "email.feedback", json!({"to": "jane.parent@home.test", "token": "s3cr3t-token", "submissionId": "sub-1"}), status::FAILED).await;
        queue(&app, "notification.send", json!({"notificationId": "<b>n1</b>"}), status::FAILED).await;
        let text = page(&app, Some(&sa.cookie)).await.text();
        assert!(
            text.contains("<tr><th scope=\"row\">email.feedback</th><td>1</td><td>0</td><td>3</td><td>1</td></tr>"),
            "{text}"
        );
        assert!(text.contains("<tr><th scope=\"row\">notification.send</th><td>0</td><td>0</td><td>0</td><td>1</td></tr>"));
        assert!(text.contains("connection refused (os error 111)"));
        assert!(text.contains("5 of 5"));
        assert!(text.contains("to: j•••@home.test"), "{text}");
        assert!(text.contains("submissionId: sub-1"));
        assert!(!text.contains("jane.parent") && !text.contains("s3cr3t-token"));
        assert!(text.contains("notificationId: &lt;b&gt;n1&lt;/b&gt;") && !text.contains("<b>n1"));
        let today = core_wasm::dates::format_date(now());
        assert!(text.contains(&format!("<td>{today}, ")), "{text}");
        assert_eq!(text.matches(">Retry</button>").count(), 2);
        assert_eq!(text.matches(">Discard</button>").count(), 2);
    }
);

dual_test!(
    async fn retry_and_discard_need_the_same_origin_and_the_csrf_token(app: TestApp) {
        let sa = staff(&app, None, UserRole::Superadmin, "Sam").await;
        let first = queue(&app, "email.feedback", json!({"to": "a@b.test"}), status::FAILED).await;
        let second = queue(&app, "email.feedback", json!({"to": "c@d.test"}), status::FAILED).await;
        let done = queue(&app, "email.feedback", json!({}), status::DONE).await;
        let shown = page(&app, Some(&sa.cookie)).await;
        let (token, csrf_cookie) = csrf_of(&shown);
        let cookies = format!("{}; {csrf_cookie}", sa.cookie);
        let retry = format!("/api/bull/jobs/{first}/retry");

        // No CSRF cookie, a wrong token, another site: refused, nothing changes.
        assert_eq!(post(&app, &retry, &sa.cookie, &token, None).await.status, StatusCode::FORBIDDEN);
        assert_eq!(post(&app, &retry, &cookies, "forged", None).await.status, StatusCode::FORBIDDEN);
        let cross = post(&app, &retry, &cookies, &token, Some("https://evil.example")).await;
        assert_eq!(cross.status, StatusCode::FORBIDDEN);
        assert_eq!(find(&app, &first).await.expect("job").status, status::FAILED);

        // Retry: ready to run again, attempts reset; back to the page.
        let answer = post(&app, &retry, &cookies, &token, Some("http://127.0.0.1:3000")).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.text());
        assert!(answer.header("location").unwrap_or("").ends_with("/api/bull"));
        let job = find(&app, &first).await.expect("job");
        assert_eq!(job.status, status::QUEUED);
        assert_eq!(job.attempts, 0);
        assert!(job.run_at <= now());
        let mut pooled = app.db.conn().await.expect("connection");
        let claimed = jobs::claim(&mut pooled.db(), "w", std::time::Duration::from_secs(60))
            .await
            .expect("claim")
            .expect("ready");
        assert_eq!(claimed.id, first);
        drop(pooled);

        // Discard: gone. A job that is not failed cannot be retried or discarded.
        let answer = post(&app, &format!("/api/bull/jobs/{second}/discard"), &cookies, &token, None).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER);
        assert!(find(&app, &second).await.is_none());
        for action in ["retry", "discard"] {
            let answer = post(&app, &format!("/api/bull/jobs/{done}/{action}"), &cookies, &token, None).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND);
        }
        assert_eq!(find(&app, &done).await.expect("job").status, status::DONE);
        let text = page(&app, Some(&cookies)).await.text();
        assert!(text.contains("No failed jobs."));
    }
);
