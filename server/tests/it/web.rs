//! The embedded web app: deep links load it, unknown API paths are JSON 404s.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::dual_test;

fn app_is_built() -> bool {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../app/dist/index.html")
        .exists()
}

dual_test!(
    async fn unknown_api_paths_answer_404_json(app: TestApp) {
        // Unknown procedures under /api/trpc answer in tRPC's own envelope (tests/it/rpc.rs
        // and tests/it/http_headers.rs).
        for path in ["/api/nope", "/api/"] {
            let response = app.get(path).await;
            assert_eq!(response.status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(
                response.header("content-type"),
                Some("application/json"),
                "{path}"
            );
            assert_eq!(
                response.json(),
                serde_json::json!({ "error": "Not found" }),
                "{path}"
            );
        }
        let post = app
            .request(
                Request::post("/api/nope")
                    .body(Body::empty())
                    .expect("request"),
            )
            .await;
        assert_eq!(post.status, StatusCode::NOT_FOUND);
    }
);

dual_test!(
    async fn deep_links_load_the_app(app: TestApp) {
        for path in [
            "/",
            "/students/abc",
            "/notifications/123/details",
            "/login?callbackUrl=%2F",
        ] {
            let response = app.get(path).await;
            if app_is_built() {
                assert_eq!(response.status, StatusCode::OK, "{path}");
                assert!(
                    response
                        .header("content-type")
                        .is_some_and(|t| t.starts_with("text/html")),
                    "{path}"
                );
                assert!(
                    response.text().contains("<div id=\"root\">"),
                    "{path}: {}",
                    response.text()
                );
                assert_eq!(response.header("cache-control"), Some("no-cache"));
            } else {
                assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
                assert!(response.text().contains("not built"), "{path}");
            }
        }
    }
);

dual_test!(
    async fn missing_files_are_404_not_the_app(app: TestApp) {
        let response = app.get("/assets/missing-1234.js").await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
        let response = app.get("/favicon-missing.png").await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
    }
);
