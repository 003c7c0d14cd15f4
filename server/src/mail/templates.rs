//! E-mail templates: files under `server/templates/mail/` (`<name>.subject.txt`, `<name>.txt`,
//! `<name>.html`), compiled in, with `{{name}}` placeholders. Values are HTML-escaped in the
//! HTML part; the subject and text parts take them as they are.

/// A message ready to send: subject, plain text and HTML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// Every e-mail the server sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// `forename`, `link` (`/account/reset?token=…`, one hour).
    PasswordReset,
    /// `forename`, `link` (`/account/confirm?token=…`, 24 hours).
    ConfirmEmail,
    /// `forename`, `link` (`/api/auth/callback/email?…`, 24 hours).
    SignInLink,
    /// `forename`, `link` (the forgotten-password page): sent instead of a confirmation
    /// when someone registers with an address that already has an account.
    AccountExists,
}

macro_rules! template_files {
    ($name:literal) => {
        (
            include_str!(concat!("../../templates/mail/", $name, ".subject.txt")),
            include_str!(concat!("../../templates/mail/", $name, ".txt")),
            include_str!(concat!("../../templates/mail/", $name, ".html")),
        )
    };
}

impl Template {
    fn files(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Template::PasswordReset => template_files!("password_reset"),
            Template::ConfirmEmail => template_files!("confirm_email"),
            Template::SignInLink => template_files!("sign_in_link"),
            Template::AccountExists => template_files!("account_exists"),
        }
    }

    /// Fills the template's placeholders with `values`.
    pub fn render(self, values: &[(&str, &str)]) -> Email {
        let (subject, text, html) = self.files();
        Email {
            subject: fill(subject, values, |v| v.replace(['\r', '\n'], " "))
                .trim()
                .to_owned(),
            text: fill(text, values, str::to_owned),
            html: fill(html, values, escape_html),
        }
    }
}

fn fill(template: &str, values: &[(&str, &str)], encode: impl Fn(&str) -> String) -> String {
    values
        .iter()
        .fold(template.to_owned(), |out, (name, value)| {
            out.replace(&format!("{{{{{name}}}}}"), &encode(value))
        })
}

fn escape_html(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_every_part_and_escapes_html() {
        let email = Template::PasswordReset
            .render(&[("forename", "<Ada>"), ("link", "https://x/r?token=a&b=c")]);
        assert_eq!(email.subject, "Reset your Voicemark password");
        assert!(email.text.contains("Hello <Ada>,"));
        assert!(email.text.contains("https://x/r?token=a&b=c"));
        assert!(email.html.contains("Hello &lt;Ada&gt;,"));
        assert!(email.html.contains("href=\"https://x/r?token=a&amp;b=c\""));
        for template in [
            Template::ConfirmEmail,
            Template::SignInLink,
            Template::AccountExists,
        ] {
            let email = template.render(&[("forename", "Ada"), ("link", "L")]);
            assert!(
                !email.text.contains("{{") && !email.html.contains("{{"),
                "{template:?}"
            );
        }
    }
}
