//! `email.digest` `{email, frequency, periodEnd}`: everything sent to that address since its
//! last digest, in one message. Queued by `notification.send` for the next digest time with
//! key `digest:{email}:{time}`; one message per job, like `email_notification`.

use std::collections::HashSet;

use chrono::NaiveDateTime;
use core_wasm::{NotificationFrequency, NotificationType};
use serde::{Deserialize, Serialize};

use crate::jobs::audience::{self, Audience};
use crate::jobs::{send_email, BackgroundJob, Job, JobError};
use crate::mail::templates::{due_line, escape, html_to_text, preferences_link, submission_link};
use crate::mail::Template;
use crate::models::{deliveries, email_preferences, recipients, submissions};
use crate::reach;
use crate::state::AppState;
use crate::translation;

/// The digest of address `email` for the period ending at `period_end`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DigestEmail {
    pub email: String,
    pub frequency: NotificationFrequency,
    pub period_end: NaiveDateTime,
}

impl DigestEmail {
    /// The idempotency key: one digest per address and digest time.
    pub fn key(&self) -> String {
        format!(
            "digest:{}:{}",
            self.email,
            self.period_end.format("%Y-%m-%dT%H:%M")
        )
    }
}

impl BackgroundJob for DigestEmail {
    const KIND: &'static str = "email.digest";

    async fn run(&self, state: &AppState, job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let Some(preference) = email_preferences::find(&mut conn, &self.email).await? else {
            return Ok(());
        };
        let since = preference
            .last_digest_at
            .unwrap_or(self.period_end - audience::digest_period(self.frequency));
        if since >= self.period_end {
            return Ok(()); // this period's digest already went out
        }
        let address = self.email.as_str();
        let rows =
            recipients::receipts_for_digest(&mut conn, address, since, self.period_end).await?;
        let public_url = &state.config.public_url;
        let mut items_text = String::new();
        let mut items_html = String::new();
        let mut count = 0;
        let mut seen = HashSet::new();
        let mut listed = Vec::new();
        for row in rows {
            let Some(as_whom) = audience::digest_audience(&row, address, &preference) else {
                continue;
            };
            let n = &row.notification;
            if !seen.insert((n.id.clone(), row.student_id.clone())) {
                continue;
            }
            count += 1;
            listed.push((n.id.clone(), row.student_id.clone(), as_whom.as_str()));
            let as_pupil = as_whom == Audience::Pupil;
            let (link, link_text) = if as_pupil && n.kind == NotificationType::Assignment {
                let link = submissions::find_link(&mut conn, &n.id, &row.student_id)
                    .await?
                    .map(|(id, token)| submission_link(public_url, &id, &token));
                (link, "Hand in your work")
            } else {
                // The signed link that counts the message as opened (docs/reach.md).
                let link = deliveries::find_id(&mut conn, &n.id, &row.student_id, as_whom.as_str())
                    .await?
                    .map(|id| reach::open_link(public_url, state.auth.secret(), &id));
                (link, "Read this message online")
            };
            let about = if as_pupil {
                "you".to_owned()
            } else {
                row.forename.clone()
            };
            let details = due_line(n.submission_due_date);
            let (title, body_text, body_html) =
                match translation::for_email(&mut conn, n, &preference.language).await? {
                    Some(t) => translation::with_original(&t, n.heading(), &n.body),
                    None => (
                        n.heading().to_owned(),
                        html_to_text(&n.body),
                        n.body.clone(),
                    ),
                };
            items_text.push_str(&format!(
                "* {} (from {}, for {about})\n{}\n{details}{}\n",
                title,
                row.school,
                body_text,
                link.as_deref()
                    .map(|l| format!("\n{link_text}: {l}\n"))
                    .unwrap_or_default(),
            ));
            items_html.push_str(&format!(
                "<h3 style=\"font-size: 1.05em\">{} <small>(from {}, for {})</small></h3><div>{}</div><p>{}</p>{}",
                escape(&title),
                escape(&row.school),
                escape(&about),
                body_html,
                escape(&details),
                link.as_deref()
                    .map(|l| format!("<p><a href=\"{}\">{link_text}</a></p>", escape(l)))
                    .unwrap_or_default(),
            ));
        }
        if count > 0 {
            let period = match self.frequency {
                NotificationFrequency::Weekly => "weekly",
                _ => "daily",
            };
            let email = Template::Digest.render(&[
                ("period", period),
                ("count", &count.to_string()),
                ("items", &items_text),
                ("items_html", &items_html),
                (
                    "preferences_link",
                    &preferences_link(public_url, &preference.token),
                ),
            ]);
            send_email(state, job, &self.email, email).await?;
            // Sent: every delivery it listed (a failure to record must not send it again).
            let at = crate::models::now();
            for (notification_id, student_id, whom) in &listed {
                if let Err(error) =
                    deliveries::mark_sent(&mut conn, notification_id, student_id, whom, at).await
                {
                    tracing::warn!(%error, "digest delivery not recorded as sent");
                }
            }
        }
        // After the send: a crash before this line sends the same digest (same Message-ID)
        // again; after it, a rerun finds the period done and sends nothing.
        email_preferences::mark_digest_sent(&mut conn, &self.email, self.period_end).await?;
        Ok(())
    }
}
