//! `email.account` `{to, message, forename, link}`: the e-mails of the account flows (address
//! confirmation, the "you already have an account" note, password reset, sign-in link). The
//! flow queues it in the transaction that stores the user or link token, so the request never
//! talks to the mail server: it answers as fast whether or not the address has an account and
//! whether or not mail is up, and a failed send is retried with backoff.
//!
//! The payload holds the rendered link, so the raw single-use token sits in the `jobs` row
//! until the row is cleaned up. Accepted on purpose: the token also travels in the e-mail
//! itself, it works once, and it expires (one hour for a reset, 24 hours otherwise); the
//! `verification_tokens` table still stores only its hash.

use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, send_email, BackgroundJob, Job, JobError};
use crate::mail::Template;
use crate::models::now;
use crate::state::AppState;

/// Which account e-mail to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AccountMessage {
    /// `/account/confirm?token=…` after registering.
    ConfirmEmail,
    /// Sent instead of a confirmation when the address already has an account; the link is
    /// the forgotten-password page.
    AccountExists,
    /// `/account/reset?token=…`.
    PasswordReset,
    /// `/api/auth/callback/email?…`, the e-mail sign-in link.
    SignInLink,
}

impl AccountMessage {
    fn template(self) -> Template {
        match self {
            AccountMessage::ConfirmEmail => Template::ConfirmEmail,
            AccountMessage::AccountExists => Template::AccountExists,
            AccountMessage::PasswordReset => Template::PasswordReset,
            AccountMessage::SignInLink => Template::SignInLink,
        }
    }
}

/// One account e-mail to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountEmail {
    pub to: String,
    pub message: AccountMessage,
    pub forename: String,
    pub link: String,
}

impl AccountEmail {
    /// Queues this e-mail to go now, inside the caller's transaction.
    pub async fn queue(&self, conn: &mut DbConn<'_>) -> diesel::result::QueryResult<()> {
        enqueue(conn, self, now(), None).await.map(drop)
    }
}

impl BackgroundJob for AccountEmail {
    const KIND: &'static str = "email.account";

    async fn run(&self, state: &AppState, job: &Job) -> Result<(), JobError> {
        let email = self
            .message
            .template()
            .render(&[("forename", &self.forename), ("link", &self.link)]);
        send_email(state, job, &self.to, email).await
    }
}
