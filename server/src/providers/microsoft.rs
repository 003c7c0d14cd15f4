//! The Microsoft identity platform (Entra ID, v2.0 endpoints) for Sign in with Microsoft:
//! the tenant's OpenID configuration, the authorization-code flow with PKCE (the authorize
//! URL and the token exchange, form-encoded with the client secret) and the `id_token`'s
//! verification (RS256 against the tenant's JWKS, issuer, audience, expiry, nonce).
//! Settings: `config::microsoft`; decisions: docs/microsoft-signin.md.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use rand::RngCore;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::config::MicrosoftConfig;
use crate::metrics::SendTimed as _;

/// Every identity-platform call is one small request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the OpenID configuration and the signing keys are kept before being read again
/// (an unknown key id reads the keys again at once: Microsoft rolls its keys).
pub const METADATA_TTL: Duration = Duration::from_secs(60 * 60);
/// What Voicemark asks for: who the user is, nothing more (no Graph access in this slice).
pub const SIGN_IN_SCOPE: &str = "openid profile email";
/// What connecting a Microsoft account for a task's content asks for (msgraph-files-teams.md
/// §1): sign-in, a refresh token, the user's files and the sites they can see, and the
/// recordings and transcripts of the meetings they organised.
pub const GRAPH_SCOPE: &str = "openid profile email offline_access User.Read Files.Read.All Sites.Read.All OnlineMeetingRecording.Read.All OnlineMeetingTranscript.Read.All";
/// How far clocks may disagree when `exp`, `nbf` and `iat` are checked.
pub const CLOCK_LEEWAY_SECONDS: u64 = 60;

/// Why a call to the identity platform, or a token it gave, was not accepted. `Display` is
/// for the log (never carries the client secret or a token).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MicrosoftError {
    /// The platform answered with an OAuth error (`{"error","error_description"}`).
    #[error("Microsoft answered {status} ({error}): {description}")]
    Answered {
        status: u16,
        error: String,
        description: String,
    },
    /// No connection, or it broke before an answer.
    #[error("could not reach Microsoft: {0}")]
    Unreachable(String),
    /// No answer within [`REQUEST_TIMEOUT`].
    #[error("Microsoft did not answer in time")]
    TimedOut,
    /// A success status with a body of no shape we know.
    #[error("Microsoft's answer could not be read: {0}")]
    Malformed(String),
    /// The `id_token` failed a check (signature, issuer, audience, expiry, nonce, claims).
    #[error("the id_token was refused: {0}")]
    InvalidToken(String),
}

impl MicrosoftError {
    fn from_reqwest(err: reqwest::Error) -> MicrosoftError {
        match super::ProviderError::from_reqwest(err) {
            super::ProviderError::TimedOut => MicrosoftError::TimedOut,
            other => MicrosoftError::Unreachable(other.to_string()),
        }
    }
}

/// The tenant's OpenID configuration (the fields used).
#[derive(Debug, Clone, Deserialize)]
pub struct Metadata {
    /// `https://login.microsoftonline.com/{tenantid}/v2.0` for `organizations`/`common`
    /// (`{tenantid}` stands for the token's `tid`), or the tenant's own issuer.
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
}

/// The token endpoint's answer. The access and refresh tokens are read but never stored in
/// this slice (they come, encrypted, with the Graph connection).
#[derive(Clone, Deserialize)]
pub struct TokenAnswer {
    #[serde(default)]
    pub token_type: Option<String>,
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default)]
    pub expires_in: Option<i64>,
    #[serde(default)]
    pub ext_expires_in: Option<i64>,
    #[serde(default)]
    pub access_token: Option<String>,
    #[serde(default)]
    pub refresh_token: Option<String>,
    #[serde(default)]
    pub id_token: Option<String>,
}

impl std::fmt::Debug for TokenAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenAnswer")
            .field("token_type", &self.token_type)
            .field("scope", &self.scope)
            .field("expires_in", &self.expires_in)
            .field("ext_expires_in", &self.ext_expires_in)
            .field("access_token", &self.access_token.as_ref().map(|_| "<token>"))
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "<token>"))
            .field("id_token", &self.id_token.as_ref().map(|_| "<token>"))
            .finish()
    }
}

/// The verified `id_token`'s claims that sign-in reads.
#[derive(Debug, Clone, Deserialize)]
pub struct IdClaims {
    pub iss: String,
    pub sub: String,
    #[serde(default)]
    pub oid: Option<String>,
    #[serde(default)]
    pub tid: Option<String>,
    #[serde(default)]
    pub nonce: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub preferred_username: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// The optional claim "e-mail domain owner verified"; `false` means the `email` claim
    /// was typed in by the tenant, not proven, so it is not used.
    #[serde(default)]
    pub xms_edov: Option<serde_json::Value>,
}

impl IdClaims {
    /// The account's stable id for the `accounts` row: the object id, else the subject.
    pub fn account_id(&self) -> &str {
        self.oid.as_deref().filter(|o| !o.is_empty()).unwrap_or(&self.sub)
    }

    /// The e-mail address the token vouches for: `email` (unless the tenant marks its
    /// domain unverified), else `preferred_username` when it is an address.
    pub fn verified_email(&self) -> Option<&str> {
        use serde_json::Value;
        let unverified = match &self.xms_edov {
            Some(Value::Bool(verified)) => !verified,
            Some(Value::Number(n)) => n.as_i64() == Some(0),
            Some(Value::String(s)) => matches!(s.as_str(), "0" | "false"),
            _ => false,
        };
        let email = self
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty() && !unverified);
        email.or_else(|| {
            self.preferred_username
                .as_deref()
                .map(str::trim)
                .filter(|p| p.contains('@'))
        })
    }
}

/// What one sign-in keeps in cookies between the redirect and the callback.
#[derive(Debug, Clone)]
pub struct Challenge {
    pub state: String,
    pub nonce: String,
    pub code_verifier: String,
}

impl Challenge {
    /// Fresh random `state`, `nonce` and PKCE code verifier (32 bytes each, base64url).
    pub fn new() -> Challenge {
        Challenge {
            state: random_b64(),
            nonce: random_b64(),
            code_verifier: random_b64(),
        }
    }

    /// The S256 code challenge: base64url(SHA-256(verifier)).
    pub fn code_challenge(&self) -> String {
        pkce_challenge(&self.code_verifier)
    }
}

impl Default for Challenge {
    fn default() -> Self {
        Challenge::new()
    }
}

/// base64url(SHA-256(`verifier`)), RFC 7636's S256.
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn random_b64() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

#[derive(Default)]
struct Cache {
    metadata: Option<(Instant, Metadata)>,
    keys: Option<(Instant, Vec<Jwk>)>,
}

/// A client for the configured app registration, reused for every sign-in.
#[derive(Clone)]
pub struct MicrosoftClient {
    http: reqwest::Client,
    config: MicrosoftConfig,
    cache: Arc<Mutex<Cache>>,
}

impl std::fmt::Debug for MicrosoftClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MicrosoftClient")
            .field("config", &self.config)
            .finish()
    }
}

impl MicrosoftClient {
    pub fn new(config: &MicrosoftConfig) -> Result<MicrosoftClient, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            // The secret goes only where the configuration says.
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(MicrosoftClient {
            http,
            config: config.clone(),
            cache: Arc::default(),
        })
    }

    /// `{login}/{tenant}/v2.0/.well-known/openid-configuration`.
    pub fn metadata_url(&self) -> String {
        format!(
            "{}/{}/v2.0/.well-known/openid-configuration",
            self.config.login_url, self.config.tenant
        )
    }

    /// The tenant's OpenID configuration, read at most once an hour.
    pub async fn metadata(&self) -> Result<Metadata, MicrosoftError> {
        let cached = self.cache().metadata.clone();
        if let Some((at, metadata)) = cached {
            if at.elapsed() < METADATA_TTL {
                return Ok(metadata);
            }
        }
        let metadata: Metadata = self.get_json(&self.metadata_url()).await?;
        self.cache().metadata = Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    /// The cache, even if a thread panicked while holding it (it holds only copies).
    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The browser's way to the tenant's `/oauth2/v2.0/authorize`: the code flow with
    /// PKCE (S256), `state` and `nonce`, answered by query to `redirect_uri`, asking for
    /// `scope` ([`SIGN_IN_SCOPE`] or [`GRAPH_SCOPE`]).
    pub fn authorize_url(
        &self,
        metadata: &Metadata,
        redirect_uri: &str,
        challenge: &Challenge,
        scope: &str,
    ) -> Result<String, MicrosoftError> {
        let mut url = url::Url::parse(&metadata.authorization_endpoint)
            .map_err(|e| MicrosoftError::Malformed(format!("authorization_endpoint: {e}")))?;
        url.query_pairs_mut()
            .append_pair("client_id", &self.config.client_id)
            .append_pair("response_type", "code")
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("response_mode", "query")
            .append_pair("scope", scope)
            .append_pair("state", &challenge.state)
            .append_pair("nonce", &challenge.nonce)
            .append_pair("code_challenge", &challenge.code_challenge())
            .append_pair("code_challenge_method", "S256");
        Ok(url.to_string())
    }

    /// Redeems an authorization code at the token endpoint (form-encoded, client secret,
    /// PKCE verifier) for the `scope` the authorization asked.
    pub async fn exchange_code(
        &self,
        metadata: &Metadata,
        code: &str,
        redirect_uri: &str,
        code_verifier: &str,
        scope: &str,
    ) -> Result<TokenAnswer, MicrosoftError> {
        let form = [
            ("client_id", self.config.client_id.as_str()),
            ("client_secret", self.config.client_secret.as_str()),
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", code_verifier),
            ("scope", scope),
        ];
        self.token_request(metadata, &form).await
    }

    /// A new access token (and, usually, a new refresh token) for a refresh token
    /// (`grant_type=refresh_token`, the same `scope`).
    pub async fn refresh(
        &self,
        metadata: &Metadata,
        refresh_token: &str,
        scope: &str,
    ) -> Result<TokenAnswer, MicrosoftError> {
        let form = [
            ("client_id", self.config.client_id.as_str()),
            ("client_secret", self.config.client_secret.as_str()),
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("scope", scope),
        ];
        self.token_request(metadata, &form).await
    }

    /// One form-encoded request to the token endpoint (the secret redacted from errors).
    async fn token_request(
        &self,
        metadata: &Metadata,
        form: &[(&str, &str)],
    ) -> Result<TokenAnswer, MicrosoftError> {
        let response = self
            .http
            .post(&metadata.token_endpoint)
            .header(reqwest::header::ACCEPT, "application/json")
            .form(form)
            .send_timed("microsoft")
            .await
            .map_err(MicrosoftError::from_reqwest)?;
        read_json(response, Some(&self.config.client_secret)).await
    }

    /// Verifies an `id_token`: RS256 with a key of the tenant's JWKS (`kid`), issuer,
    /// audience (the client id), expiry, and the `nonce` this browser was given.
    pub async fn verify_id_token(
        &self,
        metadata: &Metadata,
        id_token: &str,
        expected_nonce: &str,
    ) -> Result<IdClaims, MicrosoftError> {
        let invalid = |why: String| MicrosoftError::InvalidToken(why);
        let header = jsonwebtoken::decode_header(id_token)
            .map_err(|e| invalid(format!("unreadable header: {e}")))?;
        if header.alg != Algorithm::RS256 {
            return Err(invalid(format!("algorithm {:?}, not RS256", header.alg)));
        }
        let kid = header
            .kid
            .ok_or_else(|| invalid("no key id (kid)".into()))?;
        let jwk = self.signing_key(metadata, &kid).await?;
        let key = DecodingKey::from_jwk(&jwk).map_err(|e| invalid(format!("key {kid}: {e}")))?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_audience(&[&self.config.client_id]);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        validation.leeway = CLOCK_LEEWAY_SECONDS;
        validation.validate_nbf = true;
        let claims = jsonwebtoken::decode::<IdClaims>(id_token, &key, &validation)
            .map_err(|e| invalid(e.to_string()))?
            .claims;
        let expected_issuer = metadata
            .issuer
            .replace("{tenantid}", claims.tid.as_deref().unwrap_or("{tenantid}"));
        if claims.iss != expected_issuer {
            return Err(invalid(format!(
                "issuer {} is not {expected_issuer}",
                claims.iss
            )));
        }
        let nonce_matches = claims.nonce.as_deref().is_some_and(|n| {
            crate::crypto::constant_time_eq(n.as_bytes(), expected_nonce.as_bytes())
        });
        if !nonce_matches {
            return Err(invalid("the nonce is not this sign-in's".into()));
        }
        Ok(claims)
    }

    /// The RSA signing key `kid` of the tenant's JWKS; an unknown id reads the set again.
    async fn signing_key(&self, metadata: &Metadata, kid: &str) -> Result<Jwk, MicrosoftError> {
        let cached = self
            .cache()
            .keys
            .as_ref()
            .filter(|(at, _)| at.elapsed() < METADATA_TTL)
            .and_then(|(_, keys)| find_rsa_key(keys, kid));
        if let Some(jwk) = cached {
            return Ok(jwk);
        }
        let set: serde_json::Value = self.get_json(&metadata.jwks_uri).await?;
        // Each key on its own: one of a shape we do not know must not hide the others.
        let keys: Vec<Jwk> = set
            .get("keys")
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| MicrosoftError::Malformed("the JWKS has no keys".into()))?
            .iter()
            .filter_map(|k| serde_json::from_value::<Jwk>(k.clone()).ok())
            .collect();
        let found = find_rsa_key(&keys, kid);
        self.cache().keys = Some((Instant::now(), keys));
        found.ok_or_else(|| {
            MicrosoftError::InvalidToken(format!("no signing key {kid} in the tenant's JWKS"))
        })
    }

    async fn get_json<T: serde::de::DeserializeOwned>(&self, url: &str) -> Result<T, MicrosoftError> {
        let response = self
            .http
            .get(url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send_timed("microsoft")
            .await
            .map_err(MicrosoftError::from_reqwest)?;
        read_json(response, None).await
    }
}

fn find_rsa_key(keys: &[Jwk], kid: &str) -> Option<Jwk> {
    keys.iter()
        .find(|k| {
            k.common.key_id.as_deref() == Some(kid)
                && matches!(k.algorithm, AlgorithmParameters::RSA(_))
        })
        .cloned()
}

/// A JSON body on success; Microsoft's OAuth error object (or the status) otherwise.
async fn read_json<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
    secret: Option<&str>,
) -> Result<T, MicrosoftError> {
    let status = response.status();
    let body = response.text().await.map_err(MicrosoftError::from_reqwest)?;
    if !status.is_success() {
        #[derive(Deserialize)]
        struct OAuthError {
            error: String,
            #[serde(default)]
            error_description: String,
        }
        let (error, description) = match serde_json::from_str::<OAuthError>(&body) {
            Ok(e) => (e.error, e.error_description),
            Err(_) => (
                "http_error".to_owned(),
                super::error_message(status, &body, secret),
            ),
        };
        return Err(MicrosoftError::Answered {
            status: status.as_u16(),
            error,
            description: super::redact(&description, secret),
        });
    }
    serde_json::from_str(&body).map_err(|e| MicrosoftError::Malformed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_matches_rfc_7636_appendix_b() {
        assert_eq!(
            pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let c = Challenge::new();
        assert_eq!(c.code_verifier.len(), 43);
        assert_ne!(c.state, c.nonce);
    }

    fn claims(email: Option<&str>, upn: Option<&str>, edov: Option<serde_json::Value>) -> IdClaims {
        IdClaims {
            iss: "i".into(),
            sub: "sub-1".into(),
            oid: Some("oid-1".into()),
            tid: None,
            nonce: None,
            email: email.map(Into::into),
            preferred_username: upn.map(Into::into),
            name: None,
            xms_edov: edov,
        }
    }

    #[test]
    fn the_email_comes_from_email_else_the_username() {
        let c = claims(Some("a@school.org"), Some("b@school.org"), None);
        assert_eq!(c.verified_email(), Some("a@school.org"));
        assert_eq!(c.account_id(), "oid-1");
        let c = claims(None, Some("b@school.org"), None);
        assert_eq!(c.verified_email(), Some("b@school.org"));
        let c = claims(Some("a@school.org"), Some("b@school.org"), Some(serde_json::json!(false)));
        assert_eq!(c.verified_email(), Some("b@school.org"));
        let c = claims(Some("a@school.org"), None, Some(serde_json::json!(true)));
        assert_eq!(c.verified_email(), Some("a@school.org"));
        let c = claims(Some("a@school.org"), None, Some(serde_json::json!(1)));
        assert_eq!(c.verified_email(), Some("a@school.org"));
        let c = claims(Some("a@school.org"), None, Some(serde_json::json!(0)));
        assert_eq!(c.verified_email(), None);
        let c = claims(None, Some("not-an-address"), None);
        assert_eq!(c.verified_email(), None);
    }
}
