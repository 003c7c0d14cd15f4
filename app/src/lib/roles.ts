//! Roles as the pages show them: the main area's labels (/users) and the leaders' labels
//! (Manage Users), one map each (spec section 3), and the
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

/** The main area's labels (spec section 3), used by the superadmin's /users. */
export const MAIN_ROLE_LABEL: Record<UserRole, string> = {
  SUPERADMIN: 'Superadmin / provider staff',
  ADMIN: 'Admin',
  TEACHER: 'Teacher',
  ORG_ADMIN: 'Organisation Admin',
  MAT_USER: 'MAT User',
}

/** Which area's labels a page uses. */
export type RoleLabelArea = 'main' | 'leaders'

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

/** The leaders' label of a role as the wire spells it. */
export function roleLabel(role: string): string {
  return LEADERS_ROLE_LABEL[role as UserRole] ?? role
}

/** The main area's label of a role as the wire spells it. */
export function mainRoleLabel(role: string): string {
  return MAIN_ROLE_LABEL[role as UserRole] ?? role
}

/** The labeller of `area`. */
export function roleLabeller(area: RoleLabelArea): (role: string) => string {
  return area === 'main' ? mainRoleLabel : roleLabel
}
