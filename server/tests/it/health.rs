//! `/api/health`, request ids, and what a failure may show.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::get;
use axum::Router;
use voicemark::app::with_layers;
use voicemark::state::AppState;

use crate::dual_test;
use crate::support::send;

dual_test!(
    async fn health_reports_the_database(app: TestApp) {
        let response = app.get("/api/health").await;
        assert_eq!(response.status, StatusCode::OK);
        let body = response.json();
        assert_eq!(body["status"], "ok");
        assert_eq!(body["database"], "ok");
        assert_eq!(body["backend"], app.backend().as_str());
        assert!(body.get("reason").is_none());
    }
);

dual_test!(
    async fn health_is_503_with_a_reason_when_the_database_is_gone(app: TestApp) {
        match &app.db {
            voicemark::db::Db::Postgres(pool) => pool.close(),
            voicemark::db::Db::Sqlite(pool) => pool.close(),
        }
        let response = app.get("/api/health").await;
        assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
        let body = response.json();
        assert_eq!(body["status"], "unavailable");
        assert_eq!(body["database"], "down");
        assert_eq!(body["reason"], "The database is unreachable.");
    }
);

dual_test!(
    async fn every_response_carries_a_request_id(app: TestApp) {
        let fresh = app.get("/api/health").await;
        let id = fresh
            .header("x-request-id")
            .expect("a request id")
            .to_owned();
        assert_eq!(id.len(), 36, "a UUID: {id}");
        let given = app
            .request(
                Request::get("/api/health")
                    .header("x-request-id", "trace-me-42")
                    .body(Body::empty())
                    .expect("request"),
            )
            .await;
        assert_eq!(given.header("x-request-id"), Some("trace-me-42"));
        assert_eq!(fresh.header("x-content-type-options"), Some("nosniff"));
    }
);

dual_test!(
    async fn a_panic_becomes_a_plain_500_without_its_text(app: TestApp) {
        let state: AppState = app.state.clone();
        let routes: Router<AppState> = Router::new().route("/boom", get(boom));
        let router = with_layers(routes).with_state(state);
        let response = send(
            router,
            Request::get("/boom").body(Body::empty()).expect("request"),
        )
        .await;
        assert_eq!(response.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            response.json(),
            serde_json::json!({ "error": "Internal server error" })
        );
        assert!(!response.text().contains("SELECT"));
    }
);

async fn boom() -> &'static str {
    panic!("SELECT password FROM users WHERE secret")
}
