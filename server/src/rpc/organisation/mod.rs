//! `organisation.*`: acting in another school (MAT users, organisation admins and
//! superadmins: `list`, `switch`) and the superadmin's organisations (`adminList`, `save`,
//! `trusts`). The rule for who may act where is `models::organisations::may_act_in`;
//! docs/organisations.md explains it.

pub mod admin_list;
pub mod list;
pub mod save;
pub mod switch;
pub mod trusts;

use core_wasm::UserRole;

use crate::models::users::User;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::{Ctx, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Query "organisation.adminList" => admin_list),
        procedure!(Query "organisation.list" => list),
        procedure!(Mutation "organisation.save" => save),
        procedure!(Mutation "organisation.switch" => switch),
        procedure!(Query "organisation.trusts" => trusts),
    ]
}

/// The roles that may act in more than their own school (superadmins pass every check).
pub const SWITCHERS: &[UserRole] = &[UserRole::MatUser, UserRole::OrgAdmin];

/// The caller, when a superadmin.
pub fn require_superadmin(ctx: &Ctx) -> RpcResult<&User> {
    ctx.require_role(&[UserRole::Superadmin])
}

/// How far back "recent tasks" count: 30 days.
pub fn recent_since() -> chrono::NaiveDateTime {
    crate::models::now() - chrono::Duration::days(30)
}

/// The plans the superadmin can give an organisation on `/schools`.
pub const PLAN_NAMES: [&str; 3] = ["Basic", "Pro", "Enterprise"];

/// The marker stored as the product of a Pro or Enterprise plan given by hand while the
/// Stripe products are not configured (docs/organisations.md "Plans on /schools").
pub fn manual_product(plan: &str) -> String {
    format!("manual:{}", plan.to_lowercase())
}

/// The plan name a product id stands for: Basic without a product or with the Basic
/// product (`plans::plan_of_product`'s rule), Enterprise for the Enterprise product or its
/// manual marker, Pro otherwise.
pub fn plan_name_of_product(config: &crate::config::Config, product: Option<&str>) -> &'static str {
    let products = &config.products;
    match product {
        None => "Basic",
        Some(p) if Some(p) == products.basic.as_deref() => "Basic",
        Some(p)
            if Some(p) == products.enterprise.as_deref() || p == manual_product("Enterprise") =>
        {
            "Enterprise"
        }
        Some(_) => "Pro",
    }
}

/// The product id to store for `plan` (one of [`PLAN_NAMES`]): the configured product, or
/// for Basic none, or for a paid plan its manual marker.
pub fn product_for_plan(config: &crate::config::Config, plan: &str) -> Option<String> {
    let products = &config.products;
    match plan {
        "Basic" => products.basic.clone(),
        "Pro" => Some(
            products
                .pro
                .clone()
                .unwrap_or_else(|| manual_product("Pro")),
        ),
        _ => Some(
            products
                .enterprise
                .clone()
                .unwrap_or_else(|| manual_product("Enterprise")),
        ),
    }
}
