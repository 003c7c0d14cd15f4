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

/// The plan of a user as the product uses it today (the app's `isPro`): a superadmin and a
/// user flagged `pro` are Pro, everyone else Basic. Billing (issue 12) sets the flag.
pub fn plan_of_user(role: UserRole, pro: bool) -> Plan {
    if role == UserRole::Superadmin || pro {
        Plan::Pro
    } else {
        Plan::Basic
    }
}

/// How many active or invited users a school may have: Basic has one (its first admin, "no
/// extra users"); Pro has the subscription's seats (the item quantity), or no limit when the
/// provider's staff made the school Pro by hand without a seat count (`None`).
pub fn seat_allowance(plan: Plan, seats: Option<i32>) -> Option<u32> {
    match plan {
        Plan::Basic => Some(1),
        Plan::Pro => seats.map(|s| s.max(1) as u32),
    }
}

/// Most tasks a Basic user may start in a week. The week is rolling: the last 7 days
/// ([`TASK_LIMIT_WINDOW_DAYS`]) before the new task, so the allowance never resets all at
/// once on a Monday and a task frees its place exactly 7 days after it was made. Deleted
/// tasks no longer count. Pro has no limit.
pub const BASIC_WEEKLY_TASK_LIMIT: u32 = 5;
/// The length of the window [`BASIC_WEEKLY_TASK_LIMIT`] counts over, in days.
pub const TASK_LIMIT_WINDOW_DAYS: i64 = 7;

/// Shown when a Basic user tries to start one task more than the weekly limit.
pub fn weekly_task_limit_message() -> String {
    format!(
        "The Basic plan allows {BASIC_WEEKLY_TASK_LIMIT} new tasks in any 7 days, and you have \
         reached that limit. Upgrade to Pro for unlimited tasks."
    )
}

/// Whether a user on `plan` who started `created_in_window` tasks in the last
/// [`TASK_LIMIT_WINDOW_DAYS`] days may start another.
pub fn may_create_task(plan: Plan, created_in_window: u32) -> bool {
    plan == Plan::Pro || created_in_window < BASIC_WEEKLY_TASK_LIMIT
}

/// Shown when a Basic user tries to share a task.
pub const COLLABORATE_NEEDS_PRO_MESSAGE: &str =
    "Working on a task with colleagues is part of Pro. Upgrade to Pro to share this task.";

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

    #[test]
    fn a_user_is_pro_when_flagged_or_superadmin() {
        assert_eq!(plan_of_user(UserRole::Admin, false), Plan::Basic);
        assert_eq!(plan_of_user(UserRole::Teacher, true), Plan::Pro);
        assert_eq!(plan_of_user(UserRole::Superadmin, false), Plan::Pro);
    }

    #[test]
    fn basic_has_one_seat_and_pro_its_subscriptions() {
        assert_eq!(seat_allowance(Plan::Basic, Some(30)), Some(1));
        assert_eq!(seat_allowance(Plan::Pro, Some(30)), Some(30));
        assert_eq!(seat_allowance(Plan::Pro, None), None);
        assert_eq!(seat_allowance(Plan::Pro, Some(0)), Some(1));
    }

    #[test]
    fn basic_may_start_five_tasks_a_week_and_pro_any() {
        assert!(may_create_task(Plan::Basic, 0));
        assert!(may_create_task(Plan::Basic, BASIC_WEEKLY_TASK_LIMIT - 1));
        assert!(!may_create_task(Plan::Basic, BASIC_WEEKLY_TASK_LIMIT));
        assert!(may_create_task(Plan::Pro, 1_000));
        let message = weekly_task_limit_message();
        assert!(message.contains("5 new tasks") && message.contains("Pro"));
    }
}
