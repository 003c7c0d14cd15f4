//! The one error type of the media code, with the English text shown to the user.

use std::fmt;

/// Why a photo or a recording could not be processed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaError {
    /// Zero bytes were given.
    Empty,
    /// The bytes are neither a JPEG nor a PNG.
    NotAPhoto,
    /// The file stops before the image ends (an interrupted transfer).
    Incomplete,
    /// The file is a JPEG or PNG but its contents cannot be decoded.
    Damaged,
    /// More pixels than [`crate::media::photo::MAX_PIXELS`]: refused before decoding, so
    /// that a small file cannot make the decoder allocate gigabytes.
    TooManyPixels { width: u32, height: u32 },
    /// Pixel data whose length does not match the stated size, or a zero/oversized side.
    BadPixels { width: u32, height: u32, len: usize },
    /// An argument outside what the function accepts (a programming error in the caller).
    InvalidArgument(&'static str),
    /// The microphone's sample rate cannot be converted to 16 kHz.
    UnsupportedSampleRate(u32),
    /// The encoder or the WAV writer failed; not expected with in-memory buffers.
    Internal(String),
}

impl fmt::Display for MediaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MediaError::Empty => f.write_str("This photo could not be read: the file is empty."),
            MediaError::NotAPhoto => f.write_str("This file is not a JPEG or PNG photo."),
            MediaError::Incomplete => {
                f.write_str("This photo could not be read: the file is incomplete.")
            }
            MediaError::Damaged => f.write_str("This photo could not be read: the file is damaged."),
            MediaError::TooManyPixels { width, height } => write!(
                f,
                "This photo is too large to prepare: {width}x{height} pixels is more than {} megapixels.",
                crate::media::photo::MAX_PIXELS / 1_000_000
            ),
            MediaError::BadPixels { width, height, len } => write!(
                f,
                "The image data ({len} bytes) does not match a {width}x{height} image."
            ),
            MediaError::InvalidArgument(what) => write!(f, "Invalid argument: {what}."),
            MediaError::UnsupportedSampleRate(rate) => write!(
                f,
                "The microphone's sample rate of {rate} Hz is not supported."
            ),
            MediaError::Internal(why) => write!(f, "The media could not be processed: {why}."),
        }
    }
}

impl std::error::Error for MediaError {}
