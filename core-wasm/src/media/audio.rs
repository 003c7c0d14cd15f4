//! Dictation audio: microphone samples (Float32, any rate, any chunk size) become 16 kHz
//! mono 16-bit PCM as they arrive, both for the live speech stream (linear16) and for one
//! WAV of the whole dictation.
//!
//! Resampling uses rubato's synchronous FFT resampler, which low-pass filters below the new
//! Nyquist frequency (8 kHz) so that higher sounds do not fold back as noise. Its block
//! sizes are chosen as `2^k * (rate / gcd)` so that the FFTs have small prime factors
//! (rubato's default for 48 kHz picks 516 = 4*3*43 points).
//!
//! The WAV is written by hound into a [`WavSink`] that keeps the 44-byte header apart and
//! lets the app take the data bytes out as it goes ([`DictationRecorder::take_wav_bytes`]),
//! so a 15-minute recording is never held twice in wasm memory; hound patches the sizes in
//! the kept header when it is finalised.

use std::cell::RefCell;
use std::io::{self, Seek, SeekFrom, Write};
use std::rc::Rc;

use hound::{SampleFormat, WavSpec, WavWriter};
use rubato::audioadapter_buffers::direct::InterleavedSlice;
use rubato::{Fft, FixedSync, Indexing, Resampler, WindowFunction};

use super::MediaError;

/// Sample rate of the speech stream and of the WAV.
pub const OUTPUT_RATE: u32 = 16_000;
/// Size of the canonical PCM WAV header that hound writes for 16-bit mono.
pub const WAV_HEADER_LEN: usize = 44;
/// Longest recording accepted, whatever the caller asks: a WAV's sizes are 32-bit, and
/// three hours is far beyond any dictation.
pub const MAX_RECORDING_SECONDS: u32 = 3 * 60 * 60;
/// Microphone rates accepted (AudioContext allows 3 kHz-768 kHz; real devices use 8-192).
const INPUT_RATES: std::ops::RangeInclusive<u32> = 8_000..=384_000;
/// Smallest FFT block on the input side: shorter blocks give a wider filter transition.
const MIN_BLOCK_IN: usize = 1024;

/// Streams microphone audio into 16 kHz PCM and one WAV.
pub struct DictationRecorder {
    input_rate: u32,
    max_input_frames: u64,
    input_frames: u64,
    output_frames: u64,
    /// Input not yet resampled (less than one block after each push).
    pending: Vec<f32>,
    resampler: Option<BlockResampler>,
    wav: Option<WavWriter<WavSink>>,
    sink: Rc<RefCell<SinkState>>,
    finished: bool,
}

/// The FFT resampler with its fixed block sizes and the start-up delay still to drop.
struct BlockResampler {
    fft: Fft<f32>,
    block_in: usize,
    block_out: usize,
    /// Output frames of the resampler's delay not yet skipped, so that the recording
    /// starts with the first sound rather than with silence.
    delay_left: usize,
    scratch: Vec<f32>,
}

impl DictationRecorder {
    /// A recorder for microphone audio at `input_rate` Hz that stops accepting audio after
    /// `max_seconds` (at most [`MAX_RECORDING_SECONDS`]).
    pub fn new(input_rate: u32, max_seconds: u32) -> Result<Self, MediaError> {
        if !INPUT_RATES.contains(&input_rate) {
            return Err(MediaError::UnsupportedSampleRate(input_rate));
        }
        let resampler = if input_rate == OUTPUT_RATE {
            None
        } else {
            Some(BlockResampler::new(input_rate)?)
        };
        let sink = Rc::new(RefCell::new(SinkState::default()));
        let spec = WavSpec {
            channels: 1,
            sample_rate: OUTPUT_RATE,
            bits_per_sample: 16,
            sample_format: SampleFormat::Int,
        };
        let wav = WavWriter::new(WavSink(Rc::clone(&sink)), spec).map_err(wav_error)?;
        let max_seconds = max_seconds.min(MAX_RECORDING_SECONDS);
        Ok(DictationRecorder {
            input_rate,
            max_input_frames: u64::from(max_seconds) * u64::from(input_rate),
            input_frames: 0,
            output_frames: 0,
            pending: Vec::new(),
            resampler,
            wav: Some(wav),
            sink,
            finished: false,
        })
    }

    /// Adds microphone samples and returns the 16 kHz little-endian 16-bit PCM they
    /// completed (possibly none: the resampler works in blocks of about 30 ms). The same
    /// bytes are appended to the WAV. Audio past the time limit or after [`finish`] is
    /// ignored; non-finite samples count as silence.
    ///
    /// [`finish`]: DictationRecorder::finish
    pub fn push(&mut self, samples: &[f32]) -> Result<Vec<u8>, MediaError> {
        if self.finished {
            return Ok(Vec::new());
        }
        let room = self.max_input_frames.saturating_sub(self.input_frames);
        let accepted = samples
            .len()
            .min(usize::try_from(room).unwrap_or(usize::MAX));
        if accepted == 0 {
            return Ok(Vec::new());
        }
        self.input_frames += accepted as u64;
        self.pending.extend(
            samples[..accepted]
                .iter()
                .map(|&s| if s.is_finite() { s } else { 0.0 }),
        );
        let produced = match &mut self.resampler {
            None => std::mem::take(&mut self.pending),
            Some(resampler) => resampler.process_full_blocks(&mut self.pending)?,
        };
        self.write(&produced)
    }

    /// Flushes the resampler, finalises the WAV header and returns the data bytes not yet
    /// taken. The recording then holds exactly `seconds() * 16000` samples (rounded down).
    /// Later calls return nothing.
    pub fn finish(&mut self) -> Result<Vec<u8>, MediaError> {
        if self.finished {
            return Ok(Vec::new());
        }
        self.finished = true;
        let expected = self.input_frames * u64::from(OUTPUT_RATE) / u64::from(self.input_rate);
        let missing = usize::try_from(expected.saturating_sub(self.output_frames)).unwrap_or(0);
        let mut tail = match &mut self.resampler {
            None => std::mem::take(&mut self.pending),
            Some(resampler) => resampler.flush(&mut self.pending, missing)?,
        };
        tail.truncate(missing);
        self.write(&tail)?;
        if let Some(wav) = self.wav.take() {
            wav.finalize().map_err(wav_error)?;
        }
        Ok(self.take_wav_bytes())
    }

    /// The WAV data bytes written since the last take (the app keeps them as Blob parts).
    pub fn take_wav_bytes(&mut self) -> Vec<u8> {
        let mut sink = self.sink.borrow_mut();
        let data = std::mem::take(&mut sink.data);
        sink.taken += data.len() as u64;
        data
    }

    /// The 44-byte WAV header; its sizes are final once [`finish`] has run.
    ///
    /// [`finish`]: DictationRecorder::finish
    pub fn wav_header(&self) -> Vec<u8> {
        self.sink.borrow().header.to_vec()
    }

    /// Duration of the audio accepted so far, in seconds.
    pub fn seconds(&self) -> f64 {
        self.input_frames as f64 / f64::from(self.input_rate)
    }

    /// Size of the WAV so far (header and all data bytes, taken or not).
    pub fn byte_length(&self) -> u64 {
        let sink = self.sink.borrow();
        WAV_HEADER_LEN as u64 + sink.taken + sink.data.len() as u64
    }

    /// Whether the time limit has been reached (further audio is ignored).
    pub fn is_full(&self) -> bool {
        self.input_frames >= self.max_input_frames
    }

    /// Appends 16 kHz samples to the WAV and returns their bytes.
    fn write(&mut self, samples: &[f32]) -> Result<Vec<u8>, MediaError> {
        let Some(wav) = self.wav.as_mut() else {
            return Ok(Vec::new());
        };
        if samples.is_empty() {
            return Ok(Vec::new());
        }
        let count = u32::try_from(samples.len())
            .map_err(|_| MediaError::Internal("too many samples at once".into()))?;
        let start = self.sink.borrow().data.len();
        let mut writer = wav.get_i16_writer(count);
        for &sample in samples {
            writer.write_sample(to_i16(sample));
        }
        writer.flush().map_err(wav_error)?;
        self.output_frames += samples.len() as u64;
        let sink = self.sink.borrow();
        Ok(sink.data.get(start..).unwrap_or_default().to_vec())
    }
}

impl BlockResampler {
    fn new(input_rate: u32) -> Result<Self, MediaError> {
        let (block_in, _) = block_sizes(input_rate, OUTPUT_RATE);
        let fft = Fft::<f32>::new_custom(
            input_rate as usize,
            OUTPUT_RATE as usize,
            block_in,
            1,
            1,
            WindowFunction::BlackmanHarris2,
            FixedSync::Both,
        )
        .map_err(|e| MediaError::Internal(format!("resampler: {e}")))?;
        // new_custom rounds to the same sizes; trust what it chose.
        let (block_in, block_out) = (fft.input_frames_next(), fft.output_frames_next());
        Ok(BlockResampler {
            delay_left: fft.output_delay(),
            fft,
            block_in,
            block_out,
            scratch: vec![0.0; block_out],
        })
    }

    /// Resamples every whole block at the start of `pending` and removes it from there.
    fn process_full_blocks(&mut self, pending: &mut Vec<f32>) -> Result<Vec<f32>, MediaError> {
        let blocks = pending.len() / self.block_in;
        let mut out = Vec::with_capacity(blocks * self.block_out);
        for block in 0..blocks {
            self.process_block(pending, block * self.block_in, None, &mut out)?;
        }
        pending.drain(..blocks * self.block_in);
        Ok(out)
    }

    /// Resamples what is left in `pending`, then silence, until `wanted` more frames have
    /// come out past the resampler's delay.
    fn flush(&mut self, pending: &mut Vec<f32>, wanted: usize) -> Result<Vec<f32>, MediaError> {
        let mut out = self.process_full_blocks(pending)?;
        // Each block yields block_out frames; the delay is half a block, so this bounds
        // the loop even if something went wrong.
        let max_blocks = 3 + (wanted + self.delay_left) / self.block_out.max(1);
        for _ in 0..max_blocks {
            if out.len() >= wanted {
                break;
            }
            let partial = pending.len();
            self.process_block(pending, 0, Some(partial), &mut out)?;
            pending.clear();
        }
        Ok(out)
    }

    fn process_block(
        &mut self,
        input: &[f32],
        offset: usize,
        partial: Option<usize>,
        out: &mut Vec<f32>,
    ) -> Result<(), MediaError> {
        let internal = |e: &dyn std::fmt::Display| MediaError::Internal(format!("resampler: {e}"));
        // A partial (final) block may be empty: rubato pads it with silence, but the
        // adapter needs at least one frame to exist.
        let zero = [0.0f32];
        let source: &[f32] = if input.is_empty() { &zero } else { input };
        let adapter_in =
            InterleavedSlice::new(source, 1, source.len()).map_err(|e| internal(&e))?;
        let mut adapter_out = InterleavedSlice::new_mut(&mut self.scratch, 1, self.block_out)
            .map_err(|e| internal(&e))?;
        let mut indexing = Indexing::new().input_offset(offset);
        if let Some(len) = partial {
            indexing = indexing.partial_len(len);
        }
        let (_, written) = self
            .fft
            .process_into_buffer(&adapter_in, &mut adapter_out, Some(&indexing))
            .map_err(|e| internal(&e))?;
        let produced = &self.scratch[..written.min(self.scratch.len())];
        let skip = self.delay_left.min(produced.len());
        self.delay_left -= skip;
        out.extend_from_slice(&produced[skip..]);
        Ok(())
    }
}

/// FFT block sizes for `input_rate` -> `output_rate`: the smallest blocks in the exact
/// ratio, doubled until the input block reaches [`MIN_BLOCK_IN`] frames.
pub fn block_sizes(input_rate: u32, output_rate: u32) -> (usize, usize) {
    let g = gcd(input_rate, output_rate).max(1);
    let (mut block_in, mut block_out) = ((input_rate / g) as usize, (output_rate / g) as usize);
    while block_in < MIN_BLOCK_IN {
        block_in *= 2;
        block_out *= 2;
    }
    (block_in, block_out)
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn to_i16(sample: f32) -> i16 {
    // `as` saturates and maps NaN to 0.
    (sample.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

fn wav_error(error: hound::Error) -> MediaError {
    MediaError::Internal(format!("WAV writing: {error}"))
}

/// What the sink holds: the header (rewritten in place by hound) and the data bytes not yet
/// taken by the app.
struct SinkState {
    header: [u8; WAV_HEADER_LEN],
    data: Vec<u8>,
    /// Data bytes already handed out.
    taken: u64,
    /// hound's write position in the whole file.
    position: u64,
}

impl Default for SinkState {
    fn default() -> Self {
        SinkState {
            header: [0; WAV_HEADER_LEN],
            data: Vec::new(),
            taken: 0,
            position: 0,
        }
    }
}

/// The `Write + Seek` target of hound: writes inside the header land in the kept header,
/// writes after it append to the data; hound only ever seeks back into the header.
struct WavSink(Rc<RefCell<SinkState>>);

impl Write for WavSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut state = self.0.try_borrow_mut().map_err(io::Error::other)?;
        let state = &mut *state;
        let header_len = WAV_HEADER_LEN as u64;
        let end = header_len + state.taken + state.data.len() as u64;
        if state.position < header_len {
            let at = state.position as usize; // < 44
            let n = buf.len().min(WAV_HEADER_LEN - at);
            state.header[at..at + n].copy_from_slice(&buf[..n]);
            state.position += n as u64;
            Ok(n)
        } else if state.position == end {
            state.data.extend_from_slice(buf);
            state.position += buf.len() as u64;
            Ok(buf.len())
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "only the WAV header can be rewritten",
            ))
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for WavSink {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let mut state = self.0.try_borrow_mut().map_err(io::Error::other)?;
        let end = WAV_HEADER_LEN as u64 + state.taken + state.data.len() as u64;
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::Current(d) => state.position.checked_add_signed(d),
            SeekFrom::End(d) => end.checked_add_signed(d),
        };
        match target {
            Some(position) if position <= end => {
                state.position = position;
                Ok(position)
            }
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek outside the WAV",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_have_small_prime_factors() {
        assert_eq!(block_sizes(48_000, 16_000), (1536, 512));
        assert_eq!(block_sizes(44_100, 16_000), (1764, 640));
        assert_eq!(block_sizes(8_000, 16_000), (1024, 2048));
    }

    #[test]
    fn converts_samples_with_saturation() {
        assert_eq!(to_i16(0.0), 0);
        assert_eq!(to_i16(1.0), 32767);
        assert_eq!(to_i16(-2.0), -32767);
        assert_eq!(to_i16(f32::NAN), 0);
    }

    #[test]
    fn refuses_unusable_rates() {
        assert!(matches!(
            DictationRecorder::new(0, 60),
            Err(MediaError::UnsupportedSampleRate(0))
        ));
        assert!(DictationRecorder::new(1_000_000, 60).is_err());
    }
}
