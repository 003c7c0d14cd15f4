//! Signed per-recipient links (docs/reach.md, "Opened"). Every notification e-mail carries
//! a link `{public_url}/api/reach/open/{token}` where the token is the delivery's id and a
//! signature over it (`{id}~{signature}`): following it records the delivery as opened and
//! redirects to the real page. The signature (128 bits of HMAC-SHA256 under a key derived from the server secret)
//! means nobody can mark someone else's message opened by guessing or editing a link.

use base64::Engine;

use crate::crypto::{constant_time_eq, hmac_sha256};

/// Bytes of the HMAC kept in a link.
const SIGNATURE_BYTES: usize = 16;

fn key(secret: &str) -> [u8; 32] {
    hmac_sha256(secret.as_bytes(), b"voicemark reach links v1")
}

fn signature(secret: &str, delivery_id: &str) -> Vec<u8> {
    hmac_sha256(&key(secret), delivery_id.as_bytes())[..SIGNATURE_BYTES].to_vec()
}

/// The link token of delivery `delivery_id`: `{id}~{signature}` (`~` is in neither a
/// UUID nor base64url, and a `.` would make the page path look like a file's).
pub fn token(secret: &str, delivery_id: &str) -> String {
    let sig =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(signature(secret, delivery_id));
    format!("{delivery_id}~{sig}")
}

/// The delivery id in `token`, if its signature holds.
pub fn verify<'a>(secret: &str, token: &'a str) -> Option<&'a str> {
    let (id, sig) = token.rsplit_once('~')?;
    let sig = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(sig)
        .ok()?;
    constant_time_eq(&sig, &signature(secret, id)).then_some(id)
}

/// The tracked link to put in an e-mail.
pub fn open_link(public_url: &str, secret: &str, delivery_id: &str) -> String {
    format!(
        "{}/api/reach/open/{}",
        public_url.trim_end_matches('/'),
        token(secret, delivery_id)
    )
}

/// The invisible image's address, for a school that counts opens by image too
/// (`organisations::reach_pixel_on`; docs/reach.md).
pub fn pixel_link(public_url: &str, secret: &str, delivery_id: &str) -> String {
    format!(
        "{}/api/reach/seen/{}",
        public_url.trim_end_matches('/'),
        token(secret, delivery_id)
    )
}

/// The `<img>` of [`pixel_link`], for the end of an e-mail's HTML.
pub fn pixel_html(public_url: &str, secret: &str, delivery_id: &str) -> String {
    format!(
        "<img src=\"{}\" width=\"1\" height=\"1\" alt=\"\" style=\"display:block;border:0\">\n",
        pixel_link(public_url, secret, delivery_id)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_opens_only_with_its_own_signature() {
        let t = token("s3cret", "0193-abc");
        assert_eq!(verify("s3cret", &t), Some("0193-abc"));
        assert_eq!(verify("other", &t), None);
        let forged = t.replacen("0193-abc", "0193-abd", 1);
        assert_eq!(verify("s3cret", &forged), None);
        assert_eq!(verify("s3cret", "no-signature"), None);
        assert!(open_link("https://vm.test/", "s3cret", "x")
            .starts_with("https://vm.test/api/reach/open/x~"));
    }
}
