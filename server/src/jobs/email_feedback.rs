//! `email.feedback` `{submissionId, audience, to}`: the feedback on a marked submission, to
//! the pupil (with a link to their page) or the parent. Queued by `feedback.email` with key
//! `email:feedback:{submissionId}:{markedAt}:{pupil|parent}`; one message per job, like
//! `email_notification`.

use chrono::NaiveDateTime;
use core_wasm::FeedbackSentiment;
use serde::{Deserialize, Serialize};

use crate::jobs::audience::{self, Audience};
use crate::jobs::{send_email, BackgroundJob, Job, JobError};
use crate::mail::templates::{escape, preferences_link, submission_link};
use crate::mail::Template;
use crate::models::submissions;
use crate::state::AppState;
use crate::translation;

/// E-mails the feedback on submission `submission_id` to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackEmail {
    pub submission_id: String,
    pub audience: Audience,
    pub to: String,
}

impl FeedbackEmail {
    /// The idempotency key: one message per marking (`marked_at`) and audience.
    pub fn key(&self, marked_at: NaiveDateTime) -> String {
        format!(
            "email:feedback:{}:{}:{}",
            self.submission_id,
            marked_at.format("%Y-%m-%dT%H:%M:%S%.6f"),
            self.audience.as_str()
        )
    }
}

/// How the e-mail names a sentiment.
fn sentiment_label(sentiment: Option<FeedbackSentiment>) -> &'static str {
    match sentiment {
        Some(FeedbackSentiment::Positive) => "Positive",
        Some(FeedbackSentiment::Negative) => "Needs work",
        _ => "Neutral",
    }
}

impl BackgroundJob for FeedbackEmail {
    const KIND: &'static str = "email.feedback";

    async fn run(&self, state: &AppState, job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let Some(marked) =
            submissions::find_feedback_for_email(&mut conn, &self.submission_id).await?
        else {
            return Ok(());
        };
        // Withdrawn, or held (never e-mailed before its release).
        if marked.marked_at.is_none() || marked.feedback_released_at.is_none() {
            return Ok(());
        }
        let kind = marked.notification.kind;
        let Some(preference) = audience::still_wanted(&mut conn, &self.to, kind).await? else {
            return Ok(());
        };
        let title = match translation::for_email(&mut conn, &marked.notification, &preference.language).await? {
            Some(t) => t.title,
            None => marked.notification.heading().to_owned(),
        };
        drop(pooled);
        let feedback = translation::feedback_for(
            state,
            &preference.language,
            marked.feedback.as_deref().unwrap_or_default(),
        )
        .await;
        let public_url = &state.config.public_url;
        let link = submission_link(public_url, &self.submission_id, &marked.token);
        let (greeting, about, link_line, link_html) = if self.audience == Audience::Pupil {
            (
                format!("Hello {},", marked.forename),
                "Your work".to_owned(),
                format!("See it on your page: {link}\n"),
                format!(
                    "<p><a href=\"{}\">See it on your page</a></p>",
                    escape(&link)
                ),
            )
        } else {
            (
                "Hello,".to_owned(),
                format!("{}'s work", marked.forename),
                String::new(),
                String::new(),
            )
        };
        let email = Template::Feedback.render(&[
            ("greeting", &greeting),
            ("about", &about),
            ("title", &title),
            ("sentiment", sentiment_label(marked.sentiment)),
            ("feedback", &feedback),
            ("link_line", &link_line),
            ("link_html", &link_html),
            (
                "preferences_link",
                &preferences_link(public_url, &preference.token),
            ),
        ]);
        send_email(state, job, &self.to, email).await
    }
}
