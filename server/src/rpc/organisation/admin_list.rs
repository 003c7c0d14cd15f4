//! `organisation.adminList`: every organisation (superadmin) with its users and pupils,
//! plan, seats, trust and settings, as `/schools` lists and edits them.

use super::plan_name_of_product;
use super::{recent_since, require_superadmin};
use crate::models::organisations::{self, SchoolFigures};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// One organisation as the superadmin sees it.
    pub struct AdminOrganisation {
        pub id: String,
        pub name: String,
        pub postcode: Option<String>,
        /// SCHOOL or BUSINESS.
        pub org_type: String,
        pub seats: Option<i32>,
        /// Basic, Pro or Enterprise.
        pub plan: String,
        pub stripe_product_id: Option<String>,
        pub redirect_to_leaders: bool,
        pub trust_id: Option<String>,
        pub trust_name: Option<String>,
        pub users: i64,
        pub pupils: i64,
    }
}

impl AdminOrganisation {
    pub fn from_figures(config: &crate::config::Config, f: SchoolFigures) -> AdminOrganisation {
        AdminOrganisation {
            plan: plan_name_of_product(config, f.school.stripe_product_id.as_deref()).to_owned(),
            id: f.school.id,
            name: f.school.name,
            postcode: f.school.postcode,
            org_type: f.school.org_type.as_str().to_owned(),
            seats: f.school.seats,
            stripe_product_id: f.school.stripe_product_id,
            redirect_to_leaders: f.school.redirect_to_leaders,
            trust_id: f.school.trust_id,
            trust_name: f.trust_name,
            users: f.users,
            pupils: f.pupils,
        }
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<AdminOrganisation>> {
    require_superadmin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let figures = organisations::school_figures(&mut pooled.db(), None, recent_since()).await?;
    Ok(figures
        .into_iter()
        .map(|f| AdminOrganisation::from_figures(&ctx.state.config, f))
        .collect())
}
