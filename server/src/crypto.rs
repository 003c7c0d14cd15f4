//! Secrets' primitives in one place: the one constant-time comparison (tokens, signatures,
//! CSRF hashes) and the one HMAC-SHA256 (S3 signatures, signed storage URLs, Stripe webhooks),
//! from RustCrypto's `hmac`.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// HMAC-SHA256 of `message` under `key` (RFC 2104; any key length).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
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
