//! The dictation recorder: resampling quality (frequency, level, anti-aliasing), the WAV
//! assembled from header + takes + finish, chunking independence, the time limit, and
//! inputs that must not panic.

use core_wasm::media::audio::{OUTPUT_RATE, WAV_HEADER_LEN};
use core_wasm::media::{DictationRecorder, MediaError};

fn sine(rate: u32, freq: f32, amplitude: f32, seconds: f32) -> Vec<f32> {
    let n = (rate as f32 * seconds) as usize;
    (0..n)
        .map(|i| amplitude * (2.0 * std::f32::consts::PI * freq * i as f32 / rate as f32).sin())
        .collect()
}

fn pcm_to_i16(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

fn rms(samples: &[f32]) -> f32 {
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
}

/// Records `input` in chunks of `chunk` samples; returns every push's bytes joined, and
/// the WAV built from the header, the takes and the finish output.
fn record(rate: u32, input: &[f32], chunk: usize, take_every: usize) -> (Vec<u8>, Vec<u8>) {
    let mut recorder = DictationRecorder::new(rate, 60).expect("recorder");
    let mut streamed = Vec::new();
    let mut parts = Vec::new();
    for (i, piece) in input.chunks(chunk).enumerate() {
        streamed.extend(recorder.push(piece).expect("push"));
        if take_every > 0 && i % take_every == 0 {
            parts.extend(recorder.take_wav_bytes());
        }
    }
    parts.extend(recorder.finish().expect("finish"));
    let mut wav = recorder.wav_header();
    assert_eq!(wav.len(), WAV_HEADER_LEN);
    wav.extend(parts);
    (streamed, wav)
}

fn read_wav(wav: &[u8]) -> (hound::WavSpec, Vec<i16>) {
    let reader = hound::WavReader::new(std::io::Cursor::new(wav)).expect("valid WAV");
    let spec = reader.spec();
    let samples = reader
        .into_samples::<i16>()
        .collect::<Result<Vec<_>, _>>()
        .expect("samples");
    (spec, samples)
}

#[test]
fn a_1khz_tone_keeps_its_frequency_and_level() {
    let input = sine(48_000, 1000.0, 0.5, 2.0);
    let (_, wav) = record(48_000, &input, 128, 50);
    let (_, samples) = read_wav(&wav);
    assert_eq!(samples.len(), 32_000);
    // The middle second, away from the edges.
    let middle: Vec<f32> = samples[8_000..24_000]
        .iter()
        .map(|&s| f32::from(s) / 32767.0)
        .collect();
    let crossings = middle
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count();
    assert!(
        (1990..=2010).contains(&crossings),
        "{crossings} zero crossings in 1 s"
    );
    let level = rms(&middle) / rms(&input);
    assert!((0.97..=1.03).contains(&level), "level ratio {level}");
    // Aligned in time: the resampler's delay was removed, so the first samples follow
    // the sine (sin of 2*pi*1000*t at 16 kHz: t = 4 samples is a quarter period, peak).
    let peak = f32::from(samples[4]) / 32767.0;
    assert!((peak - 0.5).abs() < 0.05, "sample 4 is {peak}");
}

#[test]
fn a_tone_above_8khz_is_filtered_out() {
    let input = sine(48_000, 10_000.0, 0.5, 2.0);
    let (_, wav) = record(48_000, &input, 4800, 0);
    let (_, samples) = read_wav(&wav);
    let middle: Vec<f32> = samples[8_000..24_000]
        .iter()
        .map(|&s| f32::from(s) / 32767.0)
        .collect();
    let ratio = rms(&middle) / rms(&input);
    eprintln!(
        "10 kHz tone after resampling: {:.3}% of its level",
        ratio * 100.0
    );
    assert!(
        ratio < 0.05,
        "a 10 kHz tone keeps {:.1}% of its level",
        ratio * 100.0
    );
}

#[test]
fn header_takes_and_finish_make_one_valid_wav() {
    let input = sine(48_000, 440.0, 0.3, 3.25);
    let (streamed, wav) = record(48_000, &input, 128, 37);
    let (spec, samples) = read_wav(&wav);
    assert_eq!(spec.sample_rate, OUTPUT_RATE);
    assert_eq!(spec.channels, 1);
    assert_eq!(spec.bits_per_sample, 16);
    assert_eq!(samples.len(), 52_000); // 3.25 s at 16 kHz
                                       // What was streamed live is the start of the WAV, byte for byte.
    assert_eq!(pcm_to_i16(&streamed)[..], samples[..streamed.len() / 2]);
    assert!(
        streamed.len() / 2 > 51_000,
        "all but the resampler's last block is streamed"
    );
}

#[test]
fn sizes_and_duration_are_reported() {
    let mut recorder = DictationRecorder::new(44_100, 60).expect("recorder");
    for piece in sine(44_100, 300.0, 0.2, 1.5).chunks(1000) {
        recorder.push(piece).expect("push");
    }
    assert!((recorder.seconds() - 1.5).abs() < 1e-9);
    let mut data = recorder.take_wav_bytes();
    data.extend(recorder.finish().expect("finish"));
    assert_eq!(data.len(), 24_000 * 2);
    assert_eq!(recorder.byte_length(), (WAV_HEADER_LEN + data.len()) as u64);
    let mut wav = recorder.wav_header();
    wav.extend(data);
    assert_eq!(read_wav(&wav).1.len(), 24_000);
}

#[test]
fn chunk_size_does_not_change_the_output() {
    let input = sine(48_000, 700.0, 0.4, 2.0);
    let reference = record(48_000, &input, 48_000, 0).1;
    for chunk in [1, 128, 4800] {
        let wav = record(48_000, &input, chunk, 3).1;
        assert_eq!(wav.len(), reference.len(), "chunks of {chunk}");
        assert_eq!(wav, reference, "chunks of {chunk}");
    }
}

#[test]
fn other_microphone_rates_give_exact_lengths() {
    for rate in [8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 96_000] {
        let input = sine(rate, 500.0, 0.3, 1.0);
        let (_, wav) = record(rate, &input, 512, 4);
        let (spec, samples) = read_wav(&wav);
        assert_eq!(spec.sample_rate, OUTPUT_RATE);
        assert_eq!(samples.len(), 16_000, "from {rate} Hz");
        let middle: Vec<f32> = samples[4_000..12_000]
            .iter()
            .map(|&s| f32::from(s) / 32767.0)
            .collect();
        let crossings = middle
            .windows(2)
            .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
            .count();
        assert!(
            (495..=505).contains(&crossings),
            "{crossings} crossings in 0.5 s from {rate} Hz"
        );
    }
}

#[test]
fn stops_accepting_audio_at_the_time_limit() {
    let mut recorder = DictationRecorder::new(48_000, 2).expect("recorder");
    let second = sine(48_000, 440.0, 0.3, 1.0);
    recorder.push(&second).expect("push");
    assert!(!recorder.is_full());
    recorder.push(&second).expect("push");
    recorder.push(&second[..100]).expect("push");
    assert!(recorder.is_full());
    assert!(recorder.push(&second).expect("push").is_empty());
    assert_eq!(recorder.seconds(), 2.0);
    let rest = recorder.finish().expect("finish");
    let wav = [recorder.wav_header(), rest].concat();
    assert_eq!(read_wav(&wav).1.len(), 32_000);
    assert!(recorder
        .push(&second)
        .expect("push after finish")
        .is_empty());
    assert!(recorder.finish().expect("second finish").is_empty());
}

#[test]
fn odd_input_never_panics() {
    let mut recorder = DictationRecorder::new(48_000, 30).expect("recorder");
    assert!(recorder.push(&[]).expect("empty").is_empty());
    let mut odd = vec![
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e30,
        -1e30,
        f32::MIN_POSITIVE,
    ];
    odd.extend(std::iter::repeat_n(f32::NAN, 5000));
    recorder.push(&odd).expect("odd values");
    // Ten seconds at once.
    recorder
        .push(&sine(48_000, 200.0, 0.9, 10.0))
        .expect("huge chunk");
    let data = [
        recorder.take_wav_bytes(),
        recorder.finish().expect("finish"),
    ]
    .concat();
    let wav = [recorder.wav_header(), data].concat();
    let (_, samples) = read_wav(&wav);
    assert_eq!(samples.len(), (recorder.seconds() * 16_000.0) as usize);
    // NaN became silence instead of spreading through the resampler.
    assert!(
        samples[2_000..].iter().any(|&s| s.abs() > 20_000),
        "the tone survived"
    );

    // Nothing recorded at all still gives a valid, empty WAV.
    let mut empty = DictationRecorder::new(48_000, 30).expect("recorder");
    let wav = [empty.finish().expect("finish"), Vec::new()].concat();
    let wav = [empty.wav_header(), wav].concat();
    assert_eq!(read_wav(&wav).1.len(), 0);

    assert!(matches!(
        DictationRecorder::new(2_000, 30),
        Err(MediaError::UnsupportedSampleRate(2_000))
    ));
    // A limit of zero is full from the start.
    let mut none = DictationRecorder::new(48_000, 0).expect("recorder");
    assert!(none.is_full());
    assert!(none.push(&[0.1; 100]).expect("push").is_empty());
}
