//! `preferences.*`: the public `/preferences/{token}` page. The token in an e-mail's link is
//! the only credential: no sign-in, and an unknown token is NOT_FOUND.

pub mod get;
pub mod update;

use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{ErrorCode, RpcError};
use core_wasm::NotificationFrequency;

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Query "preferences.get" => get),
        procedure!(Mutation "preferences.update" => update),
    ]
}

rpc_type! {
    /// One address's e-mail choices, as the preferences page shows them.
    pub struct PublicPreferences {
        pub email: String,
        pub general: bool,
        pub assignment: bool,
        pub frequency: NotificationFrequency,
        pub language: String,
    }
}

/// The answer to a link that matches no address.
pub fn invalid_link() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "This link is invalid.")
}

/// A token as links carry it: base64url, 20 to 100 characters (anything else matches nothing
/// and is not worth a query).
pub fn plausible_token(token: &str) -> bool {
    (20..=100).contains(&token.len())
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
