//! The password rule of spec section 5, with its exact message.

/// Shown when a password breaks the rule.
pub const PASSWORD_RULE_MESSAGE: &str = "Passwords must be at least 8 characters and should include at least 1 number and 1 uppercase letter.";

/// At least 8 characters, with a digit, an uppercase and a lowercase letter.
pub fn password_is_valid(password: &str) -> bool {
    password.chars().count() >= 8
        && password.chars().any(|c| c.is_ascii_digit())
        && password.chars().any(char::is_uppercase)
        && password.chars().any(char::is_lowercase)
}

/// `Err` with the rule's message when the password breaks it.
pub fn check_password(password: &str) -> Result<(), &'static str> {
    if password_is_valid(password) {
        Ok(())
    } else {
        Err(PASSWORD_RULE_MESSAGE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_a_password_that_meets_every_part() {
        assert!(password_is_valid("Voicemark1"));
    }

    #[test]
    fn rejects_each_missing_part() {
        assert!(!password_is_valid("Short1A")); // 7 characters
        assert!(!password_is_valid("nouppercase1"));
        assert!(!password_is_valid("NOLOWERCASE1"));
        assert!(!password_is_valid("NoDigitsHere"));
        assert_eq!(check_password("weak"), Err(PASSWORD_RULE_MESSAGE));
    }
}
