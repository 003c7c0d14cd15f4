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

/// Longest text any call may carry, in characters: a generous global cap for every string
/// of every input. The longest legitimate field is a notification body (HTML from the rich
/// text editor, which `notification.create` already capped at 200,000 bytes; usually a few
/// kilobytes); submissions take 20,000 characters, comments 2,000. 200,000 keeps every body
/// that was accepted before while refusing megabyte strings.
pub const MAX_TEXT_CHARS: usize = 200_000;
/// Most items in any list of any input. The largest legitimate list is a notification's
/// recipient filter (a school's pupils, a few thousand at most); SQLite refuses more than
/// 32,766 bound values in one statement, so a cap well below that keeps every `IN (...)`
/// query answerable on both backends.
pub const MAX_LIST_ITEMS: usize = 10_000;
/// Deepest nesting of lists and objects in any input. The deepest legitimate input is two
/// levels (an object holding lists of ids); 16 refuses pathological nesting early.
pub const MAX_INPUT_DEPTH: usize = 16;
/// Most calls in one tRPC batch. The app's `httpBatchLink` sends at most this many
/// (`maxItems`), and a page asks for fewer than ten at once.
pub const MAX_BATCH_CALLS: usize = 50;

/// Longest forename or surname of a pupil or a member of staff, in characters.
pub const MAX_PERSON_NAME_CHARS: usize = 100;
/// Longest UPN. An English Unique Pupil Number is 13 characters (a check letter and 12
/// digits); 20 leaves room for other schemes (Scottish candidate numbers, temporary UPNs
/// with a suffix) without letting free text in.
pub const MAX_UPN_CHARS: usize = 20;
/// Longest e-mail address, in characters (RFC 5321's path limit, as `email.rs` applies it).
pub const MAX_EMAIL_CHARS: usize = 254;
/// Longest class, form group or year group name, in characters.
pub const MAX_GROUP_NAME_CHARS: usize = 100;
/// Longest notification title (and custom title) and school name, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest organisation (school, trust or business) name at sign-up and in /schools.
pub const MAX_ORGANISATION_NAME_CHARS: usize = 200;

/// Longest template question, in characters.
pub const MAX_QUESTION_CHARS: usize = 2_000;
/// Longest template tag, in characters (a task's tags take [`MAX_GROUP_NAME_CHARS`]).
pub const MAX_TEMPLATE_TAG_CHARS: usize = 50;
/// Longest answer to one question of a task, in characters.
pub const MAX_ANSWER_CHARS: usize = 50_000;
/// Longest instructions for the report generator, in characters.
pub const MAX_INSTRUCTIONS_CHARS: usize = 4_000;
/// Longest prompt sent with photos to the AI analysis, in characters.
pub const MAX_PROMPT_CHARS: usize = 4_000;
/// Longest feedback on a submission, in characters.
pub const MAX_FEEDBACK_CHARS: usize = 10_000;
/// Longest comment on a pupil's profile, in characters.
pub const MAX_COMMENT_CHARS: usize = 2_000;
/// Longest written answer a pupil hands in on the public submission page, in characters.
pub const MAX_SUBMISSION_CHARS: usize = 20_000;
/// Longest subject of a message to support, in characters.
pub const MAX_SUPPORT_SUBJECT_CHARS: usize = 200;
/// Longest message to support, in characters.
pub const MAX_SUPPORT_MESSAGE_CHARS: usize = 5_000;
/// Longest MIS school id (Wonde or Groupcall), in characters.
pub const MAX_MIS_ID_CHARS: usize = 64;
/// Longest MIS token or secret (Wonde or Groupcall), in characters.
pub const MAX_MIS_SECRET_CHARS: usize = 512;

/// Shown when a text carries a NUL character (U+0000), which no database column can store.
pub const NUL_MESSAGE: &str = "Must not contain a NUL character.";

/// "Use at most N characters.": the message of every per-field and global length limit.
pub fn too_long_message(max_chars: usize) -> String {
    format!("Use at most {max_chars} characters.")
}

/// "Use at most N characters for each tag.": the message of a per-tag limit.
pub fn tag_too_long_message(max_chars: usize) -> String {
    format!("Use at most {max_chars} characters for each tag.")
}

/// "Use at most N items.": the message of the list limit.
pub fn too_many_message(max_items: usize) -> String {
    format!("Use at most {max_items} items.")
}

/// Shown when a batch carries more than [`MAX_BATCH_CALLS`] calls.
pub fn batch_too_large_message(calls: usize) -> String {
    format!("A batch may hold at most {MAX_BATCH_CALLS} calls; this one holds {calls}.")
}

/// Why a text is refused (a NUL character, or more than `max_chars` characters), `None`
/// when it may be stored. Used by the server's input layer, by the per-field checks and by
/// the routes outside tRPC (sign-in, uploads).
pub fn text_error(value: &str, max_chars: usize) -> Option<String> {
    if value.contains('\0') {
        return Some(NUL_MESSAGE.to_owned());
    }
    // Counting characters is O(n): skip it when the bytes already fit.
    if value.len() > max_chars && value.chars().count() > max_chars {
        return Some(too_long_message(max_chars));
    }
    None
}

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

    #[test]
    fn text_error_refuses_nul_and_counts_characters_not_bytes() {
        assert_eq!(text_error("Ada", 3), None);
        assert_eq!(text_error("a\0b", 100), Some(NUL_MESSAGE.to_owned()));
        assert_eq!(text_error("\0", 0), Some(NUL_MESSAGE.to_owned()));
        assert_eq!(
            text_error("abcd", 3),
            Some("Use at most 3 characters.".to_owned())
        );
        // Four 2-byte characters are four characters.
        assert_eq!(text_error("éééé", 4), None);
        assert_eq!(text_error("ééééé", 4), Some(too_long_message(4)));
    }

    #[test]
    fn limits_keep_lists_under_sqlites_bind_limit_and_names_sensible() {
        assert!(MAX_LIST_ITEMS < 32_766);
        assert!(MAX_UPN_CHARS >= 13);
        assert!(MAX_PERSON_NAME_CHARS <= MAX_TEXT_CHARS);
        assert_eq!(too_many_message(10), "Use at most 10 items.");
        assert!(batch_too_large_message(51).contains("at most 50 calls"));
    }
}
