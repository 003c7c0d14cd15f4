//! The filename rule for stored files (voice notes, uploads), with spec section 5's message.
//! The browser checks it as the user types; the server applies it before signing an upload.

/// Shown when nothing usable is left of a filename.
pub const FILENAME_REQUIRED: &str = "Filename is required";
/// Longest filename kept, in characters.
pub const MAX_FILENAME: usize = 200;

/// A filename as shown and stored: no folders, no control characters, trimmed; `Err` with
/// the message to show when nothing is left or it is too long.
pub fn clean_filename(raw: &str) -> Result<String, String> {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean == "." || clean == ".." {
        return Err(FILENAME_REQUIRED.to_owned());
    }
    if clean.chars().count() > MAX_FILENAME {
        return Err(format!(
            "Filename must be at most {MAX_FILENAME} characters"
        ));
    }
    Ok(clean.to_owned())
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
        assert_eq!(clean_filename("  "), Err(FILENAME_REQUIRED.to_owned()));
        assert_eq!(clean_filename("a/.."), Err(FILENAME_REQUIRED.to_owned()));
        assert!(clean_filename(&"x".repeat(MAX_FILENAME + 1)).is_err());
    }
}
