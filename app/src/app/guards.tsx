//! Route guards: signed-in pages need a session of an enabled user, and users flagged
//! redirectToLeaders stay inside the leaders area; pages for some roles only check the role
//! before they render, so their queries never run (and fail with 403) for anyone else.

import { lazy, Suspense } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'

import type { UserRole } from '@/lib/auth-client'

import { isLeadersPath, loginRedirect } from '@/lib/callback-url'
import { useSession } from '@/lib/session'

import { forcedIntoLeaders } from './shell/navigation'
import { useRoleCheck } from './shell/use-role-check'

// The shell (menus, dialogs, the rpc client) loads after the session check, so /login's
// first download does not carry it.
const Shell = lazy(async () => ({ default: (await import('./shell/shell')).Shell }))

function Loading() {
  return (
    <div role="status" className="flex h-dvh items-center justify-center text-muted-foreground">
      Loading…
    </div>
  )
}

/** The shell with the routed page, once the session allows it. */
export function ProtectedShell() {
  const { status, session, provisional, endedDisabled, signedOutByUser } = useSession()
  const location = useLocation()
  const path = `${location.pathname}${location.search}${location.hash}`

  if (status === 'loading') return <Loading />
  if (!session || status === 'unauthenticated') {
    return <Navigate to={loginRedirect(path, { endedDisabled, signedOutByUser })} replace />
  }
  // Remembered on the device and not yet confirmed: anything but opening the page waits.
  const elsewhere = session.user.disabled || (forcedIntoLeaders(session.user) && !isLeadersPath(location.pathname))
  if (provisional && elsewhere) return <Loading />
  if (session.user.disabled) return <Navigate to="/login?error=AccountDisabled" replace />
  if (forcedIntoLeaders(session.user) && !isLeadersPath(location.pathname)) {
    return <Navigate to="/leaders/tasks" replace />
  }
  return (
    <Suspense fallback={<Loading />}>
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
