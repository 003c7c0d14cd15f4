//! What a shared answer's first read costs when it is compressed for that read (deflate
//! level 1, `rpc::wire`) rather than sent as it is until its best form (level 9) is made
//! in the background. `cargo bench -p voicemark-server --bench first_read`.

use std::hint::black_box;
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use voicemark::rpc::encoded::Encoded;
use voicemark::rpc::wire::BodyBuilder;
use voicemark::shared_text::{deflate_blocks, SharedText};

/// A 2,000-pupil roster as `school.listStudents` encodes it (ids, names, year and form
/// group), about 230 KB: issue 15's school.
fn roster() -> String {
    const FORENAMES: [&str; 8] = ["Amelia", "Oliver", "Isla", "George", "Ava", "Noah", "Mia", "Leo"];
    const SURNAMES: [&str; 8] = ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies"];
    let pupils: Vec<String> = (0..2_000u32)
        .map(|i| {
            let hash = i.wrapping_mul(2_654_435_761);
            format!(
                "{{\"id\":\"0193a{:03x}-{:04x}-7{:03x}-8{:03x}-{:012x}\",\"forename\":\"{}\",\"surname\":\"{}\",\"yearGroup\":{{\"name\":\"Year {}\"}},\"formGroup\":{{\"name\":\"{}{}\"}}}}",
                i % 4096,
                hash & 0xffff,
                (hash >> 4) & 0xfff,
                (hash >> 8) & 0xfff,
                u64::from(hash) * 7_919,
                FORENAMES[(hash % 8) as usize],
                SURNAMES[((hash >> 3) % 8) as usize],
                7 + i % 7,
                7 + i % 7,
                ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K"][(i / 7 % 10) as usize],
            )
        })
        .collect();
    format!("{{\"json\":[{}]}}", pupils.join(","))
}

/// The body of `[roster]` as a tRPC batch answers it.
fn body(shared: Arc<SharedText>, gzip: bool) -> axum::body::Body {
    let mut body = BodyBuilder::default();
    body.small(b"[{\"result\":{\"data\":");
    body.output(Encoded::Shared(shared));
    body.small(b"}}]");
    body.build(gzip).body
}

fn first_read(c: &mut Criterion) {
    let text = roster();
    let fast = deflate_blocks(text.as_bytes(), 1).blocks.len();
    let best = deflate_blocks(text.as_bytes(), 9).blocks.len();
    println!("roster: {} bytes; deflate level 1: {fast} bytes; level 9: {best} bytes", text.len());
    // What a browser gets on a first read, checked once: the text, gzip.
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
    let sent = runtime.block_on(axum::body::to_bytes(
        body(Arc::new(SharedText::sent_once(text.clone())), true),
        usize::MAX,
    ));
    let sent = sent.expect("body");
    let mut plain = String::new();
    flate2::read::GzDecoder::new(&sent[..]).read_to_string(&mut plain).expect("gzip");
    assert!(plain.contains(&text[..200]));
    println!("first read sent: {} bytes (was {} bytes)", sent.len(), plain.len());

    let mut group = c.benchmark_group("first read of a 2,000-pupil roster");
    group.sample_size(30).measurement_time(Duration::from_secs(5));
    // Each iteration is a first read: a new text, its best form not made.
    group.bench_function("as it is (before)", |b| {
        b.iter(|| body(Arc::new(SharedText::sent_once(black_box(text.clone()))), false))
    });
    group.bench_function("gzip, level 1 for the read (now)", |b| {
        b.iter(|| body(Arc::new(SharedText::sent_once(black_box(text.clone()))), true))
    });
    group.bench_function("its best form, level 9 (made once, in the background)", |b| {
        b.iter(|| deflate_blocks(black_box(text.as_bytes()), 9))
    });
    group.finish();
}

criterion_group!(benches, first_read);
criterion_main!(benches);
