//! Identifiers and secrets. Row ids are UUIDv7 (time-ordered for index locality, with 74
//! random bits so they cannot be enumerated); public tokens carry 256 random bits.

use base64::Engine;
use rand::RngCore;

/// A new row id.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// A new random token for links and cookies: 32 bytes from the OS, base64url without padding.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_distinct() {
        let a = new_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, new_token());
        assert_ne!(new_id(), new_id());
    }
}
