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
    /// A message (or an assignment to a parent): `greeting`, `school`, `about`, `title`,
    /// `body` (plain text), `body_html` (sanitised HTML, inserted as is), `details`,
    /// `preferences_link`.
    Notification,
    /// An assignment to a pupil: `forename`, `school`, `title`, `body`, `body_html`,
    /// `details`, `submission_link`, `preferences_link`.
    Assignment,
    /// A daily or weekly summary: `period`, `count`, `items`, `items_html`, `preferences_link`.
    Digest,
    /// Feedback on a submission: `greeting`, `about`, `title`, `sentiment`, `feedback`,
    /// `link_line`, `link_html`, `preferences_link`.
    Feedback,
    /// A message from the Support pages, to support: `priority` ("[Priority] " or empty),
    /// `name`, `email`, `school`, `plan`, `page`, `subject`, `message`.
    SupportRequest,
    /// The sender's copy of that message: the same values.
    SupportCopy,
    /// An admin's invitation: `forename`, `school`, `link` (`/account/reset?token=…&invite=1`,
    /// 7 days).
    Invite,
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
            Template::Notification => template_files!("notification"),
            Template::Assignment => template_files!("assignment"),
            Template::Digest => template_files!("digest"),
            Template::Feedback => template_files!("feedback"),
            Template::SupportRequest => template_files!("support_request"),
            Template::SupportCopy => template_files!("support_copy"),
            Template::Invite => template_files!("invite"),
        }
    }

    /// Fills the template's placeholders with `values`. A value whose name ends in `_html`
    /// is HTML the caller made safe and goes into the HTML part as it is; every other value
    /// is escaped there.
    pub fn render(self, values: &[(&str, &str)]) -> Email {
        let (subject, text, html) = self.files();
        Email {
            subject: fill(subject, values, |_, v| v.replace(['\r', '\n'], " "))
                .trim()
                .to_owned(),
            text: fill(text, values, |_, v| v.to_owned()),
            html: fill(html, values, |name, v| {
                if name.ends_with("_html") {
                    v.to_owned()
                } else {
                    escape_html(v)
                }
            }),
        }
    }
}

fn fill(template: &str, values: &[(&str, &str)], encode: impl Fn(&str, &str) -> String) -> String {
    values
        .iter()
        .fold(template.to_owned(), |out, (name, value)| {
            out.replace(&format!("{{{{{name}}}}}"), &encode(name, value))
        })
}

/// The message body as stored and e-mailed: only p, br, strong, em, b, i, u, ul, ol, li and
/// links (`href` with http, https or mailto) survive; scripts, styles and every other tag
/// or attribute (`onclick`, `style`, ...) are removed.
pub fn sanitize_body(html: &str) -> String {
    ammonia::Builder::default()
        .tags(
            [
                "p", "br", "strong", "em", "b", "i", "u", "ul", "ol", "li", "a",
            ]
            .into_iter()
            .collect(),
        )
        .generic_attributes(std::collections::HashSet::new())
        .tag_attributes(
            [("a", ["href"].into_iter().collect())]
                .into_iter()
                .collect(),
        )
        .url_schemes(["http", "https", "mailto"].into_iter().collect())
        .link_rel(Some("noopener noreferrer"))
        .url_relative(ammonia::UrlRelative::Deny)
        .clean(html)
        .to_string()
}

/// Plain text from (sanitised) HTML for the text part: tags dropped, block ends and `<br>`
/// as line breaks, the common entities decoded.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('>') else {
            rest = "";
            break;
        };
        let tag = rest[start + 1..start + end].trim().to_ascii_lowercase();
        let name = tag
            .trim_start_matches('/')
            .split([' ', '/'])
            .next()
            .unwrap_or("");
        if matches!(
            name,
            "br" | "p" | "div" | "li" | "h1" | "h2" | "h3" | "ul" | "ol" | "blockquote"
        ) && (tag.starts_with('/') || name == "br")
        {
            out.push('\n');
        }
        if name == "li" && !tag.starts_with('/') {
            out.push_str("- ");
        }
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    let out = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    out.trim().to_owned()
}

/// Escapes text for HTML.
pub fn escape(value: &str) -> String {
    escape_html(value)
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

/// The `Due: …` line of an assignment's e-mail (empty without a due date): the spec's
/// `dd/MM/yyyy, HH:mm` (section 9), in UTC and saying so, as no reader's zone is known.
pub fn due_line(due: Option<chrono::NaiveDateTime>) -> String {
    due.map(|d| format!("Due: {} UTC", core_wasm::dates::format_date_time(d)))
        .unwrap_or_default()
}

/// The link every notification e-mail carries to the recipient's preferences.
pub fn preferences_link(public_url: &str, token: &str) -> String {
    format!("{public_url}/preferences/{token}")
}

/// A pupil's link to their submission page.
pub fn submission_link(public_url: &str, id: &str, token: &str) -> String {
    format!("{public_url}/submissions/{id}/{token}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_readable_text() {
        assert_eq!(
            html_to_text("<p>Read <b>chapter&nbsp;2</b> &amp; 3</p><ul><li>one</li></ul>"),
            "Read chapter 2 & 3\n- one"
        );
        let email =
            Template::Notification.render(&[("body", "a<b"), ("body_html", "<p>a&lt;b</p>")]);
        assert!(email.html.contains("<div><p>a&lt;b</p></div>"));
        assert!(email.text.contains("a<b"));
    }

    /// A BUSINESS organisation's people are "learners", a school's "pupils" (docs/
    /// organisations.md): the e-mails use neither word (they say "you", the child's name or
    /// "your learning"), so one text serves both. A template that names pupils must choose.
    #[test]
    fn no_e_mail_names_pupils_so_businesses_read_them_too() {
        for template in [
            Template::PasswordReset,
            Template::ConfirmEmail,
            Template::SignInLink,
            Template::AccountExists,
            Template::Notification,
            Template::Assignment,
            Template::Digest,
            Template::Feedback,
            Template::SupportRequest,
            Template::SupportCopy,
            Template::Invite,
        ] {
            let email = template.render(&[]);
            for part in [&email.subject, &email.text, &email.html] {
                assert!(
                    !part.to_lowercase().contains("pupil"),
                    "{template:?} names pupils: {part}"
                );
            }
        }
    }

    #[test]
    fn due_dates_read_as_the_spec_writes_dates() {
        let due = chrono::NaiveDate::from_ymd_opt(2026, 3, 7)
            .and_then(|d| d.and_hms_opt(9, 5, 0));
        assert_eq!(due_line(due), "Due: 07/03/2026, 09:05 UTC");
        assert_eq!(due_line(None), "");
    }

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
