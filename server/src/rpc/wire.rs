//! The body of a tRPC answer, put together without copying shared answers (issue 15):
//! envelopes and small outputs are written into one buffer, large outputs and shared
//! answers ([`crate::shared_text::SharedText`]) are sent as their own chunks.
//!
//! When the client accepts gzip, an answer with shared parts is one gzip stream made of
//! parts: the envelopes as stored blocks, other large outputs deflated quickly for this
//! call, each shared answer's blocks compressed once (RFC 1951 blocks ending in a sync
//! flush follow each other; the CRC-32s are combined). A shared answer whose best form is
//! still being made in the background (its first read) is deflated quickly for this call
//! too, as other large outputs are. Such answers are marked [`SelfEncoded`] so the
//! compression layer leaves them alone. An answer made only of shared parts carries a
//! weak ETag, and `If-None-Match` gets 304.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::Bytes;
use axum::http::{header, HeaderMap};
use http_body::{Frame, SizeHint};

use crate::rpc::encoded::Encoded;
use crate::shared_text::{deflate_blocks, Deflated, SharedText};

/// Outputs at least this long travel as their own chunk instead of being copied.
const OWN_CHUNK: usize = 8 * 1024;
/// In a gzip answer, outputs at least this long are deflated for the call; shorter ones
/// (and envelopes) are stored.
const DEFLATE_ABOVE: usize = 1024;

/// A response extension: the body is already encoded as it should be sent.
#[derive(Debug, Clone, Copy)]
pub struct SelfEncoded;

enum Piece {
    Small(Vec<u8>),
    Text(Bytes),
    Shared(Arc<SharedText>),
}

/// Builds an answer's body piece by piece.
#[derive(Default)]
pub struct BodyBuilder {
    pieces: Vec<Piece>,
    pending: Vec<u8>,
    /// Whether an output was encoded for this call (such answers are never kept).
    own_output: bool,
}

/// A finished body, identity or gzip.
pub struct Built {
    pub body: axum::body::Body,
    pub gzip: bool,
}

impl BodyBuilder {
    pub fn small(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    pub fn output(&mut self, output: Encoded) {
        self.own_output |= matches!(output, Encoded::Text(_));
        match output {
            Encoded::Text(text) if text.len() < OWN_CHUNK => self.small(text.as_bytes()),
            Encoded::Text(text) => self.push(Piece::Text(Bytes::from(text))),
            Encoded::Shared(shared) => self.push(Piece::Shared(shared)),
        }
    }

    fn push(&mut self, piece: Piece) {
        if !self.pending.is_empty() {
            self.pieces.push(Piece::Small(std::mem::take(&mut self.pending)));
        }
        self.pieces.push(piece);
    }

    fn pieces(mut self) -> Vec<Piece> {
        if !self.pending.is_empty() {
            self.pieces.push(Piece::Small(self.pending));
        }
        self.pieces
    }

    /// Whether a shared answer is part of the body.
    pub fn has_shared(&self) -> bool {
        self.pieces.iter().any(|piece| matches!(piece, Piece::Shared(_)))
    }

    /// The weak ETag of a body whose outputs are all shared: a hash of its envelopes and of
    /// each shared answer's hash.
    pub fn etag(&self) -> Option<String> {
        if self.own_output || !self.has_shared() {
            return None;
        }
        let mut described = Vec::new();
        for piece in &self.pieces {
            match piece {
                Piece::Small(bytes) => described.extend_from_slice(bytes),
                Piece::Shared(shared) => described.extend_from_slice(&shared.hash.to_le_bytes()),
                Piece::Text(_) => {}
            }
        }
        described.extend_from_slice(&self.pending);
        Some(format!("W/\"{:032x}\"", xxhash_rust::xxh3::xxh3_128(&described)))
    }

    /// The body: gzip when `gzip` is accepted and a shared answer is part of it (the
    /// compression layer compresses the others).
    pub fn build(self, accepts_gzip: bool) -> Built {
        let pieces = self.pieces();
        if accepts_gzip && pieces.iter().any(|piece| matches!(piece, Piece::Shared(_))) {
            // Asks each shared answer for its best form, so each starts compressing.
            let forms: Vec<Option<Deflated>> = pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Shared(shared) => shared.deflated().cloned(),
                    _ => None,
                })
                .collect();
            return Built { body: gzip(pieces.into_iter().zip(forms).collect()), gzip: true };
        }
        let chunks = pieces
            .into_iter()
            .map(|piece| match piece {
                Piece::Small(bytes) => Bytes::from(bytes),
                Piece::Text(bytes) => bytes,
                Piece::Shared(shared) => shared.text.clone(),
            })
            .collect();
        Built { body: Chunks::body(chunks), gzip: false }
    }
}

/// One gzip member (RFC 1952) made of the pieces' deflate blocks, each shared answer with
/// the compressed form `build` found ready.
fn gzip(pieces: Vec<(Piece, Option<Deflated>)>) -> axum::body::Body {
    // ID1 ID2, CM = deflate, no flags, no time, no extra flags, OS unknown.
    const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    let mut chunks = vec![Bytes::from_static(&HEADER)];
    let mut crc = crc32fast::Hasher::new();
    let mut length: u64 = 0;
    let mut stored = Vec::new();
    for piece in pieces {
        match piece {
            (Piece::Small(bytes), _) => {
                crc.update(&bytes);
                length += bytes.len() as u64;
                stored_blocks(&bytes, &mut stored);
            }
            (Piece::Text(bytes), _) if bytes.len() < DEFLATE_ABOVE => {
                crc.update(&bytes);
                length += bytes.len() as u64;
                stored_blocks(&bytes, &mut stored);
            }
            (Piece::Text(bytes), _) => {
                let deflated = deflate_blocks(&bytes, 1);
                crc.combine(&crc32fast::Hasher::new_with_initial_len(deflated.crc, bytes.len() as u64));
                length += bytes.len() as u64;
                flush(&mut stored, &mut chunks);
                chunks.push(deflated.blocks);
            }
            (Piece::Shared(shared), form) => {
                // Its best form while that is being made: deflated quickly for this call.
                let form = form.unwrap_or_else(|| deflate_blocks(&shared.text, 1));
                crc.combine(&crc32fast::Hasher::new_with_initial_len(form.crc, shared.text.len() as u64));
                length += shared.text.len() as u64;
                flush(&mut stored, &mut chunks);
                chunks.push(form.blocks);
            }
        }
    }
    // The last block: empty, stored, final.
    stored.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    stored.extend_from_slice(&crc.finalize().to_le_bytes());
    stored.extend_from_slice(&(length as u32).to_le_bytes());
    flush(&mut stored, &mut chunks);
    Chunks::body(chunks)
}

fn flush(stored: &mut Vec<u8>, chunks: &mut Vec<Bytes>) {
    if !stored.is_empty() {
        chunks.push(Bytes::from(std::mem::take(stored)));
    }
}

/// `bytes` as non-final stored blocks (at most 65,535 bytes each; each starts on a byte,
/// which the sync flush before it guarantees).
fn stored_blocks(bytes: &[u8], out: &mut Vec<u8>) {
    for block in bytes.chunks(u16::MAX as usize) {
        let len = block.len() as u16;
        out.push(0);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
}

/// Whether `Accept-Encoding` allows gzip (`gzip`, `x-gzip` or `*`, with a q above 0).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|param| {
                let param = param.trim();
                param
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            !refused && ["gzip", "x-gzip", "*"].iter().any(|known| name.eq_ignore_ascii_case(known))
        })
}

/// Whether `If-None-Match` names `etag` (weak comparison) or is `*`.
pub fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    let ours = opaque(etag);
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|tag| tag.trim() == "*" || opaque(tag) == ours)
}

/// A body sent as a list of chunks, with its exact length.
pub struct Chunks {
    chunks: VecDeque<Bytes>,
    remaining: u64,
}

impl Chunks {
    pub fn body(chunks: Vec<Bytes>) -> axum::body::Body {
        let remaining = chunks.iter().map(|chunk| chunk.len() as u64).sum();
        axum::body::Body::new(Chunks { chunks: chunks.into(), remaining })
    }
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        Poll::Ready(this.chunks.pop_front().map(|chunk| {
            this.remaining -= chunk.len() as u64;
            Ok(Frame::data(chunk))
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.chunks.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    async fn collect(body: axum::body::Body) -> Vec<u8> {
        axum::body::to_bytes(body, usize::MAX).await.expect("body").to_vec()
    }

    fn gunzip(bytes: &[u8]) -> String {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes).read_to_string(&mut text).expect("one valid gzip member");
        text
    }

    fn shared(text: String) -> Arc<SharedText> {
        let shared = Arc::new(SharedText::new(text));
        shared.deflate_now();
        shared
    }

    fn sample() -> BodyBuilder {
        let roster: String = (0..3_000).map(|i| format!("{{\"id\":\"{i:06}\",\"forename\":\"Ada\"}},")).collect();
        let big: String = (0..2_000).map(|i| format!("[{i},\"x\"],")).collect();
        let mut body = BodyBuilder::default();
        body.small(b"[{\"result\":{\"data\":");
        body.output(Encoded::Shared(shared(format!("{{\"json\":[{roster}0]}}"))));
        body.small(b"}},{\"result\":{\"data\":");
        body.output(Encoded::Text("{\"json\":631}".into()));
        body.small(b"}},{\"result\":{\"data\":");
        body.output(Encoded::Text(format!("{{\"json\":[{big}0]}}")));
        body.small(b"}},");
        body.small(&vec![b' '; 70_000]);
        body.small(b"{\"result\":{\"data\":");
        body.output(Encoded::Text("{\"json\":\"é, and ünïcode\"}".into()));
        body.small(b"}}]");
        body
    }

    #[tokio::test]
    async fn a_gzip_answer_put_together_from_parts_is_the_same_text() {
        let plain = collect(sample().build(false).body).await;
        let built = sample().build(true);
        assert!(built.gzip);
        let zipped = collect(built.body).await;
        // 70 KB of it are envelope text, stored as it is.
        assert!(zipped.len() < plain.len() / 2, "{} of {}", zipped.len(), plain.len());
        assert_eq!(gunzip(&zipped).as_bytes(), &plain[..]);
        let text = String::from_utf8(plain).expect("UTF-8");
        assert!(text.starts_with("[{\"result\":{\"data\":{\"json\":[{\"id\":\"000000\""), "{}", &text[..60]);
        assert!(text.ends_with("{\"json\":\"é, and ünïcode\"}}}]"));
    }

    #[tokio::test]
    async fn a_shared_answer_not_yet_compressed_is_deflated_quickly_for_its_first_read() {
        let roster: String = (0..3_000).map(|i| format!("{{\"id\":\"{i:06}\",\"forename\":\"Ada\"}},")).collect();
        let text = format!("{{\"json\":[{roster}0]}}");
        for shared in [SharedText::new(text.clone()), SharedText::sent_once(text.clone())] {
            let shared = Arc::new(shared);
            let mut body = BodyBuilder::default();
            body.output(Encoded::Shared(shared.clone()));
            let built = body.build(true);
            assert!(built.gzip);
            let zipped = collect(built.body).await;
            assert!(zipped.len() < text.len() / 5, "{} of {}", zipped.len(), text.len());
            assert_eq!(gunzip(&zipped), text);
            // Without gzip, the text as it is.
            let mut plain = BodyBuilder::default();
            plain.output(Encoded::Shared(shared));
            let built = plain.build(false);
            assert!(!built.gzip);
            assert_eq!(collect(built.body).await, text.as_bytes());
        }
    }

    #[test]
    fn only_an_answer_of_shared_parts_has_an_etag_and_it_follows_the_content() {
        assert!(sample().etag().is_none(), "parts written for this call");
        let mut small_own = BodyBuilder::default();
        small_own.output(Encoded::Shared(shared("{\"json\":[1]}".into())));
        small_own.output(Encoded::Text("{\"json\":0}".into()));
        assert!(small_own.etag().is_none(), "a small part written for this call");
        let one = |text: &str| {
            let mut body = BodyBuilder::default();
            body.small(b"[{\"result\":{\"data\":");
            body.output(Encoded::Shared(Arc::new(SharedText::new(text.into()))));
            body.small(b"}}]");
            body.etag().expect("an etag")
        };
        assert_eq!(one("{\"json\":[1]}"), one("{\"json\":[1]}"));
        assert_ne!(one("{\"json\":[1]}"), one("{\"json\":[2]}"));
        assert!(one("{\"json\":[1]}").starts_with("W/\""));
    }

    #[test]
    fn reads_accept_encoding_and_if_none_match() {
        let headers = |name: header::HeaderName, value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(name, value.parse().expect("header"));
            headers
        };
        assert!(accepts_gzip(&headers(header::ACCEPT_ENCODING, "gzip, deflate, br, zstd")));
        assert!(accepts_gzip(&headers(header::ACCEPT_ENCODING, "br;q=1.0, GZIP;q=0.5")));
        assert!(!accepts_gzip(&headers(header::ACCEPT_ENCODING, "gzip;q=0, br")));
        assert!(!accepts_gzip(&headers(header::ACCEPT_ENCODING, "identity")));
        assert!(!accepts_gzip(&HeaderMap::new()));
        let tag = "W/\"abc\"";
        assert!(none_match(&headers(header::IF_NONE_MATCH, "W/\"abc\""), tag));
        assert!(none_match(&headers(header::IF_NONE_MATCH, "\"x\", \"abc\""), tag));
        assert!(none_match(&headers(header::IF_NONE_MATCH, "*"), tag));
        assert!(!none_match(&headers(header::IF_NONE_MATCH, "W/\"abd\""), tag));
        assert!(!none_match(&HeaderMap::new(), tag));
    }
}
