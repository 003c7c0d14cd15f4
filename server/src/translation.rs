//! Messages and assignments in each recipient's own language (docs/translation.md). When a
//! notification is sent, every language its e-mail recipients chose other than the school's
//! (English) is translated once by the chat model and kept in `notification_translations`;
//! each e-mail and digest in that language then shows the translation, a line saying it
//! was translated automatically, and the original below. A translation never stops a
//! message: without a chat model, when the model fails, answers too slowly or changes a
//! link, the original goes out as it always did.

use std::collections::BTreeSet;
use std::time::Duration;

use futures_util::stream::{self, StreamExt};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::db::DbConn;
use crate::jobs::audience;
use crate::models::notifications::{self, EmailedNotification};
use crate::models::recipients::{resolve_recipients, Filters};
use crate::models::translations::{self, Translation};
use crate::models::{email_preferences, now};
use crate::providers::chat::{extract_json, ChatRequest};
use crate::mail::templates::sanitize_body;
use crate::providers::ChatClient;
use crate::state::AppState;

/// Every school writes in English (the spec gives schools no language); a recipient who
/// chose English, or nothing, gets the original.
pub const SCHOOL_LANGUAGE: &str = "en";

/// The longest one language's translation may take before the send goes on without it.
pub const TRANSLATION_TIMEOUT: Duration = Duration::from_secs(20);

/// How many languages are asked of the model at once.
const CONCURRENT_LANGUAGES: usize = 8;

/// The English line shown above the original, under the translated one.
pub const ORIGINAL_NOTICE: &str =
    "This message was translated automatically. The original (English) is below.";

/// Names the text a translation was made from: the heading and the body.
pub fn source_hash(title: &str, body: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(title.as_bytes());
    hash.update([0]);
    hash.update(body.as_bytes());
    hex::encode(hash.finalize())
}

/// The translation an e-mail to someone who chose `language` shows, if there is one for
/// the notification's current text.
pub async fn for_email(
    conn: &mut DbConn<'_>,
    n: &EmailedNotification,
    language: &str,
) -> diesel::result::QueryResult<Option<Translation>> {
    if language == SCHOOL_LANGUAGE || language.is_empty() {
        return Ok(None);
    }
    let hash = source_hash(n.heading(), &n.body);
    translations::find(conn, &n.id, language, &hash).await
}

/// An e-mail's heading, plain-text body and HTML body for a translated notification: the
/// translation, the line saying so (in the recipient's language and in English), then the
/// original heading and body.
pub fn with_original(t: &Translation, title: &str, body_html: &str) -> (String, String, String) {
    use crate::mail::templates::{escape, html_to_text};
    let text = format!(
        "{}\n\n{}\n{ORIGINAL_NOTICE}\n\n{title}\n\n{}",
        html_to_text(&t.body).trim_end(),
        t.notice,
        html_to_text(body_html).trim_end(),
    );
    let html = format!(
        "{}<hr><p style=\"font-size: 0.9em; color: #555\">{}<br><span lang=\"en\">{ORIGINAL_NOTICE}</span></p>\
         <h3 lang=\"en\" style=\"font-size: 1.05em\">{}</h3><div lang=\"en\">{body_html}</div>",
        t.body,
        escape(&t.notice),
        escape(title),
    );
    (t.title.clone(), text, html)
}

/// Before notification `notification_id` is sent: translates it into each language its
/// e-mail recipients chose that has no translation of the current text yet. Returns how
/// many languages were translated now. Failures are logged and leave that language out.
pub async fn prepare(state: &AppState, notification_id: &str) -> Result<usize, crate::jobs::JobError> {
    let Some(chat) = state.providers.chat.as_ref() else {
        return Ok(0);
    };
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let Some(n) = notifications::find_sendable(&mut conn, notification_id).await? else {
        return Ok(0);
    };
    if n.send_date.is_some_and(|d| d > now()) {
        return Ok(0); // rescheduled: translated when it is sent
    }
    let Some((text, _school)) = notifications::find_for_email(&mut conn, notification_id).await? else {
        return Ok(0);
    };
    let Some(rules) = audience::school_rules(&mut conn, &n.school_id).await? else {
        return Ok(0);
    };
    let recipients = resolve_recipients(&mut conn, &n.school_id, &Filters::from_stored(&n.filters)).await?;
    let addresses: BTreeSet<String> = audience::notification_targets(&n, &rules, &recipients)
        .into_iter()
        .map(|t| t.to)
        .collect();
    let addresses: Vec<String> = addresses.into_iter().collect();
    let preferences = email_preferences::find_many(&mut conn, &addresses).await?;
    let hash = source_hash(text.heading(), &text.body);
    let mut wanted = Vec::new();
    let languages: BTreeSet<&str> = preferences
        .values()
        .filter(|p| p.allows(n.kind))
        .map(|p| p.language.as_str())
        .filter(|l| *l != SCHOOL_LANGUAGE && core_wasm::languages::language_name(l).is_some())
        .collect();
    for language in languages {
        if translations::find(&mut conn, &text.id, language, &hash).await?.is_none() {
            wanted.push(language.to_owned());
        }
    }
    drop(pooled);
    if wanted.is_empty() {
        return Ok(0);
    }

    let title = text.heading().to_owned();
    let results: Vec<(String, Result<Translated, String>)> = stream::iter(wanted)
        .map(|language| {
            let (title, body) = (&title, &text.body);
            async move {
                let result = match tokio::time::timeout(
                    TRANSLATION_TIMEOUT,
                    translate(chat, title, body, &language),
                )
                .await
                {
                    Ok(result) => result,
                    Err(_) => Err(format!("no answer within {} s", TRANSLATION_TIMEOUT.as_secs())),
                };
                (language, result)
            }
        })
        .buffer_unordered(CONCURRENT_LANGUAGES)
        .collect()
        .await;

    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let mut made = 0;
    for (language, result) in results {
        match result {
            Ok(t) => {
                translations::save(
                    &mut conn,
                    &Translation {
                        notification_id: text.id.clone(),
                        language,
                        source_hash: hash.clone(),
                        title: t.title,
                        body: t.body,
                        notice: t.notice,
                        created_at: now(),
                    },
                )
                .await?;
                made += 1;
            }
            Err(reason) => tracing::warn!(
                notification = %text.id,
                %language,
                %reason,
                "translation failed; the original is sent"
            ),
        }
    }
    Ok(made)
}

/// What the model gave back for one language, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub title: String,
    /// Sanitised HTML, as a notification's body is stored.
    pub body: String,
    pub notice: String,
}

/// Asks the chat model for `title` and the HTML `body` in `language` (an ISO 639-1 code).
pub async fn translate(
    chat: &ChatClient,
    title: &str,
    body: &str,
    language: &str,
) -> Result<Translated, String> {
    let name = core_wasm::languages::language_name(language).ok_or("not a language we offer")?;
    let request = ChatRequest {
        system: format!(
            "You translate messages that a school sends to pupils and parents from English into {name}. \
             Translate the title and the body faithfully and plainly. The body is HTML: keep every tag \
             and attribute exactly as it is and translate only the text between tags. Never change or \
             translate links or e-mail addresses, people's names, the school's name, dates, times or \
             numbers. Also translate this sentence as `notice`: \"{ORIGINAL_NOTICE}\" \
             Answer with JSON only: {{\"title\": ..., \"body\": ..., \"notice\": ...}}."
        ),
        user: json!({ "title": title, "body": body }).to_string(),
        schema: Some(("translation".into(), schema())),
        max_tokens: 4000,
        temperature: 0.2,
    };
    let answer = chat.complete(&request).await.map_err(|e| e.to_string())?;
    check(title, body, &answer)
}

/// Feedback on one pupil's work for an e-mail to someone who chose `language`: the
/// translation, the line saying so (in that language and in English) and the original; the
/// original alone when no translation is wanted or the model does not give one in time.
/// Feedback is written for one pupil, so it is translated for each e-mail, not kept.
pub async fn feedback_for(state: &AppState, language: &str, feedback: &str) -> String {
    let Some(chat) = state.providers.chat.as_ref() else {
        return feedback.to_owned();
    };
    let Some(name) = core_wasm::languages::language_name(language) else {
        return feedback.to_owned();
    };
    if language == SCHOOL_LANGUAGE || feedback.trim().is_empty() {
        return feedback.to_owned();
    }
    let request = ChatRequest {
        system: format!(
            "You translate a teacher's feedback on a pupil's work from English into {name}. \
             Translate it faithfully and plainly. Never change or translate links, people's \
             names, dates, times or numbers. Also translate this sentence as `notice`: \
             \"{ORIGINAL_NOTICE}\" Answer with JSON only: {{\"text\": ..., \"notice\": ...}}."
        ),
        user: feedback.to_owned(),
        schema: Some((
            "translation".into(),
            json!({
                "type": "object",
                "properties": { "text": { "type": "string" }, "notice": { "type": "string" } },
                "required": ["text", "notice"],
                "additionalProperties": false
            }),
        )),
        max_tokens: 2000,
        temperature: 0.2,
    };
    let answer = tokio::time::timeout(TRANSLATION_TIMEOUT, chat.complete(&request)).await;
    let parsed = match answer {
        Ok(Ok(text)) => extract_json(&text).and_then(|v| {
            let get = |k: &str| v.get(k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
            Some((get("text")?, get("notice")?))
        }),
        Ok(Err(err)) => {
            tracing::warn!(%language, error = %err, "feedback translation failed; the original is sent");
            None
        }
        Err(_) => {
            tracing::warn!(%language, "feedback translation timed out; the original is sent");
            None
        }
    };
    match parsed {
        Some((text, notice)) => format!("{text}\n\n{notice}\n{ORIGINAL_NOTICE}\n\n{feedback}"),
        None => feedback.to_owned(),
    }
}

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "title": { "type": "string" },
            "body": { "type": "string" },
            "notice": { "type": "string" }
        },
        "required": ["title", "body", "notice"],
        "additionalProperties": false
    })
}

/// Reads the model's answer: three non-empty texts, the body sanitised as a stored body is,
/// and exactly the original's links (a translation that drops or changes one is refused).
pub fn check(title: &str, body: &str, answer: &str) -> Result<Translated, String> {
    let value = extract_json(answer).ok_or("the answer was not JSON")?;
    let field = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .ok_or(format!("the answer has no {name}"))
    };
    let (new_title, new_body, notice) = (field("title")?, field("body")?, field("notice")?);
    let new_body = sanitize_body(&new_body);
    if links(&new_body) != links(&sanitize_body(body)) {
        return Err("the translation changed the message's links".into());
    }
    if title.trim().is_empty() {
        return Err("nothing to translate".into());
    }
    Ok(Translated {
        title: new_title.replace(['\r', '\n'], " "),
        body: new_body,
        notice: notice.replace(['\r', '\n'], " "),
    })
}

/// The `href` values of sanitised HTML, in order.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "<p>Bring your <a href=\"https://example.org/kit\" rel=\"noopener noreferrer\">kit list</a> on 03/12/2026.</p>";

    #[test]
    fn a_good_answer_is_taken_with_its_body_sanitised() {
        let answer = json!({
            "title": "Wycieczka",
            "body": "<p>Zabierz <a href=\"https://example.org/kit\">listę</a> 03/12/2026.<script>x()</script></p>",
            "notice": "Ta wiadomość została przetłumaczona automatycznie."
        })
        .to_string();
        let t = check("Trip", BODY, &answer).expect("taken");
        assert_eq!(t.title, "Wycieczka");
        assert!(t.body.contains("href=\"https://example.org/kit\""));
        assert!(!t.body.contains("script"));
        assert_eq!(t.notice, "Ta wiadomość została przetłumaczona automatycznie.");
    }

    #[test]
    fn an_answer_that_changes_a_link_or_misses_a_field_is_refused() {
        let changed = json!({ "title": "W", "body": "<p><a href=\"https://evil.example\">x</a></p>", "notice": "n" });
        assert!(check("Trip", BODY, &changed.to_string()).unwrap_err().contains("links"));
        let dropped = json!({ "title": "W", "body": "<p>bez linku</p>", "notice": "n" });
        assert!(check("Trip", BODY, &dropped.to_string()).is_err());
        let missing = json!({ "title": "W", "body": "<p>x</p>" });
        assert!(check("Trip", "<p>x</p>", &missing.to_string()).unwrap_err().contains("notice"));
        assert!(check("Trip", BODY, "not json at all").is_err());
    }

    #[test]
    fn the_source_hash_names_title_and_body() {
        assert_eq!(source_hash("a", "b"), source_hash("a", "b"));
        assert_ne!(source_hash("a", "b"), source_hash("ab", ""));
        assert_ne!(source_hash("a", "b"), source_hash("a", "c"));
    }
}
