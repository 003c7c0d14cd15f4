//! The media half of the WebAssembly bindings: photo preparation and the dictation
//! recorder. Only in the `media` build (the feature of the same name), which the photo and
//! dictation workers load; every other page loads the rules-only build, a few kilobytes
//! instead of ~600 KB gzip.

use wasm_bindgen::prelude::*;

use crate::media;

#[wasm_bindgen(typescript_custom_section)]
const PHOTO_INFO_TS: &str = r#"
/** What a photo's header says; width/height as stored, display* once turned upright. */
export interface PhotoInfo {
  width: number;
  height: number;
  orientation: number;
  format: "jpeg" | "png";
  displayWidth: number;
  displayHeight: number;
}
"#;

/// A photo's `{width, height, orientation, format, displayWidth, displayHeight}` read from
/// its header without decoding it; throws an Error with a readable message on bad bytes.
#[wasm_bindgen(js_name = photoInfo, unchecked_return_type = "PhotoInfo")]
pub fn photo_info(bytes: &[u8]) -> Result<JsValue, JsError> {
    let info = media::photo_info(bytes)?;
    Ok(serde_wasm_bindgen::to_value(&info)?)
}

/// A JPEG or PNG turned upright, shrunk to `maxSide` and re-encoded as a JPEG without any
/// metadata; throws an Error with a readable message on bad bytes.
#[wasm_bindgen(js_name = preparePhoto)]
pub fn prepare_photo(bytes: &[u8], max_side: u32, quality: u32) -> Result<Vec<u8>, JsError> {
    Ok(media::prepare_photo(
        bytes,
        max_side,
        clamp_quality(quality),
    )?)
}

/// RGBA pixels (from `getImageData`) encoded as a JPEG with the same settings as
/// `preparePhoto`.
#[wasm_bindgen(js_name = encodeJpeg)]
pub fn encode_jpeg(rgba: &[u8], width: u32, height: u32, quality: u32) -> Result<Vec<u8>, JsError> {
    Ok(media::encode_jpeg_rgba(
        rgba,
        width,
        height,
        clamp_quality(quality),
    )?)
}

fn clamp_quality(quality: u32) -> u8 {
    quality.clamp(1, 100) as u8
}

/// Dictation audio: microphone Float32 samples in, 16 kHz 16-bit PCM out (for the speech
/// socket) and one WAV (header + the parts taken along the way + what `finish` returns).
#[wasm_bindgen(js_name = DictationRecorder)]
pub struct DictationRecorderJs(media::DictationRecorder);

#[wasm_bindgen(js_class = DictationRecorder)]
impl DictationRecorderJs {
    #[wasm_bindgen(constructor)]
    pub fn new(input_sample_rate: u32, max_seconds: u32) -> Result<DictationRecorderJs, JsError> {
        Ok(DictationRecorderJs(media::DictationRecorder::new(
            input_sample_rate,
            max_seconds,
        )?))
    }

    /// The new 16 kHz PCM bytes (little-endian 16-bit) that these samples completed.
    pub fn push(&mut self, samples: &[f32]) -> Result<Vec<u8>, JsError> {
        Ok(self.0.push(samples)?)
    }

    /// WAV data bytes written since the last take.
    #[wasm_bindgen(js_name = takeWavBytes)]
    pub fn take_wav_bytes(&mut self) -> Vec<u8> {
        self.0.take_wav_bytes()
    }

    /// Ends the recording and returns the last WAV data bytes.
    pub fn finish(&mut self) -> Result<Vec<u8>, JsError> {
        Ok(self.0.finish()?)
    }

    /// The 44-byte WAV header, final after `finish`.
    #[wasm_bindgen(js_name = wavHeader)]
    pub fn wav_header(&self) -> Vec<u8> {
        self.0.wav_header()
    }

    /// Seconds of audio accepted so far.
    pub fn seconds(&self) -> f64 {
        self.0.seconds()
    }

    /// Bytes of the WAV so far (header included).
    #[wasm_bindgen(js_name = byteLength)]
    pub fn byte_length(&self) -> f64 {
        self.0.byte_length() as f64
    }

    /// Whether the time limit has been reached.
    #[wasm_bindgen(js_name = isFull)]
    pub fn is_full(&self) -> bool {
        self.0.is_full()
    }
}
