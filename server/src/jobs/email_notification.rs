//! `email.notification` `{notificationId, studentId, audience, to}`: one message or
//! assignment to one address (pupils get their `/submissions/{id}/{token}` link). Queued by
//! `notification.send` with key `email:{notificationId}:{studentId}:{pupil|parent}`.
//!
//! E-mail jobs send one message per job, so that the job row is the record of the message.
//! Exactly once: a worker marks the job `DONE` only after the SMTP server accepted the
//! message (lettre returns after the 250 that answers DATA). A crash after that accept and
//! before the `DONE` commit leaves the job `RUNNING`; once its lease expires it is sent
//! again, and that copy carries the same `Message-ID: <{job id}@voicemark>`, so at most one
//! duplicate per crash can reach a receiver, and one that deduplicates by Message-ID sees
//! it once. A job can never be queued twice: its idempotency key is unique.

use core_wasm::NotificationType;
use serde::{Deserialize, Serialize};

use crate::jobs::audience::{self, Audience};
use crate::jobs::{send_email, BackgroundJob, Job, JobError};
use crate::mail::templates::{due_line, escape, html_to_text, preferences_link, submission_link};
use crate::mail::Template;
use crate::models::{deliveries, notifications, now, organisations, students, submissions};
use crate::reach;
use crate::state::AppState;
use crate::translation;

/// E-mails notification `notification_id` about pupil `student_id` to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationEmail {
    pub notification_id: String,
    pub student_id: String,
    pub audience: Audience,
    pub to: String,
}

impl NotificationEmail {
    /// The idempotency key: one message per notification, pupil and audience.
    pub fn key(&self) -> String {
        format!(
            "email:{}:{}:{}",
            self.notification_id,
            self.student_id,
            self.audience.as_str()
        )
    }
}

impl BackgroundJob for NotificationEmail {
    const KIND: &'static str = "email.notification";

    async fn run(&self, state: &AppState, job: &Job) -> Result<(), JobError> {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        let Some((n, school)) =
            notifications::find_for_email(&mut conn, &self.notification_id).await?
        else {
            return Ok(()); // deleted since: nothing to say
        };
        let Some((forename, surname)) = students::find_name(&mut conn, &self.student_id).await?
        else {
            return Ok(());
        };
        let whom = self.audience.as_str();
        let Some(preference) = audience::still_wanted(&mut conn, &self.to, n.kind).await? else {
            // Switched off since it was queued.
            deliveries::mark_opted_out(&mut conn, &n.id, &self.student_id, whom).await?;
            return Ok(());
        };
        let public_url = &state.config.public_url;
        let pupil = self.audience == Audience::Pupil;
        let (title, body_text, body_html) =
            match translation::for_email(&mut conn, &n, &preference.language).await? {
                Some(t) => translation::with_original(&t, n.heading(), &n.body),
                None => (
                    n.heading().to_owned(),
                    html_to_text(&n.body),
                    n.body.clone(),
                ),
            };
        let details = due_line(n.submission_due_date);
        let prefs = preferences_link(public_url, &preference.token);
        // The delivery's signed links (docs/reach.md): the one that counts the message as
        // opened, and the invisible image where the school switched it on.
        let delivery = deliveries::find_id(&mut conn, &n.id, &self.student_id, whom).await?;
        let pixel_html = match &delivery {
            Some(id) if organisations::reach_pixel_on(&mut conn, &n.school_id).await? => {
                reach::pixel_html(public_url, state.auth.secret(), id)
            }
            _ => String::new(),
        };
        let email = if pupil && n.kind == NotificationType::Assignment {
            let Some((id, token)) =
                submissions::find_link(&mut conn, &n.id, &self.student_id).await?
            else {
                return Err(JobError::Retry("the pupil's submission is missing".into()));
            };
            let link = submission_link(public_url, &id, &token);
            Template::Assignment.render(&[
                ("forename", &forename),
                ("school", &school),
                ("title", &title),
                ("body", &body_text),
                ("body_html", &body_html),
                ("details", &details),
                ("submission_link", &link),
                ("pixel_html", &pixel_html),
                ("preferences_link", &prefs),
            ])
        } else {
            let open = delivery
                .as_deref()
                .map(|id| reach::open_link(public_url, state.auth.secret(), id));
            let open_line = open
                .as_deref()
                .map(|l| format!("\nRead this message online: {l}\n"))
                .unwrap_or_default();
            let open_html = open
                .as_deref()
                .map(|l| {
                    format!(
                        "<p><a href=\"{}\">Read this message online</a></p>\n",
                        escape(l)
                    )
                })
                .unwrap_or_default();
            let (greeting, about) = if pupil {
                (format!("Hello {forename},"), "your learning".to_owned())
            } else {
                ("Hello,".to_owned(), format!("{forename} {surname}"))
            };
            Template::Notification.render(&[
                ("greeting", &greeting),
                ("school", &school),
                ("about", &about),
                ("title", &title),
                ("body", &body_text),
                ("body_html", &body_html),
                ("details", &details),
                ("open_line", &open_line),
                ("open_html", &open_html),
                ("pixel_html", &pixel_html),
                ("preferences_link", &prefs),
            ])
        };
        drop(pooled);
        send_email(state, job, &self.to, email).await?;
        // The server took it: Sent (a crash before this line sends again, same Message-ID).
        // Failing to record it must not send it again: the job is done either way.
        let recorded = match state.db.conn().await {
            Ok(mut pooled) => {
                deliveries::mark_sent(&mut pooled.db(), &n.id, &self.student_id, whom, now())
                    .await
                    .map_err(|e| e.to_string())
            }
            Err(e) => Err(e.to_string()),
        };
        if let Err(error) = recorded {
            tracing::warn!(notification = %n.id, %error, "delivery not recorded as sent");
        }
        Ok(())
    }
}
