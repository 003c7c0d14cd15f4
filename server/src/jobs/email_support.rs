//! `email.support` `{to, recipient, name, email, school, plan, priority, page, subject,
//! message}`: a message from the Support pages' contact form, to the support address
//! (`recipient: SUPPORT`) or the sender's copy (`SENDER`). `support.contact` queues both in
//! one transaction.

use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, send_email, BackgroundJob, Job, JobError};
use crate::mail::Template;
use crate::models::now;
use crate::state::AppState;

/// Who the e-mail is for: the two differ in wording only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SupportRecipient {
    Support,
    Sender,
}

/// One support e-mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SupportEmail {
    pub to: String,
    pub recipient: SupportRecipient,
    pub name: String,
    pub email: String,
    pub school: String,
    pub plan: String,
    pub priority: bool,
    pub page: String,
    pub subject: String,
    pub message: String,
}

impl SupportEmail {
    /// Queues this e-mail to go now, inside the caller's transaction.
    pub async fn queue(&self, conn: &mut DbConn<'_>) -> diesel::result::QueryResult<()> {
        enqueue(conn, self, now(), None).await.map(drop)
    }
}

impl BackgroundJob for SupportEmail {
    const KIND: &'static str = "email.support";

    async fn run(&self, state: &AppState, job: &Job) -> Result<(), JobError> {
        let template = match self.recipient {
            SupportRecipient::Support => Template::SupportRequest,
            SupportRecipient::Sender => Template::SupportCopy,
        };
        let priority = if self.priority { "[Priority] " } else { "" };
        let email = template.render(&[
            ("priority", priority),
            ("name", &self.name),
            ("email", &self.email),
            ("school", &self.school),
            ("plan", &self.plan),
            ("page", &self.page),
            ("subject", &self.subject),
            ("message", &self.message),
        ]);
        send_email(state, job, &self.to, email).await
    }
}
