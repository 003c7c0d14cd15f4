//! `admin.saveSchoolSettings`: changes the caller's school's settings.

use core_wasm::OrgType;

use super::school_settings::SchoolSettings;
use super::{optional_text, require_admin};
use crate::models::organisations::{self, SchoolSettings as Stored};
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
    };
    let mut pooled = ctx.conn().await?;
    organisations::save_school_settings(&mut pooled.db(), school_id, &stored).await?;
    Ok(SchoolSettings::from(stored))
}
