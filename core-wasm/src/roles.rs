//! The role check of spec section 6, used by the server's guards and the app's menus.

use crate::UserRole;

/// Passes for a superadmin always; otherwise when `role` is one of `allowed`.
pub fn has_role(role: UserRole, allowed: &[UserRole]) -> bool {
    role == UserRole::Superadmin || allowed.contains(&role)
}

/// The role's label in the pupil/teacher area.
pub fn main_area_label(role: UserRole) -> &'static str {
    match role {
        UserRole::Superadmin => "Superadmin",
        UserRole::Admin => "Admin",
        UserRole::Teacher => "Teacher",
        UserRole::OrgAdmin => "Organisation Admin",
        UserRole::MatUser => "MAT User",
    }
}

/// The role's label in the leaders area.
pub fn leaders_area_label(role: UserRole) -> &'static str {
    match role {
        UserRole::Superadmin => "Superadmin",
        UserRole::Admin => "Staff",
        UserRole::Teacher => "Standard",
        UserRole::OrgAdmin => "Admin",
        UserRole::MatUser => "MAT Admin",
    }
}

/// A user's status, the spec's list exactly (section 3: active, inactive, pending). Every
/// page that shows a user's status takes it from [`user_status`], so the pages agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserStatus {
    /// Activated and not disabled: signs in and works.
    Active,
    /// Disabled by an administrator (activated or not): cannot sign in.
    Inactive,
    /// Invited (or added by an administrator or the MIS sync) and not activated yet.
    Pending,
}

impl UserStatus {
    /// The wire name (`active`, `inactive`, `pending`); the app shows it capitalised.
    pub fn as_str(self) -> &'static str {
        match self {
            UserStatus::Active => "active",
            UserStatus::Inactive => "inactive",
            UserStatus::Pending => "pending",
        }
    }
}

/// The status of a user with these flags: disabled wins (a disabled user cannot sign in,
/// whether they were activated or not); otherwise activated is active and the rest pending.
pub fn user_status(disabled: bool, activated: bool) -> UserStatus {
    if disabled {
        UserStatus::Inactive
    } else if activated {
        UserStatus::Active
    } else {
        UserStatus::Pending
    }
}

/// Roles a role picker offers: all of them, or only those a school can hand out itself.
pub fn assignable_roles(include_privileged: bool) -> Vec<UserRole> {
    UserRole::ALL
        .iter()
        .copied()
        .filter(|r| {
            include_privileged
                || !matches!(
                    r,
                    UserRole::Superadmin | UserRole::OrgAdmin | UserRole::MatUser
                )
        })
        .collect()
}

/// A role's rank for the role picker: nobody raises anyone above their own rank. Teacher <
/// Admin < Org admin < MAT user (a trust's admin, above one school's) < Superadmin.
pub fn role_rank(role: UserRole) -> u8 {
    match role {
        UserRole::Teacher => 0,
        UserRole::Admin => 1,
        UserRole::OrgAdmin => 2,
        UserRole::MatUser => 3,
        UserRole::Superadmin => 4,
    }
}

/// The roles `caller` may give through the picker: every role for a superadmin; otherwise
/// the restricted set ([`assignable_roles`] without the privileged roles), and never a role
/// above the caller's own.
pub fn assignable_roles_for(caller: UserRole) -> Vec<UserRole> {
    assignable_roles(caller == UserRole::Superadmin)
        .into_iter()
        .filter(|r| role_rank(*r) <= role_rank(caller))
        .collect()
}

/// Why `caller` may not change a user's role from `current` to `new` (`None`: allowed).
/// `own_account`: the user is the caller.
pub fn role_change_error(
    caller: UserRole,
    own_account: bool,
    current: UserRole,
    new: UserRole,
) -> Option<&'static str> {
    if own_account {
        return Some("You cannot change your own role.");
    }
    if role_rank(current) > role_rank(caller) {
        return Some("You cannot change the role of someone above your own role.");
    }
    if role_rank(new) > role_rank(caller) {
        return Some("You cannot give a role above your own.");
    }
    if !assignable_roles_for(caller).contains(&new) {
        return Some("Only Voicemark staff can give this role.");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_status_is_one_of_the_three_and_disabled_wins() {
        assert_eq!(user_status(false, true), UserStatus::Active);
        assert_eq!(user_status(false, false), UserStatus::Pending);
        assert_eq!(user_status(true, true), UserStatus::Inactive);
        assert_eq!(user_status(true, false), UserStatus::Inactive);
        let names: Vec<_> = [UserStatus::Active, UserStatus::Inactive, UserStatus::Pending]
            .iter()
            .map(|s| s.as_str())
            .collect();
        assert_eq!(names, ["active", "inactive", "pending"]);
    }

    #[test]
    fn superadmin_passes_every_check() {
        assert!(has_role(UserRole::Superadmin, &[]));
        assert!(has_role(UserRole::Superadmin, &[UserRole::Admin]));
    }

    #[test]
    fn others_need_to_be_listed() {
        assert!(has_role(
            UserRole::Admin,
            &[UserRole::Admin, UserRole::OrgAdmin]
        ));
        assert!(!has_role(
            UserRole::Teacher,
            &[UserRole::Admin, UserRole::OrgAdmin]
        ));
        assert!(!has_role(UserRole::MatUser, &[]));
    }

    #[test]
    fn restricted_picker_leaves_out_privileged_roles() {
        assert_eq!(
            assignable_roles(false),
            vec![UserRole::Teacher, UserRole::Admin]
        );
        assert_eq!(assignable_roles(true).len(), 5);
    }

    #[test]
    fn nobody_gives_a_role_above_their_own() {
        assert_eq!(
            assignable_roles_for(UserRole::Admin),
            vec![UserRole::Teacher, UserRole::Admin]
        );
        assert_eq!(
            assignable_roles_for(UserRole::OrgAdmin),
            vec![UserRole::Teacher, UserRole::Admin]
        );
        assert_eq!(assignable_roles_for(UserRole::Teacher), vec![UserRole::Teacher]);
        assert_eq!(assignable_roles_for(UserRole::Superadmin).len(), 5);
        assert!(role_change_error(UserRole::Admin, false, UserRole::Teacher, UserRole::Admin).is_none());
        assert_eq!(
            role_change_error(UserRole::Admin, false, UserRole::Teacher, UserRole::OrgAdmin),
            Some("You cannot give a role above your own.")
        );
        assert_eq!(
            role_change_error(UserRole::OrgAdmin, false, UserRole::Teacher, UserRole::OrgAdmin),
            Some("Only Voicemark staff can give this role.")
        );
        assert_eq!(
            role_change_error(UserRole::Admin, false, UserRole::OrgAdmin, UserRole::Teacher),
            Some("You cannot change the role of someone above your own role.")
        );
        assert_eq!(
            role_change_error(UserRole::Admin, true, UserRole::Admin, UserRole::Teacher),
            Some("You cannot change your own role.")
        );
        assert!(role_change_error(UserRole::Superadmin, false, UserRole::Teacher, UserRole::MatUser).is_none());
    }
}
