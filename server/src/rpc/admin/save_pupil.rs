//! `admin.savePupil`: adds a pupil to the caller's school or edits one of its pupils.

use super::list_pupils::Pupil;
use super::{not_found, optional_text, require_admin};
use crate::addresses::normalise_email;
use crate::models::{address_refusals, email_preferences, groups, organisations};
use crate::models::students::{self, PupilFields, SavedPupil};
use crate::rpc::input::check_length;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;
use core_wasm::limits::{MAX_PERSON_NAME_CHARS, MAX_UPN_CHARS};

rpc_type! {
    pub struct SavePupil {
        /// Absent: a new pupil.
        pub id: Option<String>,
        pub forename: String,
        pub surname: String,
        pub email: Option<String>,
        pub parent_email: Option<String>,
        /// The parent's e-mail language (ISO 639-1); absent leaves it as it is.
        pub parent_language: Option<String>,
        pub upn: Option<String>,
        pub year_group_id: Option<String>,
        pub form_group_id: Option<String>,
        pub class_ids: Vec<String>,
    }
}

pub async fn handler(ctx: &Ctx, input: SavePupil) -> RpcResult<Pupil> {
    let school_id = require_admin(ctx)?;
    let mut errors = FieldErrors::default();
    let forename = input.forename.trim().to_owned();
    let surname = input.surname.trim().to_owned();
    if forename.is_empty() {
        errors.add("forename", "Enter the pupil's forename.");
    }
    if surname.is_empty() {
        errors.add("surname", "Enter the pupil's surname.");
    }
    let email = optional_text(input.email).map(|e| normalise_email(&e));
    if email
        .as_deref()
        .is_some_and(|e| !core_wasm::email::is_valid_email(e))
    {
        errors.add("email", core_wasm::email::INVALID_EMAIL_MESSAGE);
    }
    let parent_email = optional_text(input.parent_email).map(|e| normalise_email(&e));
    if parent_email
        .as_deref()
        .is_some_and(|e| !core_wasm::email::is_valid_email(e))
    {
        errors.add("parentEmail", core_wasm::email::INVALID_EMAIL_MESSAGE);
    }
    let parent_language = optional_text(input.parent_language);
    if let Some(message) = parent_language.as_deref().and_then(core_wasm::languages::language_error) {
        errors.add("parentLanguage", message);
    } else if parent_language.is_some() && parent_email.is_none() {
        errors.add("parentLanguage", "Enter the parent's e-mail to choose their language.");
    }
    let upn = optional_text(input.upn);
    check_length(&mut errors, "forename", &forename, MAX_PERSON_NAME_CHARS);
    check_length(&mut errors, "surname", &surname, MAX_PERSON_NAME_CHARS);
    check_length(
        &mut errors,
        "upn",
        upn.as_deref().unwrap_or(""),
        MAX_UPN_CHARS,
    );
    errors.into_result()?;
    let mut class_ids = input.class_ids;
    class_ids.sort();
    class_ids.dedup();
    let fields = PupilFields {
        forename,
        surname,
        email,
        parent_email,
        upn,
        year_group_id: optional_text(input.year_group_id),
        form_group_id: optional_text(input.form_group_id),
        class_ids,
    };
    let id = input.id;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let saved = transaction!(&mut conn, |c| {
        if let Some(id) = id.as_deref() {
            if !students::pupil_exists(c, school_id, id).await? {
                return Err(not_found("Pupil"));
            }
        }
        if let Some(upn) = fields.upn.as_deref() {
            if let Some(other) = students::pupil_with_upn(c, school_id, upn, id.as_deref()).await? {
                // A create repeating one already made (a double submit) answers that pupil.
                return Ok(SavedPupil::UpnTaken(other));
            }
        }
        if let Some(year) = fields.year_group_id.as_deref() {
            if !groups::year_group_in_school(c, school_id, year).await? {
                return Err(RpcError::field(
                    "yearGroupId",
                    "Choose a year group from the list.",
                ));
            }
        }
        if let Some(form) = fields.form_group_id.as_deref() {
            if !groups::form_group_in_school(c, school_id, form).await? {
                return Err(RpcError::field(
                    "formGroupId",
                    "Choose a form group from the list.",
                ));
            }
        }
        let known = groups::classes_in_school(c, school_id, &fields.class_ids).await?;
        if known.len() != fields.class_ids.len() {
            return Err(RpcError::field("classIds", "Choose classes from the list."));
        }
        let saved = students::save_pupil(c, school_id, id.as_deref(), &fields).await?;
        if let SavedPupil::Written(_) = &saved {
            // Saving an address on the record lifts its refusal (docs/bounces.md): a new
            // address was never refused, and the same one saved again means the office
            // checked it with the family.
            for address in [fields.email.as_deref(), fields.parent_email.as_deref()]
                .into_iter()
                .flatten()
            {
                address_refusals::clear(c, address).await?;
            }
        }
        if let (SavedPupil::Written(_), Some(address), Some(language)) =
            (&saved, fields.parent_email.as_deref(), parent_language.as_deref())
        {
            let frequency = organisations::school_mail_rules(c, school_id)
                .await?
                .map(|r| r.notifications_frequency)
                .unwrap_or(core_wasm::NotificationFrequency::Immediately);
            email_preferences::set_language(c, address, language, frequency).await?;
        }
        Ok::<_, RpcError>(saved)
    })?;
    let mut conn = pooled.db();
    match saved {
        SavedPupil::Written(saved) => pupil_by_id(&mut conn, school_id, &saved).await,
        SavedPupil::UpnTaken(other) => {
            // The same pupil sent again (same UPN and name) is the double submit of a
            // create: answer the pupil it made. Anything else is a clash.
            let existing = pupil_by_id(&mut conn, school_id, &other).await?;
            if id.is_none()
                && existing.forename == fields.forename
                && existing.surname == fields.surname
            {
                Ok(existing)
            } else {
                Err(RpcError::field(
                    "upn",
                    "Another pupil already has this UPN.",
                ))
            }
        }
    }
}

/// The school's pupil `id` as the list shows it.
async fn pupil_by_id(
    conn: &mut crate::db::DbConn<'_>,
    school_id: &str,
    id: &str,
) -> RpcResult<Pupil> {
    // The list query filtered to one pupil: the one place that builds a Pupil.
    let (rows, _) = students::list_pupils(conn, school_id, None, Some(id), None, 1).await?;
    let pupil = rows
        .into_iter()
        .find(|r| r.id == id)
        .map(Pupil::from)
        .ok_or_else(|| not_found("Pupil"))?;
    let mut filled = super::list_pupils::with_parent_languages(conn, vec![pupil]).await?;
    Ok(filled.remove(0))
}
