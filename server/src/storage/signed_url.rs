//! Signed URLs for the local store: `/api/uploads/{key}?expires={unix seconds}&sig={hex}`,
//! where `sig` is HMAC-SHA256, keyed by the server secret, over the method, key, expiry
//! and the promised headers. The server checks the signature, the expiry and the headers
//! before it reads a byte (`http::uploads`).

use super::sigv4::hmac_sha256;

/// Where local signed URLs point (same origin as the app).
pub const LOCAL_PREFIX: &str = "/api/uploads/";
/// Where the local store's part URLs point (uploads in parts).
pub const PARTS_PREFIX: &str = "/api/upload-parts/";

/// Signs and checks local upload and download URLs.
#[derive(Clone)]
pub struct LocalSigner {
    key: [u8; 32],
}

impl std::fmt::Debug for LocalSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LocalSigner(<key>)")
    }
}

/// What a PUT URL promises: the body's type, disposition and exact size (when the upload
/// declared one; an undeclared size signs as the empty text, which no number can be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PutTerms<'a> {
    pub key: &'a str,
    pub expires: i64,
    pub content_type: &'a str,
    pub content_disposition: &'a str,
    pub size: Option<u64>,
}

/// What a part URL promises: which part of which upload, its exact length and type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartTerms<'a> {
    pub upload_id: &'a str,
    pub part_number: u32,
    pub expires: i64,
    pub content_type: &'a str,
    pub length: u64,
}

/// What a GET URL serves: the stored file with its type and disposition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GetTerms<'a> {
    pub key: &'a str,
    pub expires: i64,
    pub content_type: &'a str,
    pub content_disposition: &'a str,
}

impl LocalSigner {
    /// A signer keyed from the server secret (its own key, so a URL signature can never
    /// be replayed as any other kind of token the secret keys).
    pub fn new(server_secret: &str) -> LocalSigner {
        LocalSigner {
            key: hmac_sha256(server_secret.as_bytes(), b"voicemark local storage urls v1"),
        }
    }

    fn sign(&self, fields: &[&str]) -> String {
        // Newline-separated: no field can contain a newline (keys and header values
        // cannot), so two different term lists never sign the same text.
        hex::encode(hmac_sha256(&self.key, fields.join("\n").as_bytes()))
    }

    pub fn put_signature(&self, terms: &PutTerms<'_>) -> String {
        self.sign(&[
            "PUT",
            terms.key,
            &terms.expires.to_string(),
            terms.content_type,
            terms.content_disposition,
            &terms.size.map(|size| size.to_string()).unwrap_or_default(),
        ])
    }

    pub fn get_signature(&self, terms: &GetTerms<'_>) -> String {
        self.sign(&[
            "GET",
            terms.key,
            &terms.expires.to_string(),
            terms.content_type,
            terms.content_disposition,
        ])
    }

    /// Signs a part URL of an upload in parts: the part's number and exact length, and
    /// the type every part must carry (docs/storage.md, "Uploads in parts").
    pub fn part_signature(&self, terms: &PartTerms<'_>) -> String {
        self.sign(&[
            "PART",
            terms.upload_id,
            &terms.part_number.to_string(),
            &terms.expires.to_string(),
            terms.content_type,
            &terms.length.to_string(),
        ])
    }

    /// The URL (path and query) of part `part_number` of the local upload `upload_id`.
    pub fn part_url(upload_id: &str, part_number: u32, expires: i64, signature: &str) -> String {
        format!("{PARTS_PREFIX}{upload_id}/{part_number}?expires={expires}&sig={signature}")
    }

    /// The URL (path and query) for `key` with `signature`.
    pub fn url(key: &str, expires: i64, signature: &str) -> String {
        format!("{LOCAL_PREFIX}{key}?expires={expires}&sig={signature}")
    }
}

/// Compares two signatures in time that does not depend on where they differ.
pub fn same_signature(a: &str, b: &str) -> bool {
    crate::crypto::constant_time_eq(a.as_bytes(), b.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(size: u64) -> PutTerms<'static> {
        PutTerms {
            key: "s/upload/abc/notes.pdf",
            expires: 1_800_000_000,
            content_type: "application/pdf",
            content_disposition: "attachment; filename=\"notes.pdf\"",
            size: Some(size),
        }
    }

    #[test]
    fn every_promised_field_is_signed() {
        let signer = LocalSigner::new("secret");
        let base = signer.put_signature(&terms(10));
        assert_eq!(base.len(), 64);
        assert_eq!(base, signer.put_signature(&terms(10)));
        assert_ne!(base, signer.put_signature(&terms(11)));
        assert_ne!(
            base,
            signer.put_signature(&PutTerms {
                size: None,
                ..terms(10)
            })
        );
        assert_ne!(
            base,
            signer.put_signature(&PutTerms {
                content_type: "text/html",
                ..terms(10)
            })
        );
        assert_ne!(
            base,
            signer.put_signature(&PutTerms {
                expires: 1_800_000_001,
                ..terms(10)
            })
        );
        assert_ne!(base, LocalSigner::new("other").put_signature(&terms(10)));
        assert!(same_signature(&base, &base.clone()));
        assert!(!same_signature(&base, &base[1..]));
    }
}
