//! A superadmin acts in an organisation chosen in the header's picker (docs/organisations.md).
//! Before one is chosen, every page that shows a school's data would fail with "could not be
//! loaded" boxes; instead it shows one calm empty state with the picker, and its main action
//! (New task, Invite user, Generate, Create template) disabled, until an organisation is
//! chosen. Pages that are not a school's (settings, support, the superadmin's own pages) render
//! as usual.

import { lazy, Suspense } from 'react'
import { Outlet, useLocation } from 'react-router'

import { useSession } from '@/lib/session'

// Loaded only when shown, so the first page's download does not carry it.
const NoOrganisation = lazy(() => import('./no-organisation'))

/** Pages that do not show one school's data. */
const NOT_SCHOOL_PAGES = new Set([
  '/settings',
  '/leaders/settings',
  '/support',
  '/leaders/support',
  '/leaders/organisations',
  '/users',
  '/schools',
  '/setup',
])

/** Whether `pathname` shows a school's data (and so needs an organisation). */
export function isSchoolPage(pathname: string): boolean {
  return !NOT_SCHOOL_PAGES.has(pathname.replace(/(.)\/+$/, '$1'))
}

export function RequireOrganisation() {
  const { session } = useSession()
  const { pathname, search } = useLocation()
  const user = session?.user
  if (!user || user.role !== 'SUPERADMIN' || user.schoolId || !isSchoolPage(pathname)) return <Outlet />
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <NoOrganisation pathname={pathname} search={search} />
    </Suspense>
  )
}
