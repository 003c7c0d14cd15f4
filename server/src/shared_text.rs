//! Text encoded once and sent to many clients (issue 15: the roster): kept as shared bytes
//! with a 128-bit hash for its ETag and, made once in the background, its deflated form, so
//! a gzip answer is put together without compressing it again (`rpc::wire`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use axum::body::Bytes;

/// Text sent to many clients, with what sending it again needs: its hash (an ETag) and,
/// once made, its deflated form.
pub struct SharedText {
    pub text: Bytes,
    /// 128-bit hash of `text`: the weak ETag of any answer made only of shared parts.
    pub hash: u128,
    deflated: OnceLock<Deflated>,
    compressing: AtomicBool,
    /// Whether the text is kept to be sent again, so worth compressing.
    kept: bool,
}

/// `text` as raw deflate blocks ending in a sync flush (byte-aligned, never final), so it
/// can sit between other blocks of one gzip stream, and the CRC-32 of `text`.
#[derive(Clone)]
pub struct Deflated {
    pub blocks: Bytes,
    pub crc: u32,
}

impl SharedText {
    /// Text kept and sent to many clients.
    pub fn new(text: String) -> SharedText {
        SharedText::made(text, true)
    }

    /// Text that is sent once and thrown away (its cache is off): never compressed in the
    /// background, as no one would use the compressed form.
    pub fn sent_once(text: String) -> SharedText {
        SharedText::made(text, false)
    }

    fn made(text: String, kept: bool) -> SharedText {
        let hash = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
        SharedText {
            text: Bytes::from(text),
            hash,
            deflated: OnceLock::new(),
            compressing: AtomicBool::new(false),
            kept,
        }
    }

    /// The deflated form when it is ready. The first asker starts compressing it in the
    /// background (best compression, once per answer: a few tens of milliseconds for the
    /// roster) and is answered uncompressed meanwhile, so no request waits for it.
    /// The same text read again (the cache's time ran out, or a write emptied it and
    /// changed nothing here) finds the form made before, by its hash.
    pub fn deflated(self: &Arc<Self>) -> Option<&Deflated> {
        if let Some(ready) = self.deflated.get() {
            return Some(ready);
        }
        if !self.kept {
            return None;
        }
        if let Some(made) = lock(&MADE).get(&self.hash).cloned() {
            return Some(self.deflated.get_or_init(|| made));
        }
        if !self.compressing.swap(true, Ordering::AcqRel) {
            let shared = self.clone();
            tokio::task::spawn_blocking(move || {
                let made = deflate_blocks(&shared.text, 9);
                let mut kept = lock(&MADE);
                if kept.len() >= MADE_KEPT {
                    kept.clear();
                }
                kept.insert(shared.hash, made.clone());
                drop(kept);
                let _ = shared.deflated.set(made);
            });
        }
        None
    }

    /// The bytes this text holds while it is kept: the text, and its compressed form once
    /// made, or, until then, as much as that form can take at most ([`deflate_bound`]). So
    /// what a cache counts for it only falls as time passes (`cache::ProcessCache`'s byte
    /// bound, `models::roster::ROSTERS`). Text sent once is never compressed: only the text.
    pub fn bytes_held(&self) -> usize {
        let compressed = match self.deflated.get() {
            Some(made) => made.blocks.len(),
            None if self.kept => deflate_bound(self.text.len()),
            None => 0,
        };
        self.text.len() + compressed
    }

    /// Compresses now (tests and benchmarks).
    pub fn deflate_now(&self) -> &Deflated {
        self.deflated.get_or_init(|| deflate_blocks(&self.text, 9))
    }
}

/// How many deflated forms are kept by the hash of their text (a few tens of KB each).
const MADE_KEPT: usize = 64;
static MADE: LazyLock<Mutex<HashMap<u128, Deflated>>> = LazyLock::new(Default::default);

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The most bytes [`deflate_blocks`] makes of `len` bytes: deflate never grows data by more
/// than a stored block's 5-byte header per 64 KB (zlib's `deflateBound` allows a little over
/// `len / 4096 + 13`), and each sync flush adds an empty stored block of 5 bytes; the
/// allowance here, `len / 1024 + 64`, covers both with room to spare.
pub fn deflate_bound(len: usize) -> usize {
    len + len / 1024 + 64
}

/// `data` as raw deflate at `level`, ending in a sync flush; with its CRC-32.
pub fn deflate_blocks(data: &[u8], level: u32) -> Deflated {
    use flate2::{Compress, Compression, FlushCompress};
    let mut compress = Compress::new(Compression::new(level), false);
    let mut out = Vec::with_capacity(data.len() / 3 + 64);
    let mut input = data;
    loop {
        if out.capacity() - out.len() < 1024 {
            out.reserve(out.capacity().max(4096));
        }
        let before = compress.total_in();
        compress
            .compress_vec(input, &mut out, FlushCompress::Sync)
            .expect("deflating into a growing buffer cannot fail");
        let read = (compress.total_in() - before) as usize;
        input = &input[read..];
        // Done when all is read and the flush fitted (space was left over), as zlib says.
        if input.is_empty() && out.capacity() > out.len() {
            break;
        }
    }
    // Kept as long as the text is: give back what the growing buffer had spare.
    out.shrink_to_fit();
    let mut crc = crc32fast::Hasher::new();
    crc.update(data);
    Deflated { blocks: Bytes::from(out), crc: crc.finalize() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[tokio::test]
    async fn the_same_text_read_again_finds_its_compressed_form() {
        let text = || (0..2_000).map(|i| format!("[{i},\"again\"],")).collect::<String>();
        let first = Arc::new(SharedText::new(text()));
        assert!(first.deflated().is_none(), "made in the background");
        for _ in 0..200 {
            if first.deflated().is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(first.deflated().is_some());
        let again = Arc::new(SharedText::new(text()));
        assert!(again.deflated().is_some(), "found by its hash at once");
        assert_eq!(again.deflated().map(|d| d.crc), first.deflated().map(|d| d.crc));
    }

    #[tokio::test]
    async fn text_sent_once_is_never_compressed_in_the_background() {
        let text = || (0..2_000).map(|i| format!("[{i},\"once\"],")).collect::<String>();
        let once = Arc::new(SharedText::sent_once(text()));
        assert!(once.deflated().is_none());
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(once.deflated().is_none(), "no compression was started");
        assert!(!once.compressing.load(Ordering::Acquire));
        // Asked for now, it is made as for any text.
        assert_eq!(once.deflate_now().crc, crc32fast::hash(text().as_bytes()));
    }

    #[test]
    fn the_bytes_held_only_fall_once_the_compressed_form_is_made() {
        let text = || (0..2_000).map(|i| format!("{{\"id\":\"{i:08}\",\"held\":true}},")).collect::<String>();
        let kept = Arc::new(SharedText::new(text()));
        let len = kept.text.len();
        assert_eq!(kept.bytes_held(), len + deflate_bound(len), "room for the form still to come");
        let made = kept.deflate_now().blocks.len();
        assert!(made <= deflate_bound(len));
        assert_eq!(kept.bytes_held(), len + made);
        assert_eq!(SharedText::sent_once(text()).bytes_held(), len);
        // Even data that does not compress fits in the allowance.
        let noise: Vec<u8> = (0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        assert!(deflate_blocks(&noise, 9).blocks.len() <= deflate_bound(noise.len()));
        assert!(deflate_blocks(b"", 9).blocks.len() <= deflate_bound(0));
    }

    #[test]
    fn deflated_blocks_decode_to_the_text() {
        let text: String = (0..5_000).map(|i| format!("{{\"id\":\"{i:08}\",\"name\":\"Ada\"}},")).collect();
        let deflated = deflate_blocks(text.as_bytes(), 9);
        assert!(deflated.blocks.len() < text.len() / 4, "{} bytes", deflated.blocks.len());
        assert!(deflated.blocks.ends_with(&[0, 0, 0xff, 0xff]), "a sync flush ends on a byte");
        // Never final by itself: a final empty stored block ends the stream.
        let mut stream = deflated.blocks.to_vec();
        stream.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
        let mut back = String::new();
        flate2::read::DeflateDecoder::new(&stream[..])
            .read_to_string(&mut back)
            .expect("inflates");
        assert_eq!(back, text);
        assert_eq!(deflated.crc, crc32fast::hash(text.as_bytes()));
    }
}
