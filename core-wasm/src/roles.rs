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

#[cfg(test)]
mod tests {
    use super::*;

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
}
