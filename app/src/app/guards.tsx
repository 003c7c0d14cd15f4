//! Route guards: signed-in pages need a session of an enabled user, and users flagged
//! redirectToLeaders stay inside the leaders area; pages for some roles only check the role
//! before they render, so their queries never run (and fail with 403) for anyone else.

import { lazy, Suspense } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'

import { PageLoading } from '@/components/page-loading'
import type { UserRole } from '@/lib/auth-client'

import { isLeadersPath, loginRedirect } from '@/lib/callback-url'
import { useSession } from '@/lib/session'

import { forcedIntoLeaders } from './shell/navigation'
import { useRoleCheck, useRoleCheckSettled } from './shell/use-role-check'

// The shell (menus, dialogs, the rpc client) loads after the session check, so /login's
// first download does not carry it.
const Shell = lazy(async () => ({ default: (await import('./shell/shell')).Shell }))

/** The shell with the routed page, once the session allows it. */
export function ProtectedShell() {
  const { status, session, provisional, endedDisabled, signedOutByUser } = useSession()
  const location = useLocation()
  const path = `${location.pathname}${location.search}${location.hash}`
  // The shell draws its menus and the leaders' upgrade banner from the role checks: waiting
  // for them here (behind the first frame, docs/performance.md) keeps the page from moving
  // down when the banner arrives.
  const rolesSettled = useRoleCheckSettled(session?.user.role)

  if (status === 'loading') return <PageLoading />
  if (!session || status === 'unauthenticated') {
    return <Navigate to={loginRedirect(path, { endedDisabled, signedOutByUser })} replace />
  }
  // Remembered on the device and not yet confirmed: anything but opening the page waits.
  const elsewhere = session.user.disabled || (forcedIntoLeaders(session.user) && !isLeadersPath(location.pathname))
  if (provisional && elsewhere) return <PageLoading />
  if (session.user.disabled) return <Navigate to="/login?error=AccountDisabled" replace />
  if (forcedIntoLeaders(session.user) && !isLeadersPath(location.pathname)) {
    return <Navigate to="/leaders/tasks" replace />
  }
  if (!rolesSettled) return <PageLoading />
  return (
    <Suspense fallback={<PageLoading />}>
      <Shell user={session.user} />
    </Suspense>
  )
}

/**
 * The routed page when the signed-in user holds one of `roles` (a superadmin always does);
 * otherwise the page's `title` and that access is refused. Decided before the page renders,
 * so a page's queries never reach the server for a role that may not open it.
 */
export function RequireRole({ roles, title }: { roles: UserRole[]; title: string }) {
  const { session, provisional } = useSession()
  const allowed = useRoleCheck(session?.user.role)
  if (!allowed) return <p role="status">Loading…</p>
  if (!allowed(roles)) {
    // The remembered role may be out of date: refuse only on the server's answer.
    if (provisional) return <p role="status">Loading…</p>
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">You do not have access to this page.</p>
      </div>
    )
  }
  return <Outlet />
}
