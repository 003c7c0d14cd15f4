//! Staffing a school (Manage Users): seats bought, used and pending; inviting people (one
//! or a CSV batch, all or nothing, never beyond the seats); the invitation link. Runs
//! inside the caller's transaction; the procedures in `rpc/user/` and `rpc/leader/` check
//! who may do it and for which school.

use chrono::Duration;
use core_wasm::plan::Plan;
use core_wasm::UserRole;
use diesel::result::QueryResult;

use crate::auth::tokens::{self, Purpose};
use crate::config::Config;
use crate::db::DbConn;
use crate::ids::new_id;
use crate::jobs::email_invite::InviteEmail;
use crate::models::users::{self, NewUser};
use crate::models::audit::{self, AuditAction};
use crate::models::{now, user_directory};
use crate::plans::school_plan;

/// How long an invitation link works.
pub const INVITE_LINK_VALIDITY: Duration = Duration::days(7);

/// The school's seats as Manage Users shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seats {
    pub plan: Plan,
    /// Seats the school may fill (`None`: no limit).
    pub allowance: Option<i64>,
    /// Seats bought with the subscription (`None` without a seat count).
    pub bought: Option<i64>,
    /// Active users (activated, not disabled).
    pub used: i64,
    /// Invited users who have not set a password yet (not disabled).
    pub pending: i64,
}

impl Seats {
    /// Seats still free (`None`: no limit).
    pub fn available(&self) -> Option<i64> {
        self.allowance
            .map(|a| (a - self.used - self.pending).max(0))
    }

    /// Whether `more` people more fit.
    pub fn fits(&self, more: i64) -> bool {
        self.available().is_none_or(|free| more <= free)
    }

    /// Why `wanted` more people do not fit, and how to get seats.
    pub fn full_message(&self, wanted: i64) -> String {
        let free = self.available().unwrap_or(0);
        let what = if wanted == 1 {
            "There are no free seats left".to_owned()
        } else if free == 0 {
            format!("There are no free seats left for these {wanted} people")
        } else {
            format!("Only {free} of the {wanted} seats needed are free")
        };
        match self.plan {
            Plan::Basic => format!(
                "{what}: the Basic plan has one user. Choose Upgrade to Pro to invite colleagues."
            ),
            Plan::Pro => format!(
                "{what}: all {} seats are taken or invited. Choose Manage subscription to buy more seats.",
                self.allowance.unwrap_or(0)
            ),
        }
    }
}

/// The seats of `school_id` now.
pub async fn seats(conn: &mut DbConn<'_>, config: &Config, school_id: &str) -> QueryResult<Seats> {
    let plan = school_plan(conn, config, school_id).await?;
    let (used, pending) = user_directory::seat_counts(conn, school_id).await?;
    Ok(Seats {
        plan: plan.plan,
        allowance: plan.seat_allowance().map(i64::from),
        bought: match plan.plan {
            Plan::Pro => plan.seats.map(i64::from),
            Plan::Basic => None,
        },
        used,
        pending,
    })
}

/// One person to invite; the address already normalised and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitee {
    pub forename: String,
    pub surname: String,
    pub email: String,
    pub role: UserRole,
}

/// Why an invitation (or a batch) was not made; nothing was written.
#[derive(Debug)]
pub enum InviteError {
    /// The addresses of these invitees (their indexes) already have accounts.
    EmailTaken(Vec<usize>),
    /// The people do not fit in the school's seats: the message says how to get more.
    SeatsFull(String),
    Db(diesel::result::Error),
}

impl From<diesel::result::Error> for InviteError {
    fn from(err: diesel::result::Error) -> Self {
        InviteError::Db(err)
    }
}

/// Creates every invitee as a pending user of `school_id` and queues their invitation, all
/// or nothing (call inside a transaction), each recorded in the audit log as done by user
/// `by` (`None`: by the MIS sync). Returns the new users' ids, in order.
pub async fn invite(
    conn: &mut DbConn<'_>,
    config: &Config,
    by: Option<&str>,
    school_id: &str,
    invitees: &[Invitee],
) -> Result<Vec<String>, InviteError> {
    user_directory::lock_school(conn, school_id).await?;
    let mut taken = Vec::new();
    for (index, invitee) in invitees.iter().enumerate() {
        if users::user_with_email(conn, &invitee.email).await?.is_some() {
            taken.push(index);
        }
    }
    if !taken.is_empty() {
        return Err(InviteError::EmailTaken(taken));
    }
    let seats = seats(conn, config, school_id).await?;
    if !seats.fits(invitees.len() as i64) {
        return Err(InviteError::SeatsFull(
            seats.full_message(invitees.len() as i64),
        ));
    }
    let school = school_name(conn, school_id).await?;
    let mut ids = Vec::with_capacity(invitees.len());
    for invitee in invitees {
        let at = now();
        let id = new_id();
        users::insert(
            conn,
            &NewUser {
                id: id.clone(),
                created_at: at,
                updated_at: at,
                forename: invitee.forename.clone(),
                surname: invitee.surname.clone(),
                title: None,
                email: invitee.email.clone(),
                email_verified: None,
                password_updated_at: None,
                password: None,
                activated: false,
                disabled: false,
                leader: false,
                school_id: Some(school_id.to_owned()),
                role: invitee.role,
            },
        )
        .await?;
        send_invite(conn, config, &id, &invitee.email, &invitee.forename, &school).await?;
        audit::record_detail(
            conn,
            by,
            Some(school_id),
            AuditAction::Create,
            "user",
            &id,
            "invite",
        )
        .await?;
        ids.push(id);
    }
    Ok(ids)
}

/// Issues a new invitation link for user `id` (every earlier one is spent) and queues the
/// e-mail carrying it.
pub async fn send_invite(
    conn: &mut DbConn<'_>,
    config: &Config,
    id: &str,
    email: &str,
    forename: &str,
    school: &str,
) -> QueryResult<()> {
    tokens::spend_all(conn, Purpose::Invite, id).await?;
    let token = tokens::issue(conn, Purpose::Invite, email, Some(id), INVITE_LINK_VALIDITY).await?;
    InviteEmail {
        to: email.to_owned(),
        forename: forename.to_owned(),
        school: school.to_owned(),
        link: format!("{}/account/reset?token={token}&invite=1", config.public_url),
    }
    .queue(conn)
    .await
}

/// The school's name for the invitation ("your school" when it has none).
pub async fn school_name(conn: &mut DbConn<'_>, school_id: &str) -> QueryResult<String> {
    Ok(user_directory::school_name(conn, school_id)
        .await?
        .unwrap_or_else(|| "your school".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats(plan: Plan, allowance: Option<i64>, used: i64, pending: i64) -> Seats {
        Seats {
            plan,
            allowance,
            bought: allowance,
            used,
            pending,
        }
    }

    #[test]
    fn free_seats_count_active_and_invited_users() {
        assert_eq!(seats(Plan::Pro, Some(3), 1, 1).available(), Some(1));
        assert!(seats(Plan::Pro, Some(3), 1, 1).fits(1));
        assert!(!seats(Plan::Pro, Some(3), 1, 1).fits(2));
        assert!(seats(Plan::Pro, None, 100, 5).fits(1_000));
        assert_eq!(seats(Plan::Basic, Some(1), 2, 0).available(), Some(0));
    }

    #[test]
    fn the_message_says_how_to_get_seats() {
        let basic = seats(Plan::Basic, Some(1), 1, 0).full_message(1);
        assert!(basic.contains("Upgrade to Pro"), "{basic}");
        let pro = seats(Plan::Pro, Some(3), 2, 0).full_message(4);
        assert_eq!(
            pro,
            "Only 1 of the 4 seats needed are free: all 3 seats are taken or invited. Choose Manage subscription to buy more seats."
        );
    }
}
