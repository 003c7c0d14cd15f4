//! Where 'Contact support' goes without taking the user out of an area they belong to: the
//! leaders' Support page inside the leaders area, Help & Support (/support, admins only,
//! spec section 2) in the pupil area, and otherwise an e-mail to the support address (a
//! teacher of the pupil area has no Support page there, and the leaders area is not theirs).

import type { UserRole } from './auth-client'

/** The Support page for a user of `role` on `pathname`, or `null` when they should write instead. */
export function supportPath(pathname: string, role: UserRole): string | null {
  if (pathname === '/leaders' || pathname.startsWith('/leaders/')) return '/leaders/support'
  if (role === 'ADMIN' || role === 'SUPERADMIN') return '/support'
  return null
}
