//! Sign in with Microsoft (docs/microsoft-signin.md) as a browser does it, against a stub
//! Microsoft identity platform on loopback: the tenant's OpenID configuration, a JWKS with
//! an RSA key generated here, and a token endpoint that checks the client secret, the
//! redirect URI and the PKCE verifier and issues an RS256 `id_token`. (The authorize page
//! is the browser's business: the tests stand in for it by reading the authorize URL and
//! granting a code for it.)

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use jsonwebtoken::{EncodingKey, Header};
use serde_json::{json, Value};
use voicemark::app::router;
use voicemark::config::MicrosoftConfig;
use voicemark::db::schema::accounts;
use voicemark::providers::microsoft::pkce_challenge;
use voicemark::state::AppState;
use voicemark::with_conn;

use crate::auth::{add_user, session_count};
use crate::dual_test;
use crate::support::{TestApp, TestResponse};

const CLIENT_ID: &str = "6731de76-14a6-49ae-97bc-6eba6914391e";
const CLIENT_SECRET: &str = "stub~client~secret~0123456789";
const TENANT: &str = "organizations";
const TID: &str = "9122040d-6c67-4c5b-b112-36a304b66dad";
const KID: &str = "stub-key-1";
const PUBLIC: &str = "http://127.0.0.1:3000";
const REDIRECT_URI: &str = "http://127.0.0.1:3000/api/auth/callback/azure-ad";

// ---------------------------------------------------------------------------------------
// The stub identity platform

/// The RSA key the stub signs with (made once per test run: 2048 bits take a moment).
struct SigningKey {
    encoding: EncodingKey,
    /// The public modulus and exponent, base64url, as a JWK carries them.
    n: String,
    e: String,
}

fn signing_key() -> &'static SigningKey {
    static KEY: OnceLock<SigningKey> = OnceLock::new();
    KEY.get_or_init(|| {
        use rsa::pkcs1::EncodeRsaPrivateKey;
        use rsa::traits::PublicKeyParts;
        let key = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048).expect("RSA key");
        let der = key.to_pkcs1_der().expect("PKCS#1 DER");
        SigningKey {
            encoding: EncodingKey::from_rsa_der(der.as_bytes()),
            n: URL_SAFE_NO_PAD.encode(key.n().to_bytes_be()),
            e: URL_SAFE_NO_PAD.encode(key.e().to_bytes_be()),
        }
    })
}

/// An RS256 token of `claims` under the stub's key.
fn sign(claims: &Value) -> String {
    let mut header = Header::new(jsonwebtoken::Algorithm::RS256);
    header.kid = Some(KID.into());
    jsonwebtoken::encode(&header, claims, &signing_key().encoding).expect("sign")
}

/// A code the stub will redeem once: what the authorize request asked for, and the
/// `id_token` to answer with.
struct Grant {
    challenge: String,
    redirect_uri: String,
    id_token: String,
}

#[derive(Clone, Default)]
pub(crate) struct Stub {
    base: String,
    grants: Arc<Mutex<HashMap<String, Grant>>>,
    /// Every token request that reached the endpoint.
    token_calls: Arc<Mutex<usize>>,
    /// The refresh token the stub will honour next (the Graph connection's).
    refresh: Arc<Mutex<Option<String>>>,
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description,
            "error_codes": [50000], "timestamp": "2026-11-24 09:00:00Z",
            "trace_id": "00000000-0000-0000-0000-000000000000",
            "correlation_id": "00000000-0000-0000-0000-000000000000"})),
    )
        .into_response()
}

async fn openid_configuration(State(stub): State<Stub>, Path(tenant): Path<String>) -> Response {
    let base = &stub.base;
    Json(json!({
        "token_endpoint": format!("{base}/{tenant}/oauth2/v2.0/token"),
        "token_endpoint_auth_methods_supported": ["client_secret_post", "private_key_jwt", "client_secret_basic"],
        "jwks_uri": format!("{base}/{tenant}/discovery/v2.0/keys"),
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "response_types_supported": ["code", "id_token", "code id_token", "id_token token"],
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "issuer": format!("{base}/{{tenantid}}/v2.0"),
        "request_uri_parameter_supported": false,
        "userinfo_endpoint": "https://graph.microsoft.com/oidc/userinfo",
        "authorization_endpoint": format!("{base}/{tenant}/oauth2/v2.0/authorize"),
        "http_logout_supported": true,
        "frontchannel_logout_supported": true,
        "end_session_endpoint": format!("{base}/{tenant}/oauth2/v2.0/logout"),
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "nonce", "preferred_username", "name", "tid", "ver", "email", "oid"],
        "tenant_region_scope": null,
        "cloud_instance_name": "microsoftonline.com",
    }))
    .into_response()
}

async fn keys(State(stub): State<Stub>) -> Response {
    let key = signing_key();
    Json(json!({"keys": [
        // A key of a type sign-in does not use must not hide the RSA one.
        {"kty": "EC", "use": "sig", "kid": "ec-key", "crv": "P-999", "x": "AA", "y": "AA"},
        {"kty": "RSA", "use": "sig", "kid": KID, "x5t": KID, "n": key.n, "e": key.e,
         "issuer": format!("{}/{{tenantid}}/v2.0", stub.base)},
    ]}))
    .into_response()
}

async fn token(State(stub): State<Stub>, headers: HeaderMap, body: Bytes) -> Response {
    *stub.token_calls.lock().expect("calls") += 1;
    let form: HashMap<String, String> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or("");
    let form_body = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !form_body {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "AADSTS900144: The request body must contain the following parameter: 'grant_type'.");
    }
    if field("client_id") != CLIENT_ID || field("client_secret") != CLIENT_SECRET {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "AADSTS7000215: Invalid client secret provided.");
    }
    if field("grant_type") == "refresh_token" {
        // The connection's refresh: the one live refresh token is exchanged for new ones.
        let mut live = stub.refresh.lock().expect("refresh");
        if live.as_deref() != Some(field("refresh_token")) || field("refresh_token").is_empty() {
            return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "AADSTS700082: The refresh token has expired due to inactivity.");
        }
        let next = format!("stub-refresh-{}", uuid::Uuid::new_v4().simple());
        *live = Some(next.clone());
        return Json(json!({
            "token_type": "Bearer", "scope": field("scope"), "expires_in": 3599, "ext_expires_in": 3599,
            "access_token": "stub-access-token-refreshed", "refresh_token": next,
        }))
        .into_response();
    }
    if field("grant_type") != "authorization_code" {
        return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type", "AADSTS70003: The app requested an unsupported grant type.");
    }
    let Some(grant) = stub.grants.lock().expect("grants").remove(field("code")) else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "AADSTS70008: The provided authorization code or refresh token has expired or was already used.");
    };
    if field("redirect_uri") != grant.redirect_uri {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "AADSTS50148: The redirect_uri does not match the one in the authorization request.");
    }
    if pkce_challenge(field("code_verifier")) != grant.challenge {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.");
    }
    let mut answer = json!({
        "token_type": "Bearer",
        "scope": field("scope"),
        "expires_in": 4455,
        "ext_expires_in": 4455,
        "access_token": "eyJ0eXAiOiJKV1QiLCJub25jZSI6InN0dWIifQ.stub-access-token.sig",
        "id_token": grant.id_token,
    });
    // A refresh token only when `offline_access` was asked for (the Graph connection).
    if field("scope").split(' ').any(|s| s == "offline_access") {
        let refresh = format!("stub-refresh-{}", uuid::Uuid::new_v4().simple());
        *stub.refresh.lock().expect("refresh") = Some(refresh.clone());
        answer["refresh_token"] = json!(refresh);
    }
    Json(answer).into_response()
}

pub(crate) async fn microsoft_stub() -> Stub {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    let stub = Stub {
        base: format!("http://{addr}"),
        ..Stub::default()
    };
    let routes = Router::new()
        .route("/{tenant}/v2.0/.well-known/openid-configuration", get(openid_configuration))
        .route("/{tenant}/discovery/v2.0/keys", get(keys))
        .route("/{tenant}/oauth2/v2.0/token", post(token))
        .with_state(stub.clone());
    tokio::spawn(async move {
        let _ = axum::serve(listener, routes).await;
    });
    stub
}

// ---------------------------------------------------------------------------------------
// The app and a browser

/// The app with Sign in with Microsoft pointed at `stub`.
fn with_microsoft(app: TestApp, stub: &Stub) -> TestApp {
    let graph = format!("{}/v1.0", stub.base);
    with_microsoft_and_graph(app, stub, &graph)
}

/// The app with Microsoft pointed at `stub` and Graph at `graph_url`.
pub(crate) fn with_microsoft_and_graph(mut app: TestApp, stub: &Stub, graph_url: &str) -> TestApp {
    let mut config = (*app.state.config).clone();
    config.microsoft = Some(MicrosoftConfig {
        client_id: CLIENT_ID.into(),
        client_secret: CLIENT_SECRET.into(),
        tenant: TENANT.into(),
        login_url: stub.base.clone(),
        graph_url: graph_url.into(),
    });
    let state = AppState::new(app.db.clone(), config).expect("state");
    app.router = router(state.clone());
    app.state = state;
    app
}

/// A cookie jar in front of the app.
pub(crate) struct Browser<'a> {
    app: &'a TestApp,
    cookies: HashMap<String, String>,
}

impl<'a> Browser<'a> {
    pub(crate) fn new(app: &'a TestApp) -> Self {
        Browser { app, cookies: HashMap::new() }
    }

    async fn send(&mut self, builder: axum::http::request::Builder, body: Body) -> TestResponse {
        let jar = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let request = builder.header(header::COOKIE, jar).body(body).expect("request");
        let response = self.app.request(request).await;
        for set in response.headers.get_all(header::SET_COOKIE) {
            let set = set.to_str().expect("ascii cookie");
            let (name, value) = set.split(';').next().and_then(|p| p.split_once('=')).expect("pair");
            if set.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
        }
        response
    }

    async fn get(&mut self, path: &str) -> TestResponse {
        self.send(Request::get(path), Body::empty()).await
    }

    async fn csrf(&mut self) -> String {
        let answer = self.get("/api/auth/csrf").await;
        answer.json()["csrfToken"].as_str().expect("csrfToken").to_owned()
    }

    /// Posts the 'Sign in with Microsoft' form as /login does.
    async fn start(&mut self, csrf_token: &str, callback_url: &str) -> TestResponse {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs([("csrfToken", csrf_token), ("callbackUrl", callback_url)])
            .finish();
        self.send(
            Request::post("/api/auth/signin/azure-ad")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded"),
            Body::from(body),
        )
        .await
    }

    fn has_session(&self) -> bool {
        self.cookies.get("next-auth.session-token").is_some_and(|v| !v.is_empty())
    }
}

/// The query of the authorize URL a sign-in was sent to.
fn authorize_params(stub: &Stub, answer: &TestResponse) -> HashMap<String, String> {
    assert_eq!(answer.status, StatusCode::FOUND, "{}", answer.text());
    let location = answer.header("location").expect("location");
    let expected = format!("{}/{TENANT}/oauth2/v2.0/authorize?", stub.base);
    assert!(location.starts_with(&expected), "{location}");
    url::Url::parse(location).expect("url").query_pairs().into_owned().collect()
}

/// Claims Microsoft would put in the `id_token` for this authorize request and person.
fn claims_for(stub: &Stub, params: &HashMap<String, String>, email: &str, oid: &str) -> Value {
    let at = chrono::Utc::now().timestamp();
    json!({
        "ver": "2.0",
        "iss": format!("{}/{TID}/v2.0", stub.base),
        "sub": format!("pairwise-{oid}"),
        "aud": CLIENT_ID,
        "exp": at + 3600,
        "iat": at,
        "nbf": at,
        "name": "Ada Lovelace",
        "preferred_username": email,
        "email": email,
        "oid": oid,
        "tid": TID,
        "nonce": params["nonce"],
        "aio": "stub",
    })
}

/// Stands in for the authorize page: grants a code that redeems to `id_token`.
fn grant(stub: &Stub, params: &HashMap<String, String>, id_token: String) -> String {
    let code = format!("code-{}", uuid::Uuid::new_v4().simple());
    stub.grants.lock().expect("grants").insert(
        code.clone(),
        Grant {
            challenge: params["code_challenge"].clone(),
            redirect_uri: params["redirect_uri"].clone(),
            id_token,
        },
    );
    code
}

fn callback_path(code: &str, state: &str) -> String {
    format!("/api/auth/callback/azure-ad?code={code}&state={state}&session_state=ss-1")
}

/// One whole sign-in of the person with `email` and object id `oid`, claims adjusted by
/// `adjust` before signing; the callback's answer.
async fn sign_in_as(
    browser: &mut Browser<'_>,
    stub: &Stub,
    email: &str,
    oid: &str,
    adjust: impl FnOnce(&mut Value),
) -> TestResponse {
    let token = browser.csrf().await;
    let started = browser.start(&token, "/leaders/tasks").await;
    let params = authorize_params(stub, &started);
    let mut claims = claims_for(stub, &params, email, oid);
    adjust(&mut claims);
    let code = grant(stub, &params, sign(&claims));
    browser.get(&callback_path(&code, &params["state"])).await
}

fn assert_error(answer: &TestResponse, code: &str) {
    assert_eq!(answer.status, StatusCode::FOUND, "{}", answer.text());
    assert_eq!(
        answer.header("location"),
        Some(format!("{PUBLIC}/login?error={code}").as_str())
    );
}

/// The `accounts` rows of `user_id`: (provider, id, type, ext_expires_in, token_type,
/// scope, access_token, refresh_token).
#[allow(clippy::type_complexity)]
async fn account_rows(
    app: &TestApp,
    user_id: &str,
) -> Vec<(String, String, String, Option<i32>, Option<String>, Option<String>, Option<String>, Option<String>)> {
    let mut pooled = app.db.conn().await.expect("conn");
    with_conn!(pooled.db(), |c| accounts::table
        .filter(accounts::user_id.eq(user_id))
        .select((
            accounts::provider,
            accounts::provider_account_id,
            accounts::type_,
            accounts::ext_expires_in,
            accounts::token_type,
            accounts::scope,
            accounts::access_token,
            accounts::refresh_token,
        ))
        .load(c)
        .await)
    .expect("accounts")
}

// ---------------------------------------------------------------------------------------
// The tests

dual_test! {
    async fn a_matching_activated_user_signs_in_and_is_linked(app: TestApp) {
        let stub = microsoft_stub().await;
        let app = with_microsoft(app, &stub);
        let user = add_user(&app, "ada@northbridge.sch.uk", true, false).await;
        let mut browser = Browser::new(&app);

        let providers = browser.get("/api/auth/providers").await.json();
        assert_eq!(
            providers["azure-ad"],
            json!({"id": "azure-ad", "name": "Microsoft Entra ID", "type": "oauth",
                "signinUrl": format!("{PUBLIC}/api/auth/signin/azure-ad"),
                "callbackUrl": format!("{PUBLIC}/api/auth/callback/azure-ad")})
        );

        let token = browser.csrf().await;
        let started = browser.start(&token, "/leaders/tasks").await;
        let params = authorize_params(&stub, &started);
        assert_eq!(params["client_id"], CLIENT_ID);
        assert_eq!(params["response_type"], "code");
        assert_eq!(params["redirect_uri"], REDIRECT_URI);
        assert_eq!(params["scope"], "openid profile email");
        assert_eq!(params["code_challenge_method"], "S256");
        // The state, nonce and verifier stay in HttpOnly cookies of Auth.js's names.
        let set_cookies: Vec<&str> = started
            .headers
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|v| v.to_str().expect("ascii"))
            .collect();
        for name in ["next-auth.state", "next-auth.pkce.code_verifier", "next-auth.nonce"] {
            let set = set_cookies
                .iter()
                .find(|c| c.starts_with(&format!("{name}=")))
                .unwrap_or_else(|| panic!("no {name} cookie in {set_cookies:?}"));
            assert!(set.contains("Max-Age=900; Path=/; HttpOnly; SameSite=Lax"), "{set}");
        }
        assert_eq!(browser.cookies["next-auth.state"], params["state"]);
        assert_eq!(browser.cookies["next-auth.nonce"], params["nonce"]);
        assert_eq!(pkce_challenge(&browser.cookies["next-auth.pkce.code_verifier"]), params["code_challenge"]);

        let claims = claims_for(&stub, &params, "Ada@Northbridge.sch.uk", "oid-ada");
        let code = grant(&stub, &params, sign(&claims));
        let done = browser.get(&callback_path(&code, &params["state"])).await;
        assert_eq!(done.status, StatusCode::FOUND, "{}", done.text());
        assert_eq!(done.header("location"), Some(format!("{PUBLIC}/leaders/tasks").as_str()));
        assert!(browser.has_session());
        // The flow's cookies are spent.
        assert!(!browser.cookies.contains_key("next-auth.state"));
        assert!(!browser.cookies.contains_key("next-auth.nonce"));
        let session = browser.get("/api/auth/session").await.json();
        assert_eq!(session["user"]["email"], "ada@northbridge.sch.uk");
        assert_eq!(session["user"]["id"], user.as_str());
        assert_eq!(session_count(&app, &user).await, 1);

        let rows = account_rows(&app, &user).await;
        assert_eq!(
            rows,
            vec![(
                "azure-ad".to_owned(),
                "oid-ada".to_owned(),
                "oauth".to_owned(),
                Some(4455),
                Some("Bearer".to_owned()),
                Some("openid profile email".to_owned()),
                None,
                None,
            )]
        );

        // A second sign-in with the same Microsoft account updates the one link.
        let mut again = Browser::new(&app);
        let done = sign_in_as(&mut again, &stub, "ada@northbridge.sch.uk", "oid-ada", |_| {}).await;
        assert_eq!(done.status, StatusCode::FOUND);
        assert!(again.has_session());
        assert_eq!(account_rows(&app, &user).await.len(), 1);
        assert_eq!(session_count(&app, &user).await, 2);
        // A code is good once.
        let replay = browser.get(&callback_path(&code, &params["state"])).await;
        assert_error(&replay, "OAuthCallbackError");
    }
}

dual_test! {
    async fn the_account_must_exist_be_activated_and_not_disabled(app: TestApp) {
        let stub = microsoft_stub().await;
        let app = with_microsoft(app, &stub);
        let pending = add_user(&app, "pending@northbridge.sch.uk", false, false).await;
        let disabled = add_user(&app, "disabled@northbridge.sch.uk", true, true).await;
        for (email, oid, code) in [
            ("nobody@northbridge.sch.uk", "oid-nobody", "UserNotFound"),
            ("pending@northbridge.sch.uk", "oid-pending", "UserNotActivated"),
            ("disabled@northbridge.sch.uk", "oid-disabled", "AccountDisabled"),
        ] {
            let mut browser = Browser::new(&app);
            let answer = sign_in_as(&mut browser, &stub, email, oid, |_| {}).await;
            assert_error(&answer, code);
            assert!(!browser.has_session(), "{email}");
        }
        for user in [&pending, &disabled] {
            assert_eq!(session_count(&app, user).await, 0);
            assert!(account_rows(&app, user).await.is_empty());
        }
        // No account is ever created for an unknown address.
        let mut pooled = app.db.conn().await.expect("conn");
        let linked: i64 = with_conn!(pooled.db(), |c| accounts::table.count().get_result(c).await)
            .expect("count");
        assert_eq!(linked, 0);
        let users: i64 = with_conn!(pooled.db(), |c| voicemark::db::schema::users::table
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(users, 2);
    }
}

dual_test! {
    async fn tokens_that_do_not_check_out_are_refused_without_a_session(app: TestApp) {
        let stub = microsoft_stub().await;
        let app = with_microsoft(app, &stub);
        let user = add_user(&app, "ada@northbridge.sch.uk", true, false).await;
        let email = "ada@northbridge.sch.uk";
        let expired = chrono::Utc::now().timestamp() - 3600;
        let cases: Vec<(&str, Box<dyn FnOnce(&mut Value)>)> = vec![
            ("wrong audience", Box::new(|c: &mut Value| c["aud"] = json!("00000003-0000-0000-c000-000000000000"))),
            ("expired", Box::new(move |c: &mut Value| {
                c["exp"] = json!(expired);
                c["iat"] = json!(expired - 3600);
                c["nbf"] = json!(expired - 3600);
            })),
            ("nonce mismatch", Box::new(|c: &mut Value| c["nonce"] = json!("another-sign-in"))),
            ("no nonce", Box::new(|c: &mut Value| { c.as_object_mut().expect("object").remove("nonce"); })),
            ("another issuer", Box::new(|c: &mut Value| c["iss"] = json!(format!("https://evil.example/{TID}/v2.0")))),
            ("issuer of another tenant", Box::new(|c: &mut Value| c["tid"] = json!("00000000-1111-2222-3333-444444444444"))),
        ];
        for (case, adjust) in cases {
            let mut browser = Browser::new(&app);
            let answer = sign_in_as(&mut browser, &stub, email, "oid-ada", adjust).await;
            assert_error(&answer, "OAuthCallbackError");
            assert!(!browser.has_session(), "{case}");
        }

        // A bad signature: a real token whose payload was swapped for another address.
        let mut browser = Browser::new(&app);
        let token = browser.csrf().await;
        let params = authorize_params(&stub, &browser.start(&token, "/").await);
        let genuine = sign(&claims_for(&stub, &params, "someone@else.example", "oid-other"));
        let forged_payload = URL_SAFE_NO_PAD.encode(
            claims_for(&stub, &params, email, "oid-ada").to_string(),
        );
        let parts: Vec<&str> = genuine.split('.').collect();
        let forged = format!("{}.{forged_payload}.{}", parts[0], parts[2]);
        let code = grant(&stub, &params, forged);
        let answer = browser.get(&callback_path(&code, &params["state"])).await;
        assert_error(&answer, "OAuthCallbackError");
        assert!(!browser.has_session());

        // A wrong state: the code is never redeemed.
        let calls_before = *stub.token_calls.lock().expect("calls");
        let mut browser = Browser::new(&app);
        let token = browser.csrf().await;
        let params = authorize_params(&stub, &browser.start(&token, "/").await);
        let code = grant(&stub, &params, sign(&claims_for(&stub, &params, email, "oid-ada")));
        let answer = browser.get(&callback_path(&code, "a-state-from-elsewhere")).await;
        assert_error(&answer, "OAuthCallbackError");
        assert!(!browser.has_session());
        // Nor without the browser's cookies (another browser replaying the redirect).
        let mut stranger = Browser::new(&app);
        let answer = stranger.get(&callback_path(&code, &params["state"])).await;
        assert_error(&answer, "OAuthCallbackError");
        assert!(!stranger.has_session());
        assert_eq!(*stub.token_calls.lock().expect("calls"), calls_before);

        // An unreadable redirect (a repeated field) is refused the same way, not with a 400.
        let answer = browser
            .get(&format!("/api/auth/callback/azure-ad?code=a&code=b&state={}", params["state"]))
            .await;
        assert_error(&answer, "OAuthCallbackError");

        // Microsoft's own refusal (the user cancelled consent).
        let answer = browser
            .get("/api/auth/callback/azure-ad?error=access_denied&error_description=AADSTS65004%3A+User+declined+to+consent")
            .await;
        assert_error(&answer, "OAuthCallbackError");

        assert_eq!(session_count(&app, &user).await, 0);
        assert!(account_rows(&app, &user).await.is_empty());
    }
}

dual_test! {
    async fn a_user_linked_to_another_microsoft_account_is_refused(app: TestApp) {
        let stub = microsoft_stub().await;
        let app = with_microsoft(app, &stub);
        let ada = add_user(&app, "ada@northbridge.sch.uk", true, false).await;
        let bob = add_user(&app, "bob@northbridge.sch.uk", true, false).await;
        let mut browser = Browser::new(&app);
        let first = sign_in_as(&mut browser, &stub, "ada@northbridge.sch.uk", "oid-ada", |_| {}).await;
        assert_eq!(first.status, StatusCode::FOUND);

        // Another Microsoft account claiming Ada's address.
        let mut browser = Browser::new(&app);
        let other = sign_in_as(&mut browser, &stub, "ada@northbridge.sch.uk", "oid-intruder", |_| {}).await;
        assert_error(&other, "OAuthAccountNotLinked");
        assert!(!browser.has_session());
        // Ada's Microsoft account now naming Bob's address.
        let mut browser = Browser::new(&app);
        let moved = sign_in_as(&mut browser, &stub, "bob@northbridge.sch.uk", "oid-ada", |_| {}).await;
        assert_error(&moved, "OAuthAccountNotLinked");
        assert!(!browser.has_session());

        assert_eq!(session_count(&app, &ada).await, 1);
        assert_eq!(session_count(&app, &bob).await, 0);
        assert_eq!(account_rows(&app, &ada).await.len(), 1);
        assert!(account_rows(&app, &bob).await.is_empty());
    }
}

dual_test! {
    async fn without_configuration_or_csrf_nothing_starts(app: TestApp) {
        // Not configured: not listed, and the sign-in route sends the browser to /login.
        let mut browser = Browser::new(&app);
        let providers = browser.get("/api/auth/providers").await.json();
        assert!(providers.get("azure-ad").is_none(), "{providers}");
        assert!(providers.get("credentials").is_some());
        let token = browser.csrf().await;
        let answer = browser.start(&token, "/").await;
        assert_eq!(answer.header("location"), Some(format!("{PUBLIC}/login").as_str()));
        assert!(!browser.cookies.contains_key("next-auth.state"));

        // Configured, but the form's CSRF token is wrong.
        let stub = microsoft_stub().await;
        let app = with_microsoft(app, &stub);
        let mut browser = Browser::new(&app);
        browser.csrf().await;
        let answer = browser.start("not-the-token", "/").await;
        assert_eq!(
            answer.header("location"),
            Some(format!("{PUBLIC}/api/auth/signin?csrf=true").as_str())
        );
        assert!(!browser.cookies.contains_key("next-auth.state"));
        // Auth.js's sign-in page is /login.
        let page = browser.get("/api/auth/signin?csrf=true").await;
        assert_eq!(page.header("location"), Some(format!("{PUBLIC}/login").as_str()));
        let page = browser.get("/api/auth/signin?error=OAuthSignin&callbackUrl=%2Ffeedback").await;
        assert_eq!(
            page.header("location"),
            Some(format!("{PUBLIC}/login?error=OAuthSignin&callbackUrl=%2Ffeedback").as_str())
        );

        // The identity platform unreachable: OAuthSignin, before the browser leaves.
        let mut config = (*app.state.config).clone();
        if let Some(ms) = config.microsoft.as_mut() {
            ms.login_url = "http://127.0.0.1:9".into();
        }
        let state = AppState::new(app.db.clone(), config).expect("state");
        let mut app = app;
        app.router = router(state.clone());
        app.state = state;
        let mut browser = Browser::new(&app);
        let token = browser.csrf().await;
        let answer = browser.start(&token, "/").await;
        assert_eq!(
            answer.header("location"),
            Some(format!("{PUBLIC}/login?error=OAuthSignin").as_str())
        );
        assert!(!browser.cookies.contains_key("next-auth.state"));
    }
}

// ---------------------------------------------------------------------------------------
// 'Connect Microsoft account' for a task's content (docs/microsoft-graph.md)

/// The user's Graph tokens as stored: (access, refresh, expires_at).
async fn stored_tokens(app: &TestApp, user_id: &str) -> (Option<String>, Option<String>, Option<i64>) {
    let mut pooled = app.db.conn().await.expect("conn");
    with_conn!(pooled.db(), |c| accounts::table
        .filter(accounts::user_id.eq(user_id))
        .select((accounts::access_token, accounts::refresh_token, accounts::expires_at))
        .first(c)
        .await)
    .expect("tokens")
}

impl Browser<'_> {
    pub(crate) fn sign_in_with(&mut self, cookie: &str) {
        let (name, value) = cookie.split_once('=').expect("cookie pair");
        self.cookies.insert(name.to_owned(), value.to_owned());
    }

    /// Posts 'Connect Microsoft account' as the content step does.
    async fn connect(&mut self, csrf_token: &str, return_to: &str) -> TestResponse {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs([("csrfToken", csrf_token), ("returnTo", return_to)])
            .finish();
        self.send(
            Request::post("/api/microsoft/connect")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded"),
            Body::from(body),
        )
        .await
    }

    /// `microsoft.status` as the app asks it.
    async fn status(&mut self) -> Value {
        let answer = self.get("/api/trpc/microsoft.status").await;
        answer.json()["result"]["data"]["json"].clone()
    }
}

/// One whole connection of the signed-in browser as `email` / `oid`; the callback's answer.
pub(crate) async fn connect_as(browser: &mut Browser<'_>, stub: &Stub, email: &str, oid: &str) -> TestResponse {
    let token = browser.csrf().await;
    let started = browser.connect(&token, "/leaders/tasks/t1/edit").await;
    let params = authorize_params(stub, &started);
    let scopes: Vec<&str> = params["scope"].split(' ').collect();
    for needed in ["offline_access", "Files.Read.All", "OnlineMeetingRecording.Read.All", "OnlineMeetingTranscript.Read.All"] {
        assert!(scopes.contains(&needed), "{scopes:?}");
    }
    assert_eq!(params["redirect_uri"], format!("{PUBLIC}/api/microsoft/callback"));
    let code = grant(stub, &params, sign(&claims_for(stub, &params, email, oid)));
    browser
        .get(&format!("/api/microsoft/callback?code={code}&state={}", params["state"]))
        .await
}

dual_test! {
    async fn connecting_microsoft_365_keeps_sealed_tokens_refreshes_them_and_forgets_them(app: TestApp) {
        let stub = microsoft_stub().await;
        let app = with_microsoft(app, &stub);
        let user = add_user(&app, "ada@northbridge.sch.uk", true, false).await;
        let mut browser = Browser::new(&app);
        let cookie = crate::support::session_cookie(&app, &user).await;
        browser.sign_in_with(&cookie);
        assert_eq!(browser.status().await, json!({"configured": true, "connected": false, "setup": null}));

        let back = connect_as(&mut browser, &stub, "ada@northbridge.sch.uk", "oid-ada").await;
        assert_eq!(back.status, StatusCode::FOUND, "{}", back.text());
        assert_eq!(back.header("location"), Some(format!("{PUBLIC}/leaders/tasks/t1/edit?microsoft=connected").as_str()));
        assert_eq!(browser.status().await["connected"], true);

        // Sealed at rest: neither token is in the database as itself.
        let (access, refresh, expires_at) = stored_tokens(&app, &user).await;
        let (access, refresh) = (access.expect("access"), refresh.expect("refresh"));
        assert!(access.starts_with("v1:") && !access.contains("stub-access-token"), "{access}");
        assert!(refresh.starts_with("v1:") && !refresh.contains("stub-refresh"), "{refresh}");
        let left = expires_at.expect("expiry") - chrono::Utc::now().timestamp();
        assert!((4400..=4455).contains(&left), "{left}");

        // A fresh token is used as it is; one about to expire is refreshed first.
        let calls = *stub.token_calls.lock().expect("calls");
        let token = voicemark::microsoft_graph::access_token(&app.state, &user).await.expect("token");
        assert_eq!(token, "eyJ0eXAiOiJKV1QiLCJub25jZSI6InN0dWIifQ.stub-access-token.sig");
        assert_eq!(*stub.token_calls.lock().expect("calls"), calls, "no refresh needed");
        let mut pooled = app.db.conn().await.expect("conn");
        let soon = chrono::Utc::now().timestamp() + 30;
        with_conn!(pooled.db(), |c| diesel::update(accounts::table.filter(accounts::user_id.eq(&user)))
            .set(accounts::expires_at.eq(Some(soon)))
            .execute(c)
            .await)
        .expect("expire");
        drop(pooled);
        let token = voicemark::microsoft_graph::access_token(&app.state, &user).await.expect("refreshed");
        assert_eq!(token, "stub-access-token-refreshed");
        let (_, new_refresh, expires_at) = stored_tokens(&app, &user).await;
        assert_ne!(new_refresh.as_deref(), Some(refresh.as_str()), "the new refresh token is kept");
        assert!(expires_at.expect("expiry") > soon);

        // A revoked refresh token: connect again.
        *stub.refresh.lock().expect("refresh") = None;
        let mut pooled = app.db.conn().await.expect("conn");
        with_conn!(pooled.db(), |c| diesel::update(accounts::table.filter(accounts::user_id.eq(&user)))
            .set(accounts::expires_at.eq(Some(soon)))
            .execute(c)
            .await)
        .expect("expire");
        drop(pooled);
        let err = voicemark::microsoft_graph::access_token(&app.state, &user).await.expect_err("revoked");
        assert_eq!(err.message(), "Your Microsoft connection has expired. Connect your Microsoft account again.");

        // The same Microsoft account cannot be connected by someone else.
        let other = add_user(&app, "grace@northbridge.sch.uk", true, false).await;
        let mut second = Browser::new(&app);
        second.sign_in_with(&crate::support::session_cookie(&app, &other).await);
        let refused = connect_as(&mut second, &stub, "ada@northbridge.sch.uk", "oid-ada").await;
        assert_eq!(refused.header("location"), Some(format!("{PUBLIC}/leaders/tasks/t1/edit?microsoft=not-linked").as_str()));
        assert_eq!(second.status().await["connected"], false);

        // Disconnect forgets the tokens at once.
        let held = crate::admin::mutate(&app, &cookie, "microsoft.disconnect", Value::Null, &[])
            .await
            .expect("disconnected");
        assert_eq!(held, json!(true));
        assert_eq!(stored_tokens(&app, &user).await, (None, None, None));
        assert_eq!(browser.status().await["connected"], false);

        // Signed out, the connect route sends the browser to sign in and starts nothing.
        let mut stranger = Browser::new(&app);
        let token = stranger.csrf().await;
        let answer = stranger.connect(&token, "/").await;
        assert_eq!(answer.header("location"), Some(format!("{PUBLIC}/login").as_str()));
    }
}
