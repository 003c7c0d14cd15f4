//! `GET /api/auth/providers`: the two ways to sign in, as Auth.js lists them.

use axum::extract::State;
use axum::Json;

use crate::state::AppState;

pub async fn get_providers(State(state): State<AppState>) -> Json<serde_json::Value> {
    let base = format!("{}/api/auth", state.config.public_url);
    Json(serde_json::json!({
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
    }))
}
