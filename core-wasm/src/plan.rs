//! The plan rule of spec section 4: Basic without a product id or with the basic one,
//! Pro otherwise; a superadmin always counts as Pro.

use crate::UserRole;
use serde::{Deserialize, Serialize};

/// A subscription plan as the product shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Plan {
    Basic,
    Pro,
}

/// Works out the plan from the school's payment product id.
pub fn plan_for(role: UserRole, product_id: Option<&str>, basic_product_id: &str) -> Plan {
    if role == UserRole::Superadmin {
        return Plan::Pro;
    }
    match product_id {
        None | Some("") => Plan::Basic,
        Some(id) if id == basic_product_id => Plan::Basic,
        Some(_) => Plan::Pro,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_follows_the_product_id() {
        assert_eq!(plan_for(UserRole::Admin, None, "prod_basic"), Plan::Basic);
        assert_eq!(
            plan_for(UserRole::Admin, Some("prod_basic"), "prod_basic"),
            Plan::Basic
        );
        assert_eq!(
            plan_for(UserRole::Admin, Some("prod_pro"), "prod_basic"),
            Plan::Pro
        );
        assert_eq!(
            plan_for(UserRole::Superadmin, None, "prod_basic"),
            Plan::Pro
        );
    }
}
