//! `GET /api/auth/providers`: the ways to sign in, as Auth.js lists them; Microsoft
//! (`azure-ad`) only when it is configured.

use axum::extract::State;
use axum::Json;

use crate::state::AppState;

pub async fn get_providers(State(state): State<AppState>) -> Json<serde_json::Value> {
    let base = format!("{}/api/auth", state.config.public_url);
    let mut providers = serde_json::json!({
        "credentials": {
            "id": "credentials", "name": "Credentials", "type": "credentials",
            "signinUrl": format!("{base}/signin/credentials"),
            "callbackUrl": format!("{base}/callback/credentials"),
        },
        "email": {
            "id": "email", "name": "Email", "type": "email",
            "signinUrl": format!("{base}/signin/email"),
            "callbackUrl": format!("{base}/callback/email"),
        },
    });
    if state.providers.microsoft.is_some() {
        use super::microsoft::{PROVIDER, PROVIDER_NAME};
        providers[PROVIDER] = serde_json::json!({
            "id": PROVIDER, "name": PROVIDER_NAME, "type": "oauth",
            "signinUrl": format!("{base}/signin/{PROVIDER}"),
            "callbackUrl": format!("{base}/callback/{PROVIDER}"),
        });
    }
    Json(providers)
}
