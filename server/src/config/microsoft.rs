//! Sign in with Microsoft's settings (`VOICEMARK_MICROSOFT_*`): docs/microsoft-signin.md.
//! The provider is offered only when the client id and secret are both set.

use super::{http_base_url, ConfigError};

/// The Microsoft identity platform (Entra ID) app registration Voicemark signs in through.
#[derive(Clone)]
pub struct MicrosoftConfig {
    /// `VOICEMARK_MICROSOFT_CLIENT_ID`: the app registration's Application (client) ID.
    pub client_id: String,
    /// `VOICEMARK_MICROSOFT_CLIENT_SECRET`: a client secret of that registration; never
    /// leaves the server except to the token endpoint.
    pub client_secret: String,
    /// `VOICEMARK_MICROSOFT_TENANT_ID`, default `organizations` (any work or school
    /// account); a tenant GUID or domain limits sign-in to that one school or trust.
    pub tenant: String,
    /// `VOICEMARK_MICROSOFT_LOGIN_URL`, default `https://login.microsoftonline.com`
    /// (a proxy or a test server), without a trailing slash.
    pub login_url: String,
    /// `VOICEMARK_GRAPH_URL`, default `https://graph.microsoft.com/v1.0`: Microsoft Graph
    /// for a task's content (docs/microsoft-graph.md), without a trailing slash.
    pub graph_url: String,
}

impl std::fmt::Debug for MicrosoftConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MicrosoftConfig")
            .field("client_id", &self.client_id)
            .field("client_secret", &"<set>")
            .field("tenant", &self.tenant)
            .field("login_url", &self.login_url)
            .field("graph_url", &self.graph_url)
            .finish()
    }
}

/// The Microsoft settings; `None` (not offered) unless the client id and secret are set.
pub(super) fn microsoft_config(
    get: &impl Fn(&str) -> Option<String>,
) -> Result<Option<MicrosoftConfig>, ConfigError> {
    let client_id = get("VOICEMARK_MICROSOFT_CLIENT_ID");
    let client_secret = get("VOICEMARK_MICROSOFT_CLIENT_SECRET");
    let (client_id, client_secret) = match (client_id, client_secret) {
        (Some(id), Some(secret)) => (id, secret),
        (None, None) => return Ok(None),
        (Some(_), None) => {
            return Err(ConfigError::Invalid {
                name: "VOICEMARK_MICROSOFT_CLIENT_SECRET",
                expected: "set when VOICEMARK_MICROSOFT_CLIENT_ID is",
                value: String::new(),
            })
        }
        (None, Some(_)) => {
            return Err(ConfigError::Invalid {
                name: "VOICEMARK_MICROSOFT_CLIENT_ID",
                expected: "set when VOICEMARK_MICROSOFT_CLIENT_SECRET is",
                value: String::new(),
            })
        }
    };
    let tenant = get("VOICEMARK_MICROSOFT_TENANT_ID").unwrap_or_else(|| "organizations".into());
    // The tenant becomes a path segment of every identity-platform URL.
    let valid_tenant = !tenant.is_empty()
        && tenant
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
    if !valid_tenant {
        return Err(ConfigError::Invalid {
            name: "VOICEMARK_MICROSOFT_TENANT_ID",
            expected: "organizations, common, a tenant id (GUID) or a tenant domain",
            value: tenant,
        });
    }
    Ok(Some(MicrosoftConfig {
        client_id,
        client_secret,
        tenant,
        login_url: http_base_url(
            "VOICEMARK_MICROSOFT_LOGIN_URL",
            get("VOICEMARK_MICROSOFT_LOGIN_URL")
                .unwrap_or_else(|| "https://login.microsoftonline.com".into()),
        )?,
        graph_url: http_base_url(
            "VOICEMARK_GRAPH_URL",
            get("VOICEMARK_GRAPH_URL")
                .unwrap_or_else(|| crate::providers::msgraph::DEFAULT_GRAPH_URL.into()),
        )?,
    }))
}

#[cfg(test)]
mod tests {
    use crate::config::tests::config;

    #[test]
    fn microsoft_is_offered_only_when_configured() {
        assert!(config(&[]).expect("defaults").microsoft.is_none());
        let c = config(&[
            ("VOICEMARK_MICROSOFT_CLIENT_ID", "11111111-2222-3333-4444-555555555555"),
            ("VOICEMARK_MICROSOFT_CLIENT_SECRET", "ms-secret-value"),
        ])
        .expect("config");
        let ms = c.microsoft.as_ref().expect("microsoft");
        assert_eq!(ms.tenant, "organizations");
        assert_eq!(ms.login_url, "https://login.microsoftonline.com");
        assert!(!format!("{c:?}").contains("ms-secret-value"));
        let c = config(&[
            ("VOICEMARK_MICROSOFT_CLIENT_ID", "id"),
            ("VOICEMARK_MICROSOFT_CLIENT_SECRET", "secret"),
            ("VOICEMARK_MICROSOFT_TENANT_ID", "northbridge.onmicrosoft.com"),
            ("VOICEMARK_MICROSOFT_LOGIN_URL", "http://127.0.0.1:3113/"),
        ])
        .expect("config");
        let ms = c.microsoft.expect("microsoft");
        assert_eq!(ms.tenant, "northbridge.onmicrosoft.com");
        assert_eq!(ms.login_url, "http://127.0.0.1:3113");
    }

    #[test]
    fn half_or_bad_microsoft_settings_are_refused() {
        let err = config(&[("VOICEMARK_MICROSOFT_CLIENT_ID", "id")]).expect_err("no secret");
        assert!(err.to_string().starts_with("VOICEMARK_MICROSOFT_CLIENT_SECRET must be set"));
        let err = config(&[
            ("VOICEMARK_MICROSOFT_CLIENT_ID", "id"),
            ("VOICEMARK_MICROSOFT_CLIENT_SECRET", "secret"),
            ("VOICEMARK_MICROSOFT_TENANT_ID", "../evil"),
        ])
        .expect_err("a bad tenant");
        assert!(err.to_string().starts_with("VOICEMARK_MICROSOFT_TENANT_ID must be"));
    }
}
