//! Password hashing with argon2id (the argon2 crate's defaults follow OWASP's advice).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// Hashes `password` into a PHC string that records its own parameters.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// Whether `password` matches `hash`; a malformed hash never matches.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_are_argon2id() {
        let hash = hash_password("Voicemark1").expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("Voicemark1", &hash));
        assert!(!verify_password("voicemark1", &hash));
        assert!(!verify_password("Voicemark1", "not a hash"));
    }
}
