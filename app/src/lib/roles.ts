//! Roles as Manage Users shows them: the leaders' labels (one map for every page) and the
//! role picker's rule, mirrored from `core-wasm/src/roles.rs` (`role_rank`,
//! `assignable_roles_for`); `roles.test.ts` checks the mirror against the wasm core.

import type { UserRole } from '@/lib/auth-client'

/** The leaders' area labels (spec section 3). */
export const LEADERS_ROLE_LABEL: Record<UserRole, string> = {
  SUPERADMIN: 'Superadmin',
  ADMIN: 'Staff',
  TEACHER: 'Standard',
  ORG_ADMIN: 'Admin',
  MAT_USER: 'MAT Admin',
}

/** Every role in the core's order (`UserRole::ALL`). */
export const ALL_ROLES: readonly UserRole[] = ['TEACHER', 'ADMIN', 'SUPERADMIN', 'ORG_ADMIN', 'MAT_USER']

/** Nobody gives a role above their own. */
export const ROLE_RANK: Record<UserRole, number> = {
  TEACHER: 0,
  ADMIN: 1,
  ORG_ADMIN: 2,
  MAT_USER: 3,
  SUPERADMIN: 4,
}

const PRIVILEGED: readonly UserRole[] = ['SUPERADMIN', 'ORG_ADMIN', 'MAT_USER']

/** The roles a `caller` may give through the picker: all (superadmin) or the set without
 *  superadmin, org admin and MAT user, never above the caller's own. */
export function assignableRoles(caller: UserRole): UserRole[] {
  const all = caller === 'SUPERADMIN'
  return ALL_ROLES.filter((r) => (all || !PRIVILEGED.includes(r)) && ROLE_RANK[r] <= ROLE_RANK[caller])
}

/** The label of a role as the wire spells it. */
export function roleLabel(role: string): string {
  return LEADERS_ROLE_LABEL[role as UserRole] ?? role
}
