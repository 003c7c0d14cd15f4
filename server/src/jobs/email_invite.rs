//! `email.invite` `{to, forename, school, link}`: an admin's invitation to set a password
//! (`/account/reset?token=…&invite=1`), queued in the transaction that creates the pending
//! user or issues the new link (resend). Like `email.account`, the payload holds the
//! rendered single-use link until the row is cleaned up; the table stores only its hash.

use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, send_email, BackgroundJob, Job, JobError};
use crate::mail::Template;
use crate::models::now;
use crate::state::AppState;

/// One invitation e-mail to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InviteEmail {
    pub to: String,
    pub forename: String,
    /// The school's name.
    pub school: String,
    pub link: String,
}

impl InviteEmail {
    /// Queues this e-mail to go now, inside the caller's transaction.
    pub async fn queue(&self, conn: &mut DbConn<'_>) -> diesel::result::QueryResult<()> {
        enqueue(conn, self, now(), None).await.map(drop)
    }
}

impl BackgroundJob for InviteEmail {
    const KIND: &'static str = "email.invite";

    async fn run(&self, state: &AppState, job: &Job) -> Result<(), JobError> {
        let email = Template::Invite.render(&[
            ("forename", &self.forename),
            ("school", &self.school),
            ("link", &self.link),
        ]);
        send_email(state, job, &self.to, email).await
    }
}
