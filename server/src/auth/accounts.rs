//! Account flows behind the public account pages: register, confirm the e-mail address,
//! forgotten and reset password, change password. The tRPC procedures wrap these; the
//! answers never reveal whether an address has an account.

use chrono::{Duration, NaiveDateTime};
use core_wasm::limits::{text_error, MAX_ORGANISATION_NAME_CHARS, MAX_PERSON_NAME_CHARS};
use core_wasm::{NotificationFrequency, OrgType, UserRole};
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::addresses::normalise_email;
use crate::auth::rate_limit::{ADDRESS_LIMIT, CHANGE_PASSWORD_LIMIT, RESET_LIMIT};
use crate::auth::tokens::{self, Purpose};
use crate::db::DbError;
use crate::ids::new_id;
use crate::jobs::email_account::{AccountEmail, AccountMessage};
use crate::models::now;
use crate::models::organisations::{self, NewSchool, PendingSignup};
use crate::models::sessions::{delete_other_sessions, delete_user_sessions};
use crate::models::users::{self, find_by_email, NewUser};
use crate::state::AppState;
use crate::transaction;

/// How long a password-reset link works.
pub const RESET_LINK_VALIDITY: Duration = Duration::hours(1);
/// How long an e-mail confirmation link works.
pub const CONFIRM_LINK_VALIDITY: Duration = Duration::hours(24);

/// What the registration page sends.
#[derive(Debug, Clone)]
pub struct RegisterForm {
    pub forename: String,
    pub surname: String,
    pub email: String,
    pub password: String,
    /// The new organisation: its name, postcode and type (SCHOOL or BUSINESS).
    pub organisation_name: String,
    pub postcode: String,
    pub org_type: String,
}

/// Why an account flow did not go through.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// A field the user can correct; `field` is the form's field name.
    #[error("{field}: {message}")]
    Field {
        field: &'static str,
        message: String,
    },
    /// The link is unknown, used or expired.
    #[error("This link is invalid or has expired.")]
    InvalidToken,
    /// Too many requests for this address; try again later.
    #[error("Too many requests. Please wait 15 minutes and try again.")]
    RateLimited,
    /// Something broke inside; the detail is for the log only.
    #[error("Internal error: {0}")]
    Internal(String),
    /// The database failed: kept whole, so that a fault of the service (a full or read-only
    /// disk, a dropped connection) is answered 503 like every other mutation, not 500.
    #[error("{0}")]
    Database(DbError),
}

impl From<DbError> for AccountError {
    fn from(err: DbError) -> Self {
        AccountError::Database(err)
    }
}

impl From<DieselError> for AccountError {
    fn from(err: DieselError) -> Self {
        AccountError::Database(DbError::Query(err))
    }
}

/// The text shown to a disabled user (spec section 8, `AccountDisabled`).
pub fn account_disabled_message(support_email: &str) -> String {
    format!(
        "Your account is currently disabled. Please email {support_email} for more information."
    )
}

/// Creates an account that waits for its e-mail confirmation, with the organisation it asked
/// for kept beside it (`pending_signups`), and queues a confirmation e-mail; confirming
/// creates the organisation with the registrant as its ADMIN on the Basic plan
/// ([`confirm_email`]). When the address already has an account, its owner gets a note
/// instead and the answer is the same `Ok(())`. Fields and limits (per e-mail and per client `address`) are
/// checked before any hashing; the e-mail goes through the job queue, queued in the
/// transaction that stores the account.
pub async fn register(
    state: &AppState,
    form: RegisterForm,
    address: Option<&str>,
) -> Result<(), AccountError> {
    let forename = form.forename.trim().to_owned();
    let surname = form.surname.trim().to_owned();
    required("forename", &forename, "Enter your forename.")?;
    required("surname", &surname, "Enter your surname.")?;
    let email = valid_email(&form.email)?;
    check_rule("password", &form.password)?;
    let organisation = check_organisation(&form)?;
    let email_key = format!("register:{email}");
    let address_key = address.map(|a| format!("register-ip:{a}"));
    acquire(state, &email_key, RESET_LIMIT, address_key.as_deref()).await?;
    // Hash before looking the address up, so both answers take as long.
    let password_hash = hash_password(form.password).await?;

    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let id = new_id();
    let at = now();
    let public_url = &state.config.public_url;
    let created: Result<(), DieselError> = transaction!(&mut conn, |c| {
        if let Some(owner) = find_by_email(c, &email).await? {
            return account_exists(&owner.email, &owner.forename, public_url)
                .queue(c)
                .await;
        }
        let row = NewUser {
            id: id.clone(),
            created_at: at,
            updated_at: at,
            forename: forename.clone(),
            surname: surname.clone(),
            title: None,
            email: email.clone(),
            email_verified: None,
            password_updated_at: Some(at),
            password: Some(password_hash.clone()),
            activated: false,
            disabled: false,
            leader: false,
            school_id: None,
            role: UserRole::Teacher,
        };
        users::insert(c, &row).await?;
        organisations::insert_pending_signup(
            c,
            &PendingSignup {
                user_id: id.clone(),
                created_at: at,
                ..organisation.clone()
            },
        )
        .await?;
        let token = tokens::issue(
            c,
            Purpose::VerifyEmail,
            &email,
            Some(&id),
            CONFIRM_LINK_VALIDITY,
        )
        .await?;
        AccountEmail {
            to: email.clone(),
            message: AccountMessage::ConfirmEmail,
            forename: forename.clone(),
            link: format!("{public_url}/account/confirm?token={token}"),
        }
        .queue(c)
        .await
    });
    match created {
        Ok(()) => Ok(()),
        // Registered a moment ago by a concurrent request: same answer as above.
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            let note = account_exists(&email, &forename, public_url);
            transaction!(&mut conn, |c| note.queue(c).await)?;
            Ok(())
        }
        Err(err) => Err(err.into()),
    }
}

/// Queues a one-hour, single-use reset link when the address has an enabled account;
/// answers `Ok(())` either way, as fast (no mail server is involved in the request).
pub async fn request_password_reset(
    state: &AppState,
    email: &str,
    address: Option<&str>,
) -> Result<(), AccountError> {
    let email = valid_email(email)?;
    let address_key = address.map(|a| format!("reset-mail-ip:{a}"));
    acquire(
        state,
        &format!("reset:{email}"),
        RESET_LIMIT,
        address_key.as_deref(),
    )
    .await?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let public_url = &state.config.public_url;
    transaction!(&mut conn, |c| {
        let Some(user) = find_by_email(c, &email).await? else {
            return Ok(());
        };
        if user.disabled {
            return Ok(());
        }
        let token = tokens::issue(
            c,
            Purpose::ResetPassword,
            &email,
            Some(&user.id),
            RESET_LINK_VALIDITY,
        )
        .await?;
        AccountEmail {
            to: user.email.clone(),
            message: AccountMessage::PasswordReset,
            forename: user.forename.clone(),
            link: format!("{public_url}/account/reset?token={token}"),
        }
        .queue(c)
        .await
        .map_err(AccountError::from)
    })
}

/// Sets a new password through a reset link (or an invitation link, which also activates
/// the invited account): uses the link (and every other reset link of
/// the account) and signs the account out everywhere. The link is checked before the new
/// password is hashed, so a guessed or stale token costs no argon2 work; each wrong token
/// counts against the client `address`'s limit.
pub async fn reset_password(
    state: &AppState,
    token: &str,
    password: &str,
    address: Option<&str>,
) -> Result<(), AccountError> {
    check_rule("password", password)?;
    let address_key = address.map(|a| format!("reset-ip:{a}"));
    if let Some(key) = &address_key {
        if !state.auth.limiter.try_acquire(key, ADDRESS_LIMIT).await {
            return Err(AccountError::RateLimited);
        }
    }
    let usable = {
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        tokens::is_usable(&mut conn, Purpose::ResetPassword, token).await?
            || tokens::is_usable(&mut conn, Purpose::Invite, token).await?
    };
    if !usable {
        // The slot stays taken: it was a wrong guess.
        return Err(AccountError::InvalidToken);
    }
    if let Some(key) = &address_key {
        state.auth.limiter.release(key).await;
    }
    let password_hash = hash_password(password.to_owned()).await?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    transaction!(&mut conn, |c| {
        // Checked again: another request may have used the link meanwhile.
        let mut used = tokens::consume(c, Purpose::ResetPassword, token, None).await?;
        // An invitation link (Manage Users) sets the first password and activates.
        let invited = used.is_none();
        if invited {
            used = tokens::consume(c, Purpose::Invite, token, None).await?;
        }
        let Some(user_id) = used.and_then(|t| t.user_id) else {
            return Err(AccountError::InvalidToken);
        };
        if invited {
            crate::models::user_directory::activate(c, &user_id, at).await?;
            tokens::spend_all(c, Purpose::Invite, &user_id).await?;
        }
        users::set_password(c, &user_id, &password_hash, at).await?;
        // The link proves the address is the user's.
        users::mark_email_verified(c, &user_id, at).await?;
        delete_user_sessions(c, &user_id).await?;
        tokens::spend_all(c, Purpose::ResetPassword, &user_id).await?;
        Ok(())
    })
}

/// Marks the address of a confirmation link's account as verified. An account made by
/// sign-up gets its organisation now: the school is created from the pending sign-up on
/// the Basic plan (no product), and the registrant becomes its activated ADMIN, in the
/// same transaction that uses the link. Answers the new organisation's name, if one was made.
pub async fn confirm_email(state: &AppState, token: &str) -> Result<Option<String>, AccountError> {
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    transaction!(&mut conn, |c| {
        let used = tokens::consume(c, Purpose::VerifyEmail, token, None).await?;
        let Some(user_id) = used.and_then(|t| t.user_id) else {
            return Err(AccountError::InvalidToken);
        };
        users::mark_email_verified(c, &user_id, at).await?;
        let Some(pending) = organisations::take_pending_signup(c, &user_id).await? else {
            return Ok(None);
        };
        {
            let school_id = new_id();
            organisations::insert_school(
                c,
                &NewSchool {
                    id: school_id.clone(),
                    trust_id: None,
                    created_at: at,
                    updated_at: at,
                    name: pending.organisation_name.clone(),
                    postcode: Some(pending.postcode),
                    org_type: pending.org_type,
                    redirect_to_leaders: false,
                    notifications_frequency: NotificationFrequency::Weekly,
                },
            )
            .await?;
            organisations::make_founding_admin(c, &user_id, &school_id, at).await?;
        }
        Ok(Some(pending.organisation_name))
    })
}

/// The organisation fields of a sign-up, checked (field names as the form's).
fn check_organisation(form: &RegisterForm) -> Result<PendingSignup, AccountError> {
    let name = form.organisation_name.trim().to_owned();
    if name.is_empty() {
        return Err(AccountError::Field {
            field: "organisationName",
            message: "Enter your school or organisation's name.".into(),
        });
    }
    if let Some(message) = text_error(&name, MAX_ORGANISATION_NAME_CHARS) {
        return Err(AccountError::Field {
            field: "organisationName",
            message,
        });
    }
    let postcode = form.postcode.trim().to_uppercase();
    let postcode_ok = (2..=12).contains(&postcode.chars().count())
        && postcode
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ' ');
    if !postcode_ok {
        return Err(AccountError::Field {
            field: "postcode",
            message: "Enter a valid postcode.".into(),
        });
    }
    let org_type = match form.org_type.as_str() {
        "SCHOOL" => OrgType::School,
        "BUSINESS" => OrgType::Business,
        _ => {
            return Err(AccountError::Field {
                field: "orgType",
                message: "Choose School or Business.".into(),
            })
        }
    };
    Ok(PendingSignup {
        user_id: String::new(),
        organisation_name: name,
        postcode,
        org_type,
        created_at: now(),
    })
}

/// Changes a signed-in user's password after checking the current one; returns the new
/// `password_updated_at`. Every other session of the user ends; the caller's own
/// (`keep_session`, its token hash) stays. Wrong current passwords are limited per user
/// ([`CHANGE_PASSWORD_LIMIT`] per window), reserved before the check.
pub async fn change_password(
    state: &AppState,
    user_id: &str,
    keep_session: &str,
    current: &str,
    new: &str,
) -> Result<NaiveDateTime, AccountError> {
    let key = format!("change-password:{user_id}");
    if !state.auth.limiter.try_acquire(&key, CHANGE_PASSWORD_LIMIT).await {
        return Err(AccountError::RateLimited);
    }
    let stored = users::password_hash(&mut state.db.conn().await?.db(), user_id).await;
    let matches = match stored {
        Ok(Some(Some(hash))) => verify_password(current.to_owned(), hash).await,
        Ok(Some(None)) => Ok(false),
        Ok(None) => Err(AccountError::Internal(format!(
            "change_password: no user {user_id}"
        ))),
        Err(err) => Err(err.into()),
    };
    match matches {
        // A wrong guess keeps its slot.
        Ok(false) => {
            return Err(AccountError::Field {
                field: "currentPassword",
                message: "Your current password is incorrect.".into(),
            })
        }
        Ok(true) => state.auth.limiter.release(&key).await,
        Err(err) => {
            state.auth.limiter.release(&key).await;
            return Err(err);
        }
    }
    check_rule("newPassword", new)?;
    let password_hash = hash_password(new.to_owned()).await?;
    let at = now();
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        users::set_password(c, user_id, &password_hash, at).await?;
        delete_other_sessions(c, user_id, keep_session).await?;
        Ok::<_, AccountError>(())
    })?;
    Ok(at)
}

/// The note sent instead of a confirmation to an address that already has an account.
fn account_exists(email: &str, forename: &str, public_url: &str) -> AccountEmail {
    AccountEmail {
        to: email.to_owned(),
        message: AccountMessage::AccountExists,
        forename: forename.to_owned(),
        link: format!("{public_url}/account/forgot"),
    }
}

/// Reserves one attempt for `key` (up to `limit`) and, when known, one for the client
/// address key (up to [`ADDRESS_LIMIT`]), together.
async fn acquire(
    state: &AppState,
    key: &str,
    limit: usize,
    address_key: Option<&str>,
) -> Result<(), AccountError> {
    let mut keys = vec![(key, limit)];
    if let Some(address_key) = address_key {
        keys.push((address_key, ADDRESS_LIMIT));
    }
    if state.auth.limiter.try_acquire_all(&keys).await {
        Ok(())
    } else {
        Err(AccountError::RateLimited)
    }
}

fn required(field: &'static str, value: &str, message: &str) -> Result<(), AccountError> {
    if value.is_empty() {
        return Err(AccountError::Field {
            field,
            message: message.into(),
        });
    }
    if let Some(message) = text_error(value, MAX_PERSON_NAME_CHARS) {
        return Err(AccountError::Field { field, message });
    }
    Ok(())
}

fn check_rule(field: &'static str, password: &str) -> Result<(), AccountError> {
    core_wasm::password::check_password(password).map_err(|message| AccountError::Field {
        field,
        message: message.to_owned(),
    })
}

/// The normalised address when it passes the core's e-mail rule.
pub(crate) fn valid_email(email: &str) -> Result<String, AccountError> {
    let email = normalise_email(email);
    match core_wasm::email::email_error(&email) {
        None => Ok(email),
        Some(message) => Err(AccountError::Field {
            field: "email",
            message: message.into(),
        }),
    }
}

/// Hashes through the process-wide pool (`crate::password`): a full pool answers
/// [`AccountError::RateLimited`] instead of queuing without bound.
pub(crate) async fn hash_password(password: String) -> Result<String, AccountError> {
    crate::password::hash(password).await.map_err(pool_error)
}

/// Verifies through the process-wide pool, like [`hash_password`].
pub(crate) async fn verify_password(password: String, hash: String) -> Result<bool, AccountError> {
    crate::password::verify(password, hash)
        .await
        .map_err(pool_error)
}

fn pool_error(err: crate::password::PoolError) -> AccountError {
    match err {
        crate::password::PoolError::Busy => AccountError::RateLimited,
        crate::password::PoolError::Failed(detail) => AccountError::Internal(detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_message_names_the_support_address() {
        assert_eq!(
            account_disabled_message("help@school.org"),
            "Your account is currently disabled. Please email help@school.org for more information."
        );
    }
}
