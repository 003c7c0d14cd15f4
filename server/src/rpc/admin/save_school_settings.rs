//! `admin.saveSchoolSettings`: changes the caller's school's settings. Turning the AI
//! assistant's history off deletes the history its users have kept, in the same transaction.

use core_wasm::OrgType;

use super::school_settings::SchoolSettings;
use super::{optional_text, require_admin};
use crate::models::assistant_queries;
use crate::models::organisations::{self, SchoolSettings as Stored};
use crate::transaction;
use crate::rpc::{Ctx, FieldErrors, RpcResult};

pub async fn handler(ctx: &Ctx, input: SchoolSettings) -> RpcResult<SchoolSettings> {
    let school_id = require_admin(ctx)?;
    let mut errors = FieldErrors::default();
    let name = input.name.trim().to_owned();
    if name.is_empty() {
        errors.add("name", "Enter the school's name.");
    } else if name.chars().count() > 200 {
        errors.add("name", "Use at most 200 characters.");
    }
    let org_type = match input.org_type.as_str() {
        "SCHOOL" => Some(OrgType::School),
        "BUSINESS" => Some(OrgType::Business),
        _ => {
            errors.add("type", "Choose School or Business.");
            None
        }
    };
    let postcode = optional_text(input.postcode).map(|p| p.to_uppercase());
    if postcode.as_deref().is_some_and(|p| p.chars().count() > 12) {
        errors.add("postcode", "Enter a valid postcode.");
    }
    errors.into_result()?;
    let stored = Stored {
        name,
        postcode,
        org_type: org_type.unwrap_or(OrgType::School),
        notify_parents_general: input.notify_parents_general,
        notify_parents_assignment: input.notify_parents_assignment,
        notifications_frequency: input.notifications_frequency,
        assistant_history: input.assistant_history,
        reach_pixel: input.reach_pixel,
    };
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    transaction!(&mut conn, |c| {
        organisations::save_school_settings(c, school_id, &stored).await?;
        if !stored.assistant_history {
            assistant_queries::delete_for_school(c, school_id).await?;
        }
        Ok::<_, diesel::result::Error>(())
    })?;
    Ok(SchoolSettings::from(stored))
}
