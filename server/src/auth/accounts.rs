//! Account flows behind the public account pages: register, confirm the e-mail address,
//! forgotten and reset password, change password. The tRPC procedures wrap these; the
//! answers never reveal whether an address has an account.

use chrono::{Duration, NaiveDateTime};
use core_wasm::limits::{text_error, MAX_PERSON_NAME_CHARS};
use core_wasm::UserRole;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::addresses::normalise_email;
use crate::auth::rate_limit::RESET_LIMIT;
use crate::auth::tokens::{self, Purpose};
use crate::db::DbError;
use crate::ids::new_id;
use crate::mail::Template;
use crate::models::now;
use crate::models::sessions::delete_user_sessions;
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
}

impl From<DbError> for AccountError {
    fn from(err: DbError) -> Self {
        AccountError::Internal(err.to_string())
    }
}

impl From<DieselError> for AccountError {
    fn from(err: DieselError) -> Self {
        AccountError::Internal(err.to_string())
    }
}

/// The text shown to a disabled user (spec section 8, `AccountDisabled`).
pub fn account_disabled_message(support_email: &str) -> String {
    format!(
        "Your account is currently disabled. Please email {support_email} for more information."
    )
}

/// Creates a teacher account that waits for activation and e-mails a confirmation link.
/// When the address already has an account, its owner gets a note instead and the answer
/// is the same `Ok(())`.
pub async fn register(state: &AppState, form: RegisterForm) -> Result<(), AccountError> {
    let forename = form.forename.trim().to_owned();
    let surname = form.surname.trim().to_owned();
    required("forename", &forename, "Forename is required")?;
    required("surname", &surname, "Surname is required")?;
    let email = valid_email(&form.email)?;
    check_rule("password", &form.password)?;
    // Hash before looking the address up, so both answers take as long.
    let password_hash = hash_password(form.password).await?;

    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    if let Some(owner) = find_by_email(&mut conn, &email).await? {
        send_account_exists(state, &owner.email, &owner.forename).await;
        return Ok(());
    }
    let id = new_id();
    let at = now();
    let created: Result<String, DieselError> = transaction!(&mut conn, |c| {
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
        tokens::issue(
            c,
            Purpose::VerifyEmail,
            &email,
            Some(&id),
            CONFIRM_LINK_VALIDITY,
        )
        .await
    });
    let token = match created {
        Ok(token) => token,
        // Registered a moment ago by a concurrent request: same answer as above.
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            send_account_exists(state, &email, &forename).await;
            return Ok(());
        }
        Err(err) => return Err(err.into()),
    };
    let link = format!("{}/account/confirm?token={token}", state.config.public_url);
    let message = Template::ConfirmEmail.render(&[("forename", &forename), ("link", &link)]);
    state
        .mailer
        .send(&email, message)
        .await
        .map_err(|e| AccountError::Internal(format!("confirmation e-mail: {e}")))
}

/// E-mails a one-hour, single-use reset link when the address has an enabled account;
/// answers `Ok(())` either way.
pub async fn request_password_reset(state: &AppState, email: &str) -> Result<(), AccountError> {
    let email = valid_email(email)?;
    if !state
        .auth
        .limiter
        .try_acquire(&format!("reset:{email}"), RESET_LIMIT)
    {
        return Err(AccountError::RateLimited);
    }
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let Some(user) = find_by_email(&mut conn, &email).await? else {
        return Ok(());
    };
    if user.disabled {
        return Ok(());
    }
    let token = tokens::issue(
        &mut conn,
        Purpose::ResetPassword,
        &email,
        Some(&user.id),
        RESET_LINK_VALIDITY,
    )
    .await?;
    let link = format!("{}/account/reset?token={token}", state.config.public_url);
    let message = Template::PasswordReset.render(&[("forename", &user.forename), ("link", &link)]);
    state
        .mailer
        .send(&user.email, message)
        .await
        .map_err(|e| AccountError::Internal(format!("password reset e-mail: {e}")))
}

/// Sets a new password through a reset link: uses the link (and every other reset link of
/// the account) and signs the account out everywhere.
pub async fn reset_password(
    state: &AppState,
    token: &str,
    password: &str,
) -> Result<(), AccountError> {
    check_rule("password", password)?;
    let password_hash = hash_password(password.to_owned()).await?;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    transaction!(&mut conn, |c| {
        let used = tokens::consume(c, Purpose::ResetPassword, token, None).await?;
        let Some(user_id) = used.and_then(|t| t.user_id) else {
            return Err(AccountError::InvalidToken);
        };
        users::set_password(c, &user_id, &password_hash, at).await?;
        // The link proves the address is the user's.
        users::mark_email_verified(c, &user_id, at).await?;
        delete_user_sessions(c, &user_id).await?;
        tokens::spend_all(c, Purpose::ResetPassword, &user_id).await?;
        Ok(())
    })
}

/// Marks the address of a confirmation link's account as verified.
pub async fn confirm_email(state: &AppState, token: &str) -> Result<(), AccountError> {
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    transaction!(&mut conn, |c| {
        let used = tokens::consume(c, Purpose::VerifyEmail, token, None).await?;
        let Some(user_id) = used.and_then(|t| t.user_id) else {
            return Err(AccountError::InvalidToken);
        };
        users::mark_email_verified(c, &user_id, at).await?;
        Ok(())
    })
}

/// Changes a signed-in user's password after checking the current one; returns the new
/// `password_updated_at`. The caller's sessions stay as they are.
pub async fn change_password(
    state: &AppState,
    user_id: &str,
    current: &str,
    new: &str,
) -> Result<NaiveDateTime, AccountError> {
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let stored = users::password_hash(&mut conn, user_id).await?;
    let Some(stored) = stored else {
        return Err(AccountError::Internal(format!(
            "change_password: no user {user_id}"
        )));
    };
    let matches = match stored {
        Some(hash) => verify_password(current.to_owned(), hash).await?,
        None => false,
    };
    if !matches {
        return Err(AccountError::Field {
            field: "currentPassword",
            message: "Your current password is incorrect.".into(),
        });
    }
    check_rule("newPassword", new)?;
    let password_hash = hash_password(new.to_owned()).await?;
    let at = now();
    users::set_password(&mut conn, user_id, &password_hash, at).await?;
    Ok(at)
}

async fn send_account_exists(state: &AppState, email: &str, forename: &str) {
    let link = format!("{}/account/forgot", state.config.public_url);
    let message = Template::AccountExists.render(&[("forename", forename), ("link", &link)]);
    // Failing here must not change the answer (it would reveal the account): log only.
    if let Err(err) = state.mailer.send(email, message).await {
        tracing::error!(%err, "could not send the account-exists note");
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

/// argon2 takes tens of milliseconds of CPU: keep it off the async workers.
pub(crate) async fn hash_password(password: String) -> Result<String, AccountError> {
    tokio::task::spawn_blocking(move || crate::password::hash_password(&password))
        .await
        .map_err(|e| AccountError::Internal(e.to_string()))?
        .map_err(|e| AccountError::Internal(e.to_string()))
}

pub(crate) async fn verify_password(password: String, hash: String) -> Result<bool, AccountError> {
    tokio::task::spawn_blocking(move || crate::password::verify_password(&password, &hash))
        .await
        .map_err(|e| AccountError::Internal(e.to_string()))
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
