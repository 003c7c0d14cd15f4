//! The e-mail address rule: when an address is plausible enough to store or send to
//! (registration, password reset, e-mail sign-in, staff and pupils saved or imported by a
//! school admin, `voicemark user add`), and the message for one that is not. Deliverability
//! is the mail server's business: this is a shape check, the same in the browser and the
//! server.

/// Shown beside an e-mail field whose address breaks the rule.
pub const INVALID_EMAIL_MESSAGE: &str = "Enter a valid e-mail address.";
/// Longest address accepted, in bytes (RFC 5321's path limit less the brackets).
pub const MAX_EMAIL_BYTES: usize = 254;

/// Exactly one `@` with something before it; a dotted domain after it that neither starts
/// nor ends with a dot; at most 254 bytes; no spaces, control characters or double quotes.
/// The strictest of the checks the server had (auth refused quotes, which Auth.js also
/// refuses; none of the admin paths had a test that needed them).
pub fn is_valid_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && email.len() <= MAX_EMAIL_BYTES
        && !email
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"')
}

/// The rule's message when `email` breaks it, `None` when it is fine.
pub fn email_error(email: &str) -> Option<&'static str> {
    (!is_valid_email(email)).then_some(INVALID_EMAIL_MESSAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses() {
        for good in [
            "ada@school.org",
            "teacher@school.example",
            "ada.lovelace+y7@mail.school.sch.uk",
            "ada@school.test",
        ] {
            assert!(is_valid_email(good), "{good}");
            assert_eq!(email_error(good), None);
        }
    }

    #[test]
    fn refuses_what_any_former_check_refused() {
        for bad in [
            "",
            "ada",
            "ada@school",
            "@school.org",
            "a@b@c.org",
            "a b@c.org",
            "a@.org",
            "a@org.",
            "\"ada\"@school.org",
            "ada@school.org\n",
            "a da@school.test",
            "@school.test",
            "teacher",
            "a@b",
            "a b@c.d",
            "a@b@c.d",
        ] {
            assert!(!is_valid_email(bad), "{bad:?}");
        }
        let long = format!("{}@school.org", "a".repeat(250));
        assert!(!is_valid_email(&long));
        assert_eq!(email_error("ada"), Some("Enter a valid e-mail address."));
    }
}
