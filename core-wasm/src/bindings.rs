//! The only file that knows about WebAssembly: exposes the core to the browser.

use wasm_bindgen::prelude::*;

use crate::{dates, limits, media, password, roles, UserRole};

/// The core's version.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    crate::VERSION.to_owned()
}

/// The password rule's message when `password` breaks it, `undefined` when it is fine.
#[wasm_bindgen(js_name = passwordError)]
pub fn password_error(password: &str) -> Option<String> {
    password::check_password(password).err().map(str::to_owned)
}

/// Whether `role` passes a check that allows `allowed` (superadmin always passes).
#[wasm_bindgen(js_name = hasRole)]
pub fn has_role(role: &str, allowed: Vec<String>) -> Result<bool, JsError> {
    let role: UserRole = role.parse()?;
    let allowed = allowed
        .iter()
        .map(|r| r.parse::<UserRole>())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(roles::has_role(role, &allowed))
}

/// Formats a JavaScript time (ms since 1970, already in local time) as dd/MM/yyyy[, HH:mm].
#[wasm_bindgen(js_name = formatDate)]
pub fn format_date(millis: f64, with_time: bool) -> Result<String, JsError> {
    dates::format_millis(millis as i64, with_time).ok_or_else(|| JsError::new("Date out of range"))
}

/// The upload limit's message when `bytes` is too many, `undefined` when it is fine.
#[wasm_bindgen(js_name = uploadSizeError)]
pub fn upload_size_error(bytes: f64) -> Option<String> {
    limits::check_upload_size(bytes as u64)
        .err()
        .map(|e| e.to_string())
}

/// The business limits the app needs, as one object.
#[wasm_bindgen(js_name = limits)]
pub fn limits_object() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Limits {
        max_upload_bytes: u64,
        max_photos_per_analysis: usize,
        dictation_limit_seconds: u32,
        feedback_hub_poll_seconds: u32,
        toast_duration_ms: u32,
        toast_limit: usize,
        photo_limit_message: &'static str,
        photo_max_side: u32,
        photo_quality: u8,
    }
    let value = Limits {
        max_upload_bytes: limits::MAX_UPLOAD_BYTES,
        max_photos_per_analysis: limits::MAX_PHOTOS_PER_ANALYSIS,
        dictation_limit_seconds: limits::DICTATION_LIMIT_SECONDS,
        feedback_hub_poll_seconds: limits::FEEDBACK_HUB_POLL_SECONDS,
        toast_duration_ms: limits::TOAST_DURATION_MS,
        toast_limit: limits::TOAST_LIMIT,
        photo_limit_message: limits::PHOTO_LIMIT_MESSAGE,
        photo_max_side: media::photo::MAX_SIDE,
        photo_quality: media::photo::QUALITY,
    };
    Ok(serde_wasm_bindgen::to_value(&value)?)
}

/// The photo limit's message when an analysis of `count` photos must be refused,
/// `undefined` when it may be sent.
#[wasm_bindgen(js_name = photoCountError)]
pub fn photo_count_error(count: u32) -> Option<String> {
    limits::photo_count_error(count as usize).map(str::to_owned)
}

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
