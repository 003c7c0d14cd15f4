//! Which plan a school and a user are on (spec section 4): the school's Stripe product
//! decides, through `core_wasm::plan::plan_for`; a superadmin always counts as Pro, and so
//! does a user the provider's staff flagged `pro` by hand. Every server-side limit (weekly
//! tasks, collaboration, seats, priority support) asks here.

use core_wasm::plan::{plan_for, seat_allowance, Plan};
use core_wasm::UserRole;
use diesel::result::QueryResult;

use crate::config::Config;
use crate::db::DbConn;
use crate::models::billing;
use crate::models::users::User;

/// A school's subscription as the limits need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolPlan {
    pub plan: Plan,
    /// The subscription's product id, if any.
    pub product_id: Option<String>,
    /// The subscription's item quantity, if any.
    pub seats: Option<i32>,
}

impl SchoolPlan {
    /// How many active or invited users the school may have (`None`: no limit).
    pub fn seat_allowance(&self) -> Option<u32> {
        seat_allowance(self.plan, self.seats)
    }
}

/// The plan of `school_id` (Basic for an unknown school).
pub async fn school_plan(
    conn: &mut DbConn<'_>,
    config: &Config,
    school_id: &str,
) -> QueryResult<SchoolPlan> {
    let (product_id, seats) = billing::product_and_seats(conn, school_id)
        .await?
        .unwrap_or((None, None));
    Ok(SchoolPlan {
        plan: plan_of_product(config, UserRole::Admin, product_id.as_deref()),
        product_id,
        seats,
    })
}

/// The plan a product id means for a user of `role`.
pub fn plan_of_product(config: &Config, role: UserRole, product_id: Option<&str>) -> Plan {
    plan_for(role, product_id, config.products.basic.as_deref().unwrap_or(""))
}

/// The caller's plan: Pro for a superadmin, a user flagged `pro`, or anyone whose school is
/// on Pro; Basic otherwise.
pub async fn user_plan(conn: &mut DbConn<'_>, config: &Config, user: &User) -> QueryResult<Plan> {
    if user.role == UserRole::Superadmin || user.pro {
        return Ok(Plan::Pro);
    }
    match &user.school_id {
        Some(school_id) => Ok(school_plan(conn, config, school_id).await?.plan),
        None => Ok(Plan::Basic),
    }
}
