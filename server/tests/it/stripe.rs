//! Plans and Stripe (docs/billing.md), through the real router: a stub Stripe server on
//! loopback that checks the Bearer key and the form-encoded bodies and answers Stripe-shaped
//! objects and error objects; `POST /api/stripe/webhook` with the reference's signature
//! vector (stripe.md §4.1) and self-signed events; the `stripe.event` job applying them.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use core_wasm::UserRole;
use serde_json::{json, Value};
use voicemark::app::router;
use voicemark::config::StripeConfig;
use voicemark::models::billing;
use voicemark::providers::stripe::sign;
use voicemark::state::AppState;

use crate::dual_test;
use crate::sending::drain;
use crate::support::{make_school, send, session_cookie, TestApp, TestResponse};

const KEY: &str = "sk_test_stub_0123456789";
const SECRET: &str = "whsec_5f3c9b2e7a1d4e8f9a0b1c2d3e4f5a6b";
const OLD_SECRET: &str = "whsec_old_rotated_away_0000000000";
const PRO: &str = "prod_PRO";
const BASIC: &str = "prod_BASIC";
/// The reference's verified vector (stripe.md §4.1).
const VECTOR_PAYLOAD: &str =
    r#"{"id":"evt_1PZz","object":"event","type":"customer.subscription.updated"}"#;
const VECTOR_HEADER: &str =
    "t=1717000000,v1=547e98a45e0778c353e9cd8b0f6b07f5d9c2fa2d9762540bc08f253ab394d5c2";

// ---------------------------------------------------------------------------------------
// The stub Stripe server

#[derive(Clone, Default)]
struct Stub {
    /// (method + path, form fields) of every request that passed the checks.
    calls: Arc<Mutex<Vec<(String, Vec<(String, String)>)>>>,
    /// The subscription `GET /v1/subscriptions/{id}` answers.
    subscription: Arc<Mutex<Value>>,
}

impl Stub {
    fn calls_to(&self, path: &str) -> Vec<Vec<(String, String)>> {
        self.calls
            .lock()
            .expect("calls")
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, f)| f.clone())
            .collect()
    }
}

fn field<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn stripe_error(status: StatusCode, kind: &str, code: &str, message: &str, param: &str) -> Response {
    (
        status,
        Json(json!({"error": {"type": kind, "code": code, "message": message, "param": param,
            "doc_url": format!("https://stripe.com/docs/error-codes/{code}")}})),
    )
        .into_response()
}

/// The checks every request goes through: the Bearer key, a form body on POST, an
/// `Idempotency-Key` on POST. `Err` is Stripe's answer.
fn check(headers: &HeaderMap, post: bool, body: &[u8]) -> Result<Vec<(String, String)>, Response> {
    let auth = headers.get("authorization").and_then(|v| v.to_str().ok());
    if auth != Some(&format!("Bearer {KEY}")) {
        return Err(stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            "api_key_invalid",
            "Invalid API Key provided: sk_test_****",
            "",
        ));
    }
    if !post {
        return Ok(Vec::new());
    }
    let content_type = headers.get("content-type").and_then(|v| v.to_str().ok());
    if content_type != Some("application/x-www-form-urlencoded") {
        return Err(stripe_error(StatusCode::BAD_REQUEST, "invalid_request_error", "parameter_invalid", "Form bodies only", ""));
    }
    if headers.get("idempotency-key").is_none() {
        return Err(stripe_error(StatusCode::BAD_REQUEST, "invalid_request_error", "idempotency_key_missing", "No Idempotency-Key", ""));
    }
    Ok(url::form_urlencoded::parse(body).into_owned().collect())
}

fn missing(param: &str) -> Response {
    stripe_error(
        StatusCode::BAD_REQUEST,
        "invalid_request_error",
        "parameter_missing",
        &format!("Missing required param: {param}."),
        param,
    )
}

async fn customers(State(stub): State<Stub>, headers: HeaderMap, body: Bytes) -> Response {
    let form = match check(&headers, true, &body) {
        Ok(form) => form,
        Err(answer) => return answer,
    };
    for required in ["email", "name", "metadata[school_id]"] {
        if field(&form, required).is_none() {
            return missing(required);
        }
    }
    let n = stub.calls_to("POST /v1/customers").len();
    stub.calls.lock().expect("calls").push(("POST /v1/customers".into(), form.clone()));
    Json(json!({"id": format!("cus_stub{n}"), "object": "customer", "livemode": false,
        "created": 1717000000, "email": field(&form, "email"), "name": field(&form, "name"),
        "metadata": {"school_id": field(&form, "metadata[school_id]")}}))
    .into_response()
}

async fn customer_sessions(State(stub): State<Stub>, headers: HeaderMap, body: Bytes) -> Response {
    let form = match check(&headers, true, &body) {
        Ok(form) => form,
        Err(answer) => return answer,
    };
    let Some(customer) = field(&form, "customer").map(str::to_owned) else {
        return missing("customer");
    };
    if field(&form, "components[pricing_table][enabled]") != Some("true") {
        return missing("components");
    }
    if customer == "cus_missing" {
        return stripe_error(StatusCode::BAD_REQUEST, "invalid_request_error", "resource_missing",
            "No such customer: 'cus_missing'", "customer");
    }
    stub.calls.lock().expect("calls").push(("POST /v1/customer_sessions".into(), form));
    Json(json!({"object": "customer_session", "client_secret": format!("cuss_secret_{customer}"),
        "components": {"pricing_table": {"enabled": true}}, "created": 1717000000,
        "customer": customer, "expires_at": 1717001800, "livemode": false}))
    .into_response()
}

async fn portal_sessions(State(stub): State<Stub>, headers: HeaderMap, body: Bytes) -> Response {
    let form = match check(&headers, true, &body) {
        Ok(form) => form,
        Err(answer) => return answer,
    };
    for required in ["customer", "return_url"] {
        if field(&form, required).is_none() {
            return missing(required);
        }
    }
    stub.calls.lock().expect("calls").push(("POST /v1/billing_portal/sessions".into(), form.clone()));
    Json(json!({"id": "bps_1", "object": "billing_portal.session", "customer": field(&form, "customer"),
        "livemode": false, "return_url": field(&form, "return_url"),
        "url": "https://billing.stripe.com/p/session/test_YWNj"}))
    .into_response()
}

async fn subscription(State(stub): State<Stub>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if let Err(answer) = check(&headers, false, &[]) {
        return answer;
    }
    let sub = stub.subscription.lock().expect("sub").clone();
    if sub["id"] != json!(id) {
        return stripe_error(StatusCode::NOT_FOUND, "invalid_request_error", "resource_missing",
            &format!("No such subscription: '{id}'"), "id");
    }
    stub.calls.lock().expect("calls").push((format!("GET /v1/subscriptions/{id}"), Vec::new()));
    Json(sub).into_response()
}

async fn stripe_stub() -> (String, Stub) {
    let stub = Stub::default();
    let routes = Router::new()
        .route("/v1/customers", post(customers))
        .route("/v1/customer_sessions", post(customer_sessions))
        .route("/v1/billing_portal/sessions", post(portal_sessions))
        .route("/v1/subscriptions/{id}", get(subscription))
        .with_state(stub.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    (format!("http://{addr}"), stub)
}

// ---------------------------------------------------------------------------------------
// The app under test

fn stripe_config(api_url: &str, key: &str) -> StripeConfig {
    StripeConfig {
        secret_key: key.into(),
        publishable_key: Some("pk_test_stub".into()),
        pricing_table_id: Some("prctbl_stub".into()),
        webhook_secrets: vec![OLD_SECRET.into(), SECRET.into()],
        api_url: api_url.into(),
        pricing_table_script_url: "http://127.0.0.1:9/pricing-table.js".into(),
    }
}

/// The app's state with billing pointed at `api_url` (`None`: billing off).
fn state_with(app: &TestApp, stripe: Option<StripeConfig>) -> AppState {
    let mut config = (*app.state.config).clone();
    config.stripe = stripe;
    config.products.pro = Some(PRO.into());
    config.products.basic = Some(BASIC.into());
    AppState::new(app.db.clone(), config).expect("state")
}

/// A signed-in user of `role` in a new school: (school id, cookie).
async fn member(app: &TestApp, role: UserRole) -> (String, String) {
    let school = make_school(app, "Billing School").await;
    let id = crate::support::make_user(app, Some(&school), role, "Ada", "Admin").await;
    crate::support::set_flags(app, &id, true, false).await;
    (school, session_cookie(app, &id).await)
}

async fn mutate(routes: &Router, path: &str, input: Value, cookie: &str) -> TestResponse {
    let body = json!({"0": {"json": input}}).to_string();
    let request = Request::post(format!("/api/trpc/{path}?batch=1"))
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(Body::from(body))
        .expect("request");
    send(routes.clone(), request).await
}

fn data(response: &TestResponse) -> Value {
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    response.json()[0]["result"]["data"]["json"].clone()
}

fn error(response: &TestResponse) -> (String, String) {
    let error = &response.json()[0]["error"]["json"];
    (
        error["data"]["code"].as_str().unwrap_or_default().to_owned(),
        error["message"].as_str().unwrap_or_default().to_owned(),
    )
}

async fn webhook(routes: &Router, body: &str, signature: Option<&str>) -> TestResponse {
    let mut request = Request::post("/api/stripe/webhook").header("content-type", "application/json");
    if let Some(signature) = signature {
        request = request.header("stripe-signature", signature);
    }
    send(routes.clone(), request.body(Body::from(body.to_owned())).expect("request")).await
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Sends `body` signed now with `SECRET`; asserts the 200.
async fn deliver(routes: &Router, body: &str) {
    let response = webhook(routes, body, Some(&sign(body.as_bytes(), SECRET, unix_now()))).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
}

fn subscription_object(id: &str, customer: &str, status: &str, product: &str, quantity: i64) -> Value {
    json!({"id": id, "object": "subscription", "customer": customer, "status": status,
        "cancel_at_period_end": false, "metadata": {},
        "items": {"object": "list", "data": [{"id": "si_1", "object": "subscription_item",
            "quantity": quantity, "price": {"id": "price_seat", "object": "price", "product": product,
            "unit_amount": 300, "currency": "gbp", "recurring": {"interval": "month"}}}],
            "has_more": false, "url": "/v1/subscription_items"}})
}

fn event(id: &str, kind: &str, created: i64, object: Value) -> String {
    json!({"id": id, "object": "event", "api_version": "2025-03-31.basil", "created": created,
        "type": kind, "livemode": false, "pending_webhooks": 1,
        "request": {"id": "req_1", "idempotency_key": null}, "data": {"object": object}})
    .to_string()
}

async fn subscription_of(app: &TestApp, school: &str) -> billing::SubscriptionColumns {
    let mut pooled = app.db.conn().await.expect("connection");
    billing::subscription_of(&mut pooled.db(), school).await.expect("query").expect("school")
}

async fn set_customer(app: &TestApp, school: &str, customer: &str) {
    let mut pooled = app.db.conn().await.expect("connection");
    billing::set_customer_if_absent(&mut pooled.db(), school, customer).await.expect("customer");
}

async fn count_events(app: &TestApp) -> usize {
    let mut pooled = app.db.conn().await.expect("connection");
    let mut n = 0;
    for id in ["evt_1PZz", "evt_ok", "evt_rot", "evt_multi", "evt_replay", "evt_tampered"] {
        n += usize::from(billing::find_event(&mut pooled.db(), id).await.expect("q").is_some());
    }
    n
}

// ---------------------------------------------------------------------------------------
// Webhook signatures

dual_test!(
    async fn the_webhook_verifies_signatures_before_anything_else(app: TestApp) {
        let state = state_with(&app, Some(stripe_config("http://127.0.0.1:9", KEY)));
        let routes = router(state.clone());
        // The reference vector: correct, but older than 300 s now ("outside the tolerance zone").
        let old = webhook(&routes, VECTOR_PAYLOAD, Some(VECTOR_HEADER)).await;
        assert_eq!(old.status, StatusCode::BAD_REQUEST);
        assert_eq!(old.text(), "Bad request", "nothing about why");
        // The same payload signed now verifies and is stored.
        let t = unix_now();
        let ok = json!({"id": "evt_ok", "object": "event", "type": "invoice.paid", "created": t}).to_string();
        deliver(&routes, &ok).await;
        // A tampered body: the signature of the original does not fit.
        let original = json!({"id": "evt_tampered", "object": "event", "type": "invoice.paid", "created": t}).to_string();
        let header = sign(original.as_bytes(), SECRET, t);
        let tampered = original.replace("invoice.paid", "invoice.paie");
        assert_eq!(webhook(&routes, &tampered, Some(&header)).await.status, StatusCode::BAD_REQUEST);
        // No header, a wrong secret, a future-only v0 scheme: refused.
        assert_eq!(webhook(&routes, &original, None).await.status, StatusCode::BAD_REQUEST);
        let wrong = sign(original.as_bytes(), "whsec_someone_else", t);
        assert_eq!(webhook(&routes, &original, Some(&wrong)).await.status, StatusCode::BAD_REQUEST);
        let v0 = sign(original.as_bytes(), SECRET, t).replace("v1=", "v0=");
        assert_eq!(webhook(&routes, &original, Some(&v0)).await.status, StatusCode::BAD_REQUEST);
        // Rotated secrets: the old one still verifies while both are configured.
        let rotated = json!({"id": "evt_rot", "object": "event", "type": "invoice.paid", "created": t}).to_string();
        let header = sign(rotated.as_bytes(), OLD_SECRET, t);
        assert_eq!(webhook(&routes, &rotated, Some(&header)).await.status, StatusCode::OK);
        // Several v1 entries: one matching is enough.
        let multi = json!({"id": "evt_multi", "object": "event", "type": "invoice.paid", "created": t}).to_string();
        let good = sign(multi.as_bytes(), SECRET, t);
        let good_v1 = good.split(",v1=").nth(1).expect("v1");
        let header = format!("t={t},v1={},v1={good_v1},v0=abc", "0".repeat(64));
        assert_eq!(webhook(&routes, &multi, Some(&header)).await.status, StatusCode::OK);
        // A signed body that is not an event: refused, not a 500.
        let junk = "[1,2,3]";
        let header = sign(junk.as_bytes(), SECRET, t);
        assert_eq!(webhook(&routes, junk, Some(&header)).await.status, StatusCode::BAD_REQUEST);
        assert_eq!(count_events(&app).await, 3, "evt_ok, evt_rot, evt_multi");
        // Billing off: every event refused.
        let off = router(state_with(&app, None));
        let header = sign(ok.as_bytes(), SECRET, unix_now());
        assert_eq!(webhook(&off, &ok, Some(&header)).await.status, StatusCode::BAD_REQUEST);
    }
);

// ---------------------------------------------------------------------------------------
// Subscription events

dual_test!(
    async fn subscription_events_set_product_and_seats_once_and_in_order(app: TestApp) {
        let state = state_with(&app, Some(stripe_config("http://127.0.0.1:9", KEY)));
        let routes = router(state.clone());
        let (school, _) = member(&app, UserRole::Admin).await;
        set_customer(&app, &school, "cus_A").await;
        let t = unix_now() - 100;
        let created = event("evt_c", "customer.subscription.created", t,
            subscription_object("sub_A", "cus_A", "active", PRO, 10));
        deliver(&routes, &created).await;
        // Replayed: answered 200, stored and applied once.
        deliver(&routes, &created).await;
        assert_eq!(drain(&state).await, 1, "one job for a replayed event");
        let (customer, sub, product, seats, at) = subscription_of(&app, &school).await;
        assert_eq!(customer.as_deref(), Some("cus_A"));
        assert_eq!(sub.as_deref(), Some("sub_A"));
        assert_eq!(product.as_deref(), Some(PRO));
        assert_eq!(seats, Some(10));
        assert_eq!(at.map(|a| a.and_utc().timestamp()), Some(t));

        // Seats change to 35 at t+20; then an older update (t+10, 12 seats) arrives late.
        deliver(&routes, &event("evt_u2", "customer.subscription.updated", t + 20,
            subscription_object("sub_A", "cus_A", "active", PRO, 35))).await;
        deliver(&routes, &event("evt_u1", "customer.subscription.updated", t + 10,
            subscription_object("sub_A", "cus_A", "active", PRO, 12))).await;
        assert_eq!(drain(&state).await, 2);
        let (_, _, product, seats, _) = subscription_of(&app, &school).await;
        assert_eq!((product.as_deref(), seats), (Some(PRO), Some(35)), "the late, older event changed nothing");

        // A payment that failed for good: Basic, the subscription kept.
        deliver(&routes, &event("evt_u3", "customer.subscription.updated", t + 30,
            subscription_object("sub_A", "cus_A", "unpaid", PRO, 35))).await;
        drain(&state).await;
        let (_, sub, product, _, _) = subscription_of(&app, &school).await;
        assert_eq!((sub.as_deref(), product), (Some("sub_A"), None));

        // Deleted: back to Basic, no subscription, no seats; the customer stays.
        deliver(&routes, &event("evt_d", "customer.subscription.deleted", t + 40,
            subscription_object("sub_A", "cus_A", "canceled", PRO, 35))).await;
        drain(&state).await;
        let (customer, sub, product, seats, _) = subscription_of(&app, &school).await;
        assert_eq!(customer.as_deref(), Some("cus_A"));
        assert_eq!((sub, product, seats), (None, None, None));
        let mut pooled = app.db.conn().await.expect("connection");
        let stored = billing::find_event(&mut pooled.db(), "evt_d").await.expect("q").expect("stored");
        assert!(stored.processed_at.is_some());
        assert_eq!(stored.kind, "customer.subscription.deleted");
    }
);

dual_test!(
    async fn two_events_of_one_second_apply_stripes_current_state(app: TestApp) {
        let (api, stub) = stripe_stub().await;
        let state = state_with(&app, Some(stripe_config(&api, KEY)));
        let routes = router(state.clone());
        let (school, _) = member(&app, UserRole::Admin).await;
        set_customer(&app, &school, "cus_S").await;
        // Stripe's subscription now has 20 seats; both events carry the same `created`,
        // and the older one (12 seats) arrives last.
        *stub.subscription.lock().expect("sub") =
            subscription_object("sub_S", "cus_S", "active", PRO, 20);
        let t = unix_now() - 50;
        deliver(&routes, &event("evt_s2", "customer.subscription.updated", t,
            subscription_object("sub_S", "cus_S", "active", PRO, 20))).await;
        assert_eq!(drain(&state).await, 1);
        assert!(stub.calls_to("GET /v1/subscriptions/sub_S").is_empty(), "a newer second needs no read");
        deliver(&routes, &event("evt_s1", "customer.subscription.updated", t,
            subscription_object("sub_S", "cus_S", "active", PRO, 12))).await;
        assert_eq!(drain(&state).await, 1);
        assert_eq!(stub.calls_to("GET /v1/subscriptions/sub_S").len(), 1, "the tie is read back");
        let (_, _, product, seats, _) = subscription_of(&app, &school).await;
        assert_eq!((product.as_deref(), seats), (Some(PRO), Some(20)), "Stripe's state, not arrival order");
    }
);

dual_test!(
    async fn a_completed_checkout_links_the_school_and_reads_the_subscription(app: TestApp) {
        let (api, stub) = stripe_stub().await;
        let state = state_with(&app, Some(stripe_config(&api, KEY)));
        let routes = router(state.clone());
        let (school, _) = member(&app, UserRole::Admin).await;
        *stub.subscription.lock().expect("sub") =
            subscription_object("sub_B", "cus_B", "trialing", PRO, 7);
        let session = json!({"id": "cs_test_1", "object": "checkout.session", "mode": "subscription",
            "status": "complete", "payment_status": "paid", "client_reference_id": school,
            "customer": "cus_B", "subscription": "sub_B"});
        deliver(&routes, &event("evt_cs", "checkout.session.completed", unix_now(), session)).await;
        assert_eq!(drain(&state).await, 1);
        assert_eq!(stub.calls_to("GET /v1/subscriptions/sub_B").len(), 1, "read back with the Bearer key");
        let (customer, sub, product, seats, _) = subscription_of(&app, &school).await;
        assert_eq!(customer.as_deref(), Some("cus_B"));
        assert_eq!(sub.as_deref(), Some("sub_B"));
        assert_eq!((product.as_deref(), seats), (Some(PRO), Some(7)));
    }
);

// ---------------------------------------------------------------------------------------
// Procedures

dual_test!(
    async fn an_admin_gets_a_customer_session_and_the_customer_is_made_once(app: TestApp) {
        let (api, stub) = stripe_stub().await;
        let routes = router(state_with(&app, Some(stripe_config(&api, KEY))));
        let (school, cookie) = member(&app, UserRole::Admin).await;
        let first = data(&mutate(&routes, "leader.createCustomerSession", Value::Null, &cookie).await);
        assert_eq!(first, json!({"clientSecret": "cuss_secret_cus_stub0", "clientReferenceId": school}));
        let again = data(&mutate(&routes, "leader.createCustomerSession", Value::Null, &cookie).await);
        assert_eq!(again, first);
        let customers = stub.calls_to("POST /v1/customers");
        assert_eq!(customers.len(), 1, "the customer is created on first use only");
        assert_eq!(field(&customers[0], "name"), Some("Billing School"));
        assert_eq!(field(&customers[0], "metadata[school_id]"), Some(school.as_str()));
        assert!(field(&customers[0], "email").is_some_and(|e| e.ends_with("@school.test")));
        assert_eq!(stub.calls_to("POST /v1/customer_sessions").len(), 2);
        let (customer, ..) = subscription_of(&app, &school).await;
        assert_eq!(customer.as_deref(), Some("cus_stub0"));

        // A teacher may not buy for the school.
        let (_, teacher) = member(&app, UserRole::Teacher).await;
        let (code, _) = error(&mutate(&routes, "leader.createCustomerSession", Value::Null, &teacher).await);
        assert_eq!(code, "FORBIDDEN");

        // Stripe's error objects become sentences.
        let (other, other_cookie) = member(&app, UserRole::Admin).await;
        set_customer(&app, &other, "cus_missing").await;
        let response = mutate(&routes, "leader.createCustomerSession", Value::Null, &other_cookie).await;
        assert_eq!(
            error(&response),
            ("SERVICE_UNAVAILABLE".into(), "The payment provider refused the request: No such customer: 'cus_missing'".into())
        );
        let wrong_key = router(state_with(&app, Some(stripe_config(&api, "sk_test_wrong"))));
        let (code, message) = error(&mutate(&wrong_key, "leader.createCustomerSession", Value::Null, &cookie).await);
        assert_eq!(code, "PRECONDITION_FAILED");
        assert!(message.starts_with("Card payments are not working just now"), "{message}");
        assert!(!message.contains("VOICEMARK_"), "{message}");
    }
);

dual_test!(
    async fn manage_subscription_opens_the_school_customers_portal(app: TestApp) {
        let (api, stub) = stripe_stub().await;
        let routes = router(state_with(&app, Some(stripe_config(&api, KEY))));
        let (school, cookie) = member(&app, UserRole::Admin).await;
        let input = json!({"returnPath": "/leaders/tasks"});
        let (code, message) = error(&mutate(&routes, "user.createBillingPortalSession", input.clone(), &cookie).await);
        assert_eq!(code, "PRECONDITION_FAILED");
        assert!(message.contains("Upgrade to Pro"), "{message}");
        set_customer(&app, &school, "cus_P").await;
        let answer = data(&mutate(&routes, "user.createBillingPortalSession", input, &cookie).await);
        assert_eq!(answer, json!({"url": "https://billing.stripe.com/p/session/test_YWNj"}));
        let calls = stub.calls_to("POST /v1/billing_portal/sessions");
        assert_eq!(field(&calls[0], "customer"), Some("cus_P"));
        let public = app.state.config.public_url.trim_end_matches('/').to_owned();
        assert_eq!(field(&calls[0], "return_url"), Some(format!("{public}/leaders/tasks").as_str()));
        for bad in ["https://evil.example/", "//evil.example/x", "leaders"] {
            let response = mutate(&routes, "user.createBillingPortalSession", json!({"returnPath": bad}), &cookie).await;
            assert_eq!(error(&response).0, "BAD_REQUEST", "{bad}");
        }
        let (_, teacher) = member(&app, UserRole::Teacher).await;
        let response = mutate(&routes, "user.createBillingPortalSession", json!({"returnPath": "/"}), &teacher).await;
        assert_eq!(error(&response).0, "FORBIDDEN");
    }
);

dual_test!(
    async fn billing_off_says_so_in_plain_words_and_features_say_it(app: TestApp) {
        let off = router(state_with(&app, None));
        let (_, cookie) = member(&app, UserRole::Admin).await;
        for (path, input) in [
            ("leader.createCustomerSession", Value::Null),
            ("user.createBillingPortalSession", json!({"returnPath": "/leaders/tasks"})),
        ] {
            let response = mutate(&off, path, input, &cookie).await;
            assert_eq!(response.status, StatusCode::PRECONDITION_FAILED, "{path}");
            let (code, message) = error(&response);
            assert_eq!(code, "PRECONDITION_FAILED");
            assert!(message.starts_with("Card payments are not switched on yet."), "{message}");
            assert!(!message.contains("VOICEMARK_"), "staff never read a setting name: {message}");
        }
        let features = |routes: Router| {
            let request = Request::get("/api/trpc/system.features").header("cookie", &cookie).body(Body::empty()).expect("request");
            send(routes, request)
        };
        let response = features(off.clone()).await;
        assert_eq!(response.json()["result"]["data"]["json"]["billing"], Value::Null);
        let policy = response.header("content-security-policy").expect("csp").to_owned();
        assert!(!policy.contains("stripe"), "{policy}");

        let on = router(state_with(&app, Some(stripe_config("http://127.0.0.1:9", KEY))));
        let response = features(on).await;
        assert_eq!(
            response.json()["result"]["data"]["json"]["billing"],
            json!({"publishableKey": "pk_test_stub", "pricingTableId": "prctbl_stub",
                "pricingTableScriptUrl": "http://127.0.0.1:9/pricing-table.js"})
        );
        let policy = response.header("content-security-policy").expect("csp");
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' http://127.0.0.1:9"), "{policy}");
        assert!(policy.contains("frame-src http://127.0.0.1:9 https://js.stripe.com https://*.js.stripe.com"), "{policy}");
        assert!(policy.contains("https://api.stripe.com"), "{policy}");
    }
);

// ---------------------------------------------------------------------------------------
// Figure: webhook throughput (docs/billing.md). Prints; asserts only correctness.
//   cargo test --release -p voicemark-server --test it -- --ignored --nocapture webhook_throughput

/// 1,000 signed deliveries to 50 schools: 900 distinct `customer.subscription.updated`
/// events (18 per school, seats rising with `created`), 5 % of them delivered after their
/// successor (out of order), and 100 redeliveries of earlier events (duplicates), sent 8 at
/// a time. Then the jobs are run. Each school must end with its newest event's seats, and
/// every distinct event must have exactly one job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it by name"]
async fn webhook_throughput() {
    use crate::support::TestBackend;
    let mut backends = vec![TestBackend::Sqlite];
    if crate::support::postgres_admin_url().is_some() {
        backends.push(TestBackend::Postgres);
    }
    for backend in backends {
        let app = TestApp::new(backend).await;
        let state = state_with(&app, Some(stripe_config("http://127.0.0.1:9", KEY)));
        let routes = router(state.clone());
        let base = unix_now() - 250;
        let mut schools = Vec::new();
        let mut deliveries: Vec<String> = Vec::new();
        for s in 0..50 {
            let (school, _) = member(&app, UserRole::Admin).await;
            let customer = format!("cus_bench{s}");
            set_customer(&app, &school, &customer).await;
            for i in 0..18 {
                deliveries.push(event(
                    &format!("evt_bench_{s}_{i}"),
                    "customer.subscription.updated",
                    base + i,
                    subscription_object(&format!("sub_bench{s}"), &customer, "active", PRO, 10 + i),
                ));
            }
            schools.push(school);
        }
        // Interleave the schools, then swap 45 events (5 %) with their successor (the same
        // school's next event, 50 places on).
        let mut order: Vec<String> = (0..18)
            .flat_map(|i| (0..50).map(move |s| (s, i)))
            .map(|(s, i)| deliveries[s * 18 + i].clone())
            .collect();
        for k in 0..45 {
            let at = k * 19;
            order.swap(at, at + 50);
        }
        // 100 duplicates of earlier deliveries, spread through the stream.
        for k in 0..100 {
            let copy = order[k * 9].clone();
            order.insert(k * 9 + 5 + k, copy);
        }
        assert_eq!(order.len(), 1000);

        let started = std::time::Instant::now();
        let mut latencies = Vec::with_capacity(order.len());
        for batch in order.chunks(8) {
            let mut tasks = Vec::new();
            for body in batch {
                let routes = routes.clone();
                let body = body.clone();
                tasks.push(tokio::spawn(async move {
                    let t0 = std::time::Instant::now();
                    let header = sign(body.as_bytes(), SECRET, unix_now());
                    let response = webhook(&routes, &body, Some(&header)).await;
                    (response.status, t0.elapsed())
                }));
            }
            for task in tasks {
                let (status, took) = task.await.expect("task");
                assert_eq!(status, StatusCode::OK);
                latencies.push(took);
            }
        }
        let received = started.elapsed();
        let applied_from = std::time::Instant::now();
        let ran = drain(&state).await;
        let applied = applied_from.elapsed();
        assert_eq!(ran, 900, "one job per distinct event: none applied twice");
        for school in &schools {
            let (_, _, product, seats, _) = subscription_of(&app, school).await;
            assert_eq!((product.as_deref(), seats), (Some(PRO), Some(27)), "the newest event wins");
        }
        latencies.sort();
        let p99 = latencies[latencies.len() * 99 / 100];
        let p50 = latencies[latencies.len() / 2];
        println!(
            "webhook {backend:?}: 1000 deliveries (900 distinct, 100 duplicates, 45 out of order) \
             received in {:.2} s = {:.0} events/s (p50 {:.1} ms, p99 {:.1} ms, 8 concurrent); \
             900 applied by one worker in {:.2} s = {:.0} events/s; end to end {:.0} events/s",
            received.as_secs_f64(),
            1000.0 / received.as_secs_f64(),
            p50.as_secs_f64() * 1000.0,
            p99.as_secs_f64() * 1000.0,
            applied.as_secs_f64(),
            900.0 / applied.as_secs_f64(),
            1000.0 / (received + applied).as_secs_f64(),
        );
    }
}
