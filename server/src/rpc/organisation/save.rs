//! `organisation.save`: the superadmin creates an organisation (no `id`) or edits one:
//! name, type, postcode, seats, plan, redirectToLeaders and trust membership (an existing
//! trust, a new one by name, or none). Field errors name the form's fields; nothing is
//! written unless every field is right. Creating or editing writes an audit row.

use core_wasm::limits::{text_error, MAX_ORGANISATION_NAME_CHARS};
use core_wasm::OrgType;

use super::admin_list::AdminOrganisation;
use super::{plan_name_of_product, product_for_plan, recent_since, require_superadmin, PLAN_NAMES};
use crate::ids::new_id;
use crate::models::audit::{self, AuditAction};
use crate::models::now;
use crate::models::organisations::{self, NewTrust, SchoolRecord};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// The most seats one organisation can be given here.
pub const MAX_SEATS: i32 = 100_000;

rpc_type! {
    pub struct SaveOrganisationInput {
        /// Absent: create.
        pub id: Option<String>,
        pub name: String,
        pub postcode: Option<String>,
        /// SCHOOL or BUSINESS.
        pub org_type: String,
        pub seats: Option<i32>,
        /// Basic, Pro or Enterprise.
        pub plan: String,
        pub redirect_to_leaders: bool,
        /// An existing trust; ignored when `newTrustName` is given.
        pub trust_id: Option<String>,
        /// Creates this trust (or joins the trust of exactly this name).
        pub new_trust_name: Option<String>,
    }
}

/// The input checked: everything but the trust and the plan's product.
struct Checked {
    name: String,
    postcode: Option<String>,
    org_type: OrgType,
    seats: Option<i32>,
    plan: String,
    trust_id: Option<String>,
    new_trust_name: Option<String>,
}

fn check(input: &SaveOrganisationInput) -> RpcResult<Checked> {
    let mut errors = FieldErrors::default();
    let name = input.name.trim().to_owned();
    if name.is_empty() {
        errors.add("name", "Enter the organisation's name.");
    } else if let Some(message) = text_error(&name, MAX_ORGANISATION_NAME_CHARS) {
        errors.add("name", message);
    }
    let org_type = match input.org_type.as_str() {
        "SCHOOL" => OrgType::School,
        "BUSINESS" => OrgType::Business,
        _ => {
            errors.add("orgType", "Choose School or Business.");
            OrgType::School
        }
    };
    let postcode = input
        .postcode
        .as_deref()
        .map(|p| p.trim().to_uppercase())
        .filter(|p| !p.is_empty());
    if postcode.as_deref().is_some_and(|p| {
        p.chars().count() > 12 || !p.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ')
    }) {
        errors.add("postcode", "Enter a valid postcode.");
    }
    if input.seats.is_some_and(|s| !(0..=MAX_SEATS).contains(&s)) {
        errors.add(
            "seats",
            format!("Enter a number of seats from 0 to {MAX_SEATS}."),
        );
    }
    if !PLAN_NAMES.contains(&input.plan.as_str()) {
        errors.add("plan", "Choose Basic, Pro or Enterprise.");
    }
    let new_trust_name = input
        .new_trust_name
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned);
    if let Some(message) = new_trust_name
        .as_deref()
        .and_then(|t| text_error(t, MAX_ORGANISATION_NAME_CHARS))
    {
        errors.add("newTrustName", message);
    }
    errors.into_result()?;
    Ok(Checked {
        name,
        postcode,
        org_type,
        seats: input.seats,
        plan: input.plan.clone(),
        trust_id: input.trust_id.clone().filter(|t| !t.trim().is_empty()),
        new_trust_name,
    })
}

pub async fn handler(ctx: &Ctx, input: SaveOrganisationInput) -> RpcResult<AdminOrganisation> {
    let user_id = require_superadmin(ctx)?.id.clone();
    let checked = check(&input)?;
    let config = &ctx.state.config;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let at = now();
    let saved_id = transaction!(&mut conn, |c| {
        let existing =
            match &input.id {
                Some(id) => Some(organisations::school_record(c, id).await?.ok_or_else(|| {
                    RpcError::new(ErrorCode::NotFound, "Organisation not found.")
                })?),
                None => None,
            };
        let trust_id = match (&checked.new_trust_name, &checked.trust_id) {
            (Some(name), _) => Some(match organisations::find_trust_by_name(c, name).await? {
                Some(id) => id,
                None => {
                    let id = new_id();
                    organisations::insert_trust(
                        c,
                        &NewTrust {
                            id: id.clone(),
                            name: name.clone(),
                            created_at: at,
                            updated_at: at,
                        },
                    )
                    .await?;
                    id
                }
            }),
            (None, Some(id)) => {
                if !organisations::trust_exists(c, id).await? {
                    return Err(RpcError::field("trustId", "Choose a trust from the list."));
                }
                Some(id.clone())
            }
            (None, None) => None,
        };
        // The product only changes with the plan: a real subscription's product stays.
        let current = existing.as_ref().and_then(|e| e.stripe_product_id.clone());
        let stripe_product_id = if existing.is_some()
            && plan_name_of_product(config, current.as_deref()) == checked.plan
        {
            current
        } else {
            product_for_plan(config, &checked.plan)
        };
        let record = SchoolRecord {
            id: existing
                .as_ref()
                .map(|e| e.id.clone())
                .unwrap_or_else(new_id),
            trust_id,
            name: checked.name.clone(),
            postcode: checked.postcode.clone(),
            org_type: checked.org_type,
            seats: checked.seats,
            stripe_product_id,
            redirect_to_leaders: input.redirect_to_leaders,
        };
        let action = if existing.is_some() {
            organisations::update_school_record(c, &record, at).await?;
            AuditAction::Update
        } else {
            organisations::insert_school_record(c, &record, at).await?;
            AuditAction::Create
        };
        audit::record(c, &user_id, Some(&record.id), action, "school", &record.id).await?;
        Ok::<_, RpcError>(record.id)
    })?;
    let ids = [saved_id];
    let figures =
        organisations::school_figures(&mut conn, Some(ids.as_slice()), recent_since()).await?;
    figures
        .into_iter()
        .next()
        .map(|f| AdminOrganisation::from_figures(config, f))
        .ok_or_else(|| RpcError::new(ErrorCode::NotFound, "Organisation not found."))
}
