//! Media timings on this machine (natively; the browser figures come from the app's
//! Playwright bench). `cargo bench -p core-wasm --bench media`.

#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::Duration;

use core_wasm::media::{encode_jpeg_rgba, prepare_photo, DictationRecorder};
use criterion::{criterion_group, criterion_main, Criterion};
use fast_image_resize as fr;

/// A 4000x3000 phone-sized JPEG of a photo-like scene (gradients, edges, noise).
fn phone_photo() -> (Vec<u8>, image::RgbImage) {
    let image = support::photo_like(4000, 3000);
    (support::jpeg(&image, None, false), image)
}

fn photo(c: &mut Criterion) {
    let (input, image) = phone_photo();
    let output = prepare_photo(&input, 1600, 80).expect("prepared");
    println!(
        "prepare_photo 4000x3000: input {} bytes -> output {} bytes",
        input.len(),
        output.len()
    );
    let mut group = c.benchmark_group("photo");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("prepare_photo 4000x3000 -> 1600", |b| {
        b.iter(|| prepare_photo(black_box(&input), 1600, 80).expect("prepared"))
    });

    // The stages separately, to see where the time goes.
    group.bench_function("decode 4000x3000 (image/zune-jpeg)", |b| {
        b.iter(|| image::load_from_memory(black_box(&input)).expect("decodes"))
    });
    for (name, filter) in [
        ("CatmullRom", fr::FilterType::CatmullRom),
        ("Lanczos3", fr::FilterType::Lanczos3),
        ("Bilinear", fr::FilterType::Bilinear),
    ] {
        let src =
            fr::images::Image::from_vec_u8(4000, 3000, image.as_raw().clone(), fr::PixelType::U8x3)
                .expect("image");
        let options = fr::ResizeOptions::new().resize_alg(fr::ResizeAlg::Convolution(filter));
        group.bench_function(format!("resize 4000x3000 -> 1600x1200 {name}"), |b| {
            let mut dst = fr::images::Image::new(1600, 1200, fr::PixelType::U8x3);
            let mut resizer = fr::Resizer::new();
            b.iter(|| resizer.resize(&src, &mut dst, &options).expect("resized"))
        });
    }

    let small = support::photo_like(1600, 1200);
    let rgba: Vec<u8> = small
        .pixels()
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let encoded = encode_jpeg_rgba(&rgba, 1600, 1200, 80).expect("encoded");
    println!("encode_jpeg_rgba 1600x1200: {} bytes", encoded.len());
    group.bench_function("encode_jpeg_rgba 1600x1200", |b| {
        b.iter(|| encode_jpeg_rgba(black_box(&rgba), 1600, 1200, 80).expect("encoded"))
    });
    group.finish();
}

fn dictation(c: &mut Criterion) {
    // One second of 48 kHz speech-like sound (two tones and a little noise), replayed.
    let mut rng = support::Lcg(3);
    let second: Vec<f32> = (0..48_000)
        .map(|i| {
            let t = i as f32 / 48_000.0;
            0.3 * (2.0 * std::f32::consts::PI * 220.0 * t).sin()
                + 0.1 * (2.0 * std::f32::consts::PI * 3100.0 * t).sin()
                + (rng.next_u32() % 1000) as f32 / 50_000.0
        })
        .collect();
    let mut group = c.benchmark_group("dictation");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function(
        "15 min at 48 kHz, 1 s chunks, take every 60 s, finish",
        |b| {
            b.iter(|| {
                let mut recorder = DictationRecorder::new(48_000, 15 * 60).expect("recorder");
                let mut wav_bytes = 0;
                for s in 0..15 * 60 {
                    black_box(recorder.push(&second).expect("push"));
                    if s % 60 == 59 {
                        wav_bytes += recorder.take_wav_bytes().len();
                    }
                }
                wav_bytes += recorder.finish().expect("finish").len();
                assert_eq!(wav_bytes, 15 * 60 * 16_000 * 2);
                wav_bytes
            })
        },
    );
    group.bench_function("finish after 15 min (stop-to-WAV)", |b| {
        b.iter_batched(
            || {
                let mut recorder = DictationRecorder::new(48_000, 15 * 60).expect("recorder");
                for s in 0..15 * 60 {
                    recorder.push(&second).expect("push");
                    if s % 60 == 59 {
                        recorder.take_wav_bytes();
                    }
                }
                recorder
            },
            |mut recorder| recorder.finish().expect("finish"),
            criterion::BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, photo, dictation);
criterion_main!(benches);
