//! `voicemark user add`: create an activated account from the command line.

use core_wasm::{NotificationFrequency, OrgType, UserRole};

use crate::db::{Db, DbError};
use crate::ids::new_id;
use crate::models::{now, organisations, users};
use crate::transaction;

/// What `voicemark user add` was asked to create.
#[derive(Debug, Clone)]
pub struct AddUser {
    pub email: String,
    pub password: String,
    pub role: UserRole,
    pub school: Option<String>,
    pub leader: bool,
    pub forename: String,
    pub surname: String,
    /// Leave the account waiting for activation (for test and demo accounts).
    pub not_activated: bool,
    /// Create the account disabled.
    pub disabled: bool,
}

/// Why a user could not be added, as one sentence.
#[derive(Debug, thiserror::Error)]
pub enum AddUserError {
    #[error("'{0}' is not an e-mail address.")]
    BadEmail(String),
    #[error("{0}")]
    WeakPassword(&'static str),
    #[error("A {0} belongs to a school: add --school NAME.")]
    SchoolRequired(UserRole),
    #[error("A user with the e-mail address {0} already exists.")]
    Exists(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for AddUserError {
    fn from(err: diesel::result::Error) -> Self {
        AddUserError::Db(DbError::Query(err))
    }
}

/// Creates the user (activated and e-mail verified unless asked otherwise), and the school
/// if it does not exist yet.
/// Returns the new user's id.
pub async fn add_user(db: &Db, request: AddUser) -> Result<String, AddUserError> {
    let email = crate::addresses::normalise_email(&request.email);
    if !core_wasm::email::is_valid_email(&email) {
        return Err(AddUserError::BadEmail(request.email));
    }
    core_wasm::password::check_password(&request.password).map_err(AddUserError::WeakPassword)?;
    if request.school.is_none() && request.role != UserRole::Superadmin {
        return Err(AddUserError::SchoolRequired(request.role));
    }
    let hash = crate::password::hash(request.password.clone())
        .await
        .map_err(|e| AddUserError::Db(DbError::Pool(format!("cannot hash the password: {e}"))))?;

    let mut pooled = db.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        if users::find_by_email(c, &email).await?.is_some() {
            return Err(AddUserError::Exists(email.clone()));
        }
        let at = now();
        let school_id = match &request.school {
            None => None,
            Some(name) => Some(
                match organisations::find_school_by_name(c, name.trim()).await? {
                    Some(school) => school.id,
                    None => {
                        let school = organisations::NewSchool {
                            id: new_id(),
                            trust_id: None,
                            created_at: at,
                            updated_at: at,
                            name: name.trim().to_owned(),
                            postcode: None,
                            org_type: OrgType::School,
                            redirect_to_leaders: false,
                            notifications_frequency: NotificationFrequency::Immediately,
                        };
                        organisations::insert_school(c, &school).await?;
                        school.id
                    }
                },
            ),
        };
        let user = users::NewUser {
            id: new_id(),
            created_at: at,
            updated_at: at,
            forename: request.forename.clone(),
            surname: request.surname.clone(),
            title: None,
            email: email.clone(),
            email_verified: Some(at),
            password_updated_at: Some(at),
            password: Some(hash.clone()),
            activated: !request.not_activated,
            disabled: request.disabled,
            leader: request.leader,
            school_id,
            role: request.role,
        };
        users::insert(c, &user).await?;
        Ok(user.id)
    })
}
