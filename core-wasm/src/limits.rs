//! Business limits of spec section 9, checked by the browser before it sends and by the
//! server before it accepts.

/// Largest upload accepted, in bytes (50 MB).
pub const MAX_UPLOAD_BYTES: u64 = 52_428_800;
/// Most photos sent to one AI analysis.
pub const MAX_PHOTOS_PER_ANALYSIS: usize = 10;

/// Longest side of a photo prepared for analysis, in pixels (the app may ask for another).
pub const PHOTO_MAX_SIDE: u32 = 1600;
/// JPEG quality (1-100) of a photo prepared for analysis.
pub const PHOTO_QUALITY: u8 = 80;
/// Longest live dictation, in seconds (15 minutes).
pub const DICTATION_LIMIT_SECONDS: u32 = 15 * 60;
/// Interval between keep-alive messages on the live speech socket, in seconds.
pub const DICTATION_KEEPALIVE_SECONDS: u32 = 10;
/// Interval between Feedback Hub badge refreshes, in seconds.
pub const FEEDBACK_HUB_POLL_SECONDS: u32 = 60;
/// Toasts close after this many milliseconds.
pub const TOAST_DURATION_MS: u32 = 4_000;
/// At most this many toasts are shown at once.
pub const TOAST_LIMIT: usize = 5;

/// Shown when uploads together pass [`MAX_UPLOAD_BYTES`] (the browser and the server).
pub const UPLOAD_TOO_LARGE_MESSAGE: &str = "Files must be 50 MB or smaller in total.";

/// Shown when the photo limit is reached (spec section 8): the camera's capture button is
/// disabled once [`MAX_PHOTOS_PER_ANALYSIS`] photos are held, and the server refuses an
/// analysis with more.
pub const PHOTO_LIMIT_MESSAGE: &str =
    "Photo limit reached: You can submit up to 10 photos to be analysed by AI.";

/// The photo limit's message when an analysis of `count` photos must be refused (more than
/// [`MAX_PHOTOS_PER_ANALYSIS`]), `None` when it may be sent. The camera, which holds photos
/// one at a time, disables capture earlier, at the limit itself: see [`can_take_photo`].
pub fn photo_count_error(count: usize) -> Option<&'static str> {
    (count > MAX_PHOTOS_PER_ANALYSIS).then_some(PHOTO_LIMIT_MESSAGE)
}

/// Why an upload was refused, with the text shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadError {
    TooLarge { bytes: u64 },
    Empty,
}

impl std::fmt::Display for UploadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UploadError::TooLarge { .. } => f.write_str(UPLOAD_TOO_LARGE_MESSAGE),
            UploadError::Empty => write!(f, "The file is empty."),
        }
    }
}

/// Checks an upload's total size against [`MAX_UPLOAD_BYTES`].
pub fn check_upload_size(bytes: u64) -> Result<(), UploadError> {
    match bytes {
        0 => Err(UploadError::Empty),
        b if b > MAX_UPLOAD_BYTES => Err(UploadError::TooLarge { bytes }),
        _ => Ok(()),
    }
}

/// Whether another photo may be taken when `taken` photos are already held.
pub fn can_take_photo(taken: usize) -> bool {
    taken < MAX_PHOTOS_PER_ANALYSIS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_limit_is_inclusive() {
        assert_eq!(
            check_upload_size(MAX_UPLOAD_BYTES + 1).map_err(|e| e.to_string()),
            Err("Files must be 50 MB or smaller in total.".to_owned())
        );
        assert_eq!(check_upload_size(MAX_UPLOAD_BYTES), Ok(()));
        assert_eq!(
            check_upload_size(MAX_UPLOAD_BYTES + 1),
            Err(UploadError::TooLarge {
                bytes: MAX_UPLOAD_BYTES + 1
            })
        );
        assert_eq!(check_upload_size(0), Err(UploadError::Empty));
    }

    #[test]
    fn photo_capture_stops_at_ten() {
        assert!(can_take_photo(9));
        assert!(!can_take_photo(10));
    }

    #[test]
    fn analysis_of_more_than_ten_photos_is_refused_with_the_spec_text() {
        assert_eq!(photo_count_error(10), None);
        assert_eq!(photo_count_error(1), None);
        assert_eq!(
            photo_count_error(11),
            Some("Photo limit reached: You can submit up to 10 photos to be analysed by AI.")
        );
    }
}
