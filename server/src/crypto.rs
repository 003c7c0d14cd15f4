//! Secrets' primitives in one place: the one constant-time comparison (tokens, signatures,
//! CSRF hashes), the one HMAC-SHA256 (S3 signatures, signed storage URLs, Stripe webhooks),
//! from RustCrypto's `hmac`, and [`SecretBox`], which seals secrets kept for a school (MIS
//! tokens, Microsoft tokens) with AES-256-GCM before they reach the database
//! (docs/security.md, "Secrets at rest").

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The prefix of a sealed value: the format's version, so a later key or cipher can be told
/// apart from this one.
const SEALED_PREFIX: &str = "v1:";
/// AES-GCM's standard 96-bit nonce, random per sealing.
const NONCE_BYTES: usize = 12;
/// HKDF's `info` when the key is derived from the server secret.
const DERIVE_INFO: &[u8] = b"voicemark at-rest v1";

/// Seals and opens secrets at rest with one 256-bit key (`VOICEMARK_ENCRYPTION_KEY`, or
/// derived from the server secret). A sealed value is `v1:<base64(nonce || ciphertext)>`;
/// the ciphertext carries GCM's tag, so a changed byte or another key fails to open.
#[derive(Clone)]
pub struct SecretBox {
    cipher: Aes256Gcm,
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(<key>)")
    }
}

/// Why a sealed value could not be opened (never says more: no oracle for an attacker).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    #[error("the stored secret is not in the sealed format")]
    Format,
    #[error("the stored secret cannot be opened with this server's key (changed key or altered value)")]
    Key,
}

impl SecretBox {
    /// A box with this exact key.
    pub fn new(key: &[u8; 32]) -> SecretBox {
        SecretBox {
            cipher: Aes256Gcm::new(key.into()),
        }
    }

    /// A box whose key is HKDF-SHA256 of `secret` (no salt, info "voicemark at-rest v1").
    pub fn derived_from(secret: &str) -> SecretBox {
        let hk = hkdf::Hkdf::<Sha256>::new(None, secret.as_bytes());
        let mut key = [0u8; 32];
        let Ok(()) = hk.expand(DERIVE_INFO, &mut key) else {
            unreachable!("32 bytes is within HKDF-SHA256's output limit")
        };
        SecretBox::new(&key)
    }

    /// `plain` sealed with a fresh random nonce: `v1:<base64(nonce || ciphertext)>`.
    pub fn seal(&self, plain: &str) -> String {
        let nonce_bytes: [u8; NONCE_BYTES] = rand::random();
        let nonce = Nonce::from_slice(&nonce_bytes);
        let Ok(ciphertext) = self.cipher.encrypt(nonce, plain.as_bytes()) else {
            unreachable!("AES-GCM encrypts any message shorter than 64 GiB")
        };
        let mut out = Vec::with_capacity(NONCE_BYTES + ciphertext.len());
        out.extend_from_slice(&nonce_bytes);
        out.extend_from_slice(&ciphertext);
        format!("{SEALED_PREFIX}{}", BASE64.encode(out))
    }

    /// The plain text of a value made by [`SecretBox::seal`] with the same key.
    pub fn open(&self, sealed: &str) -> Result<String, OpenError> {
        let encoded = sealed.strip_prefix(SEALED_PREFIX).ok_or(OpenError::Format)?;
        let bytes = BASE64.decode(encoded).map_err(|_| OpenError::Format)?;
        if bytes.len() < NONCE_BYTES + 16 {
            return Err(OpenError::Format);
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_BYTES);
        let plain = self
            .cipher
            .decrypt(Nonce::from_slice(nonce), ciphertext)
            .map_err(|_| OpenError::Key)?;
        String::from_utf8(plain).map_err(|_| OpenError::Format)
    }
}

/// A 32-byte key written in base64 (`VOICEMARK_ENCRYPTION_KEY`), or `None` when it is not one.
pub fn parse_key(base64_key: &str) -> Option<[u8; 32]> {
    BASE64
        .decode(base64_key.trim())
        .ok()
        .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
}

/// HMAC-SHA256 of `message` under `key` (RFC 2104; any key length).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(key) else {
        unreachable!("HMAC accepts keys of any length")
    };
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// Whether `a` and `b` are equal, in time that depends only on their lengths (not on where
/// they differ), so a secret cannot be guessed byte by byte from response times.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_only_when_every_byte_is() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(constant_time_eq(b"", b""));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"Secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secrets"));
    }

    #[test]
    fn sealed_secrets_open_back_only_untouched_and_with_their_key() {
        let sealer = SecretBox::new(&[7u8; 32]);
        let sealed = sealer.seal("wonde-token-123");
        assert!(sealed.starts_with("v1:"), "{sealed}");
        assert!(!sealed.contains("wonde-token-123"));
        assert_ne!(sealed, sealer.seal("wonde-token-123"), "a fresh nonce each time");
        assert_eq!(sealer.open(&sealed).as_deref(), Ok("wonde-token-123"));
        assert_eq!(sealer.open(&sealer.seal("")).as_deref(), Ok(""));

        // One flipped bit anywhere (nonce, ciphertext or tag) fails to open.
        let mut bytes = BASE64.decode(&sealed[3..]).expect("base64");
        for at in [0, NONCE_BYTES, bytes.len() - 1] {
            bytes[at] ^= 1;
            let tampered = format!("v1:{}", BASE64.encode(&bytes));
            assert_eq!(sealer.open(&tampered), Err(OpenError::Key));
            bytes[at] ^= 1;
        }
        assert_eq!(SecretBox::new(&[8u8; 32]).open(&sealed), Err(OpenError::Key));
        assert_eq!(sealer.open("wonde-token-123"), Err(OpenError::Format));
        assert_eq!(sealer.open("v1:!!"), Err(OpenError::Format));
        assert_eq!(sealer.open("v1:AAAA"), Err(OpenError::Format));
    }

    #[test]
    fn a_derived_key_depends_on_the_secret_only() {
        let sealed = SecretBox::derived_from("server secret").seal("x");
        assert_eq!(SecretBox::derived_from("server secret").open(&sealed).as_deref(), Ok("x"));
        assert_eq!(SecretBox::derived_from("other secret").open(&sealed), Err(OpenError::Key));
        assert_eq!(parse_key(&BASE64.encode([1u8; 32])), Some([1u8; 32]));
        assert_eq!(parse_key(&BASE64.encode([1u8; 31])), None);
        assert_eq!(parse_key("not base64"), None);
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2, then test case 6: a key longer than the block is hashed first.
        assert_eq!(
            hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex::encode(hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }
}
