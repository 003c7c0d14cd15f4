//! The filename rule for stored files (voice notes, `user.uploadFile`, pupils' submission
//! files), with spec section 5's message. The browser checks it when a form is submitted;
//! the server applies it before it signs an upload, renames a note or stores a pupil's file.

/// Shown when nothing usable is left of a filename (spec section 5).
pub const FILENAME_REQUIRED: &str = "Filename is required";
/// Longest filename kept, in characters.
pub const MAX_FILENAME_CHARS: usize = 200;
/// Shown when a filename is longer than [`MAX_FILENAME_CHARS`].
pub const FILENAME_TOO_LONG: &str = "Use at most 200 characters.";
/// Longest storage-key segment made from a filename, in characters.
pub const MAX_KEY_NAME_CHARS: usize = 80;

/// Why a filename was refused; `Display` is the text shown beside the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilenameError {
    Required,
    TooLong,
}

impl FilenameError {
    /// The message shown to the user.
    pub fn message(self) -> &'static str {
        match self {
            FilenameError::Required => FILENAME_REQUIRED,
            FilenameError::TooLong => FILENAME_TOO_LONG,
        }
    }
}

impl std::fmt::Display for FilenameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for FilenameError {}

/// A filename as shown and stored: the last path segment (no folders, `/` or `\`), without
/// control characters, trimmed. `Err` when nothing is left (or only `.`/`..`) or when it
/// is longer than [`MAX_FILENAME_CHARS`].
pub fn clean_filename(raw: &str) -> Result<String, FilenameError> {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean == "." || clean == ".." {
        return Err(FilenameError::Required);
    }
    if clean.chars().count() > MAX_FILENAME_CHARS {
        return Err(FilenameError::TooLong);
    }
    Ok(clean.to_owned())
}

/// The message for `raw` when [`clean_filename`] refuses it, `None` when it is fine.
pub fn filename_error(raw: &str) -> Option<&'static str> {
    clean_filename(raw).err().map(FilenameError::message)
}

/// A filename reduced to what a storage key segment may hold: `[A-Za-z0-9._-]` (anything
/// else becomes `_`), at most [`MAX_KEY_NAME_CHARS`] characters, no leading dots; `file`
/// when nothing is left. The shown name stays in the database; this is only for the key.
pub fn key_safe_name(filename: &str) -> String {
    let mapped: String = filename
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(MAX_KEY_NAME_CHARS)
        .collect();
    let trimmed = mapped.trim_start_matches('.');
    if trimmed.is_empty() {
        "file".to_owned()
    } else {
        trimmed.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_base_name_without_control_characters() {
        assert_eq!(
            clean_filename("  ../a/Week 3\u{7}.m4a "),
            Ok("Week 3.m4a".to_owned())
        );
        assert_eq!(
            clean_filename("C:\\Users\\ada\\essay.pdf"),
            Ok("essay.pdf".to_owned())
        );
    }

    #[test]
    fn refuses_empty_names_with_the_spec_text() {
        for raw in ["", "  ", "\u{7}", "a/..", "folder/", "."] {
            assert_eq!(clean_filename(raw), Err(FilenameError::Required), "{raw:?}");
        }
        assert_eq!(filename_error("  "), Some("Filename is required"));
        assert_eq!(filename_error("Lesson 3"), None);
    }

    #[test]
    fn refuses_names_over_two_hundred_characters() {
        assert_eq!(clean_filename(&"x".repeat(200)).map(|n| n.len()), Ok(200));
        assert!(clean_filename(&"x".repeat(201)).is_err());
        assert_eq!(
            clean_filename(&"é".repeat(201)),
            Err(FilenameError::TooLong)
        );
        assert_eq!(
            FilenameError::TooLong.to_string(),
            "Use at most 200 characters."
        );
    }

    #[test]
    fn key_names_hold_only_safe_characters() {
        assert_eq!(key_safe_name("../Année 7.m4a"), "_Ann_e_7.m4a");
        assert_eq!(key_safe_name("..."), "file");
        assert_eq!(key_safe_name("a/b\\c d"), "a_b_c_d");
        assert_eq!(key_safe_name(&"y".repeat(100)).len(), 80);
    }
}
