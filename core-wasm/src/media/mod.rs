//! Media handled in the browser before anything leaves the device: photos are shrunk,
//! turned upright and stripped of metadata (GPS included); dictation audio is resampled to
//! 16 kHz for the live speech stream and kept as one WAV.
//!
//! Plain Rust so that it is tested natively; `bindings.rs` exposes it to the Web Worker.
//! Nothing here may panic on bad input: the wasm build aborts on panic.

pub mod audio;
mod error;
pub mod exif;
mod orient;
pub mod photo;

pub use audio::DictationRecorder;
pub use error::MediaError;
pub use photo::{encode_jpeg_rgba, photo_info, prepare_photo, PhotoFormat, PhotoInfo};
