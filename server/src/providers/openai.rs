//! What the OpenAI-compatible clients (`chat`, `vision`, `transcription`) share: one HTTP
//! client, the endpoint's URL, the model and the optional key. A `Debug` print (a log, a
//! panic) never shows the key, only whether one is set.

/// One configured OpenAI-compatible endpoint.
#[derive(Clone)]
pub struct Endpoint {
    pub http: reqwest::Client,
    pub url: String,
    pub model: String,
    pub api_key: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .finish()
    }
}

impl Endpoint {
    /// A POST to the endpoint, with the key as a bearer token when one is set.
    pub fn post(&self) -> reqwest::RequestBuilder {
        let request = self.http.post(&self.url);
        match &self.api_key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    }

    /// The key, to redact from the server's error messages.
    pub fn secret(&self) -> Option<&str> {
        self.api_key.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debug_print_never_shows_the_key() {
        let endpoint = Endpoint {
            http: reqwest::Client::new(),
            url: "https://models.example/v1/chat/completions".into(),
            model: "m".into(),
            api_key: Some("sk-secret-123".into()),
        };
        let printed = format!("{endpoint:?}");
        assert!(printed.contains("<set>") && printed.contains("models.example"), "{printed}");
        assert!(!printed.contains("sk-secret-123"), "{printed}");
    }
}
