//! E-mail addresses as the server stores and compares them: trimmed and lower case. The one
//! place this rule is written (sign-in, staff and pupil records, preferences, job keys).

/// `email` trimmed and in lower case: addresses are compared without case and without
/// surrounding spaces.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// The normalised address to send to, or `None` when there is none (missing, blank, or no
/// `@`).
pub fn mail_address(raw: Option<&str>) -> Option<String> {
    raw.map(normalise_email).filter(|e| e.contains('@'))
}

/// Whether `raw` (as stored, in any case) is the normalised address `address`.
pub fn is_address(raw: Option<&str>, address: &str) -> bool {
    raw.is_some_and(|e| normalise_email(e) == address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_and_lower_case() {
        assert_eq!(normalise_email("  Ada@School.Test "), "ada@school.test");
        assert_eq!(
            mail_address(Some(" Ada@School.Test")).as_deref(),
            Some("ada@school.test")
        );
        assert_eq!(mail_address(Some("   ")), None);
        assert_eq!(mail_address(Some("no-at-sign")), None);
        assert_eq!(mail_address(None), None);
        assert!(is_address(Some(" ADA@school.test"), "ada@school.test"));
        assert!(!is_address(Some("bob@school.test"), "ada@school.test"));
        assert!(!is_address(None, "ada@school.test"));
    }
}
