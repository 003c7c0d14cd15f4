//! Route guards: signed-in pages need a session of an enabled user, and users flagged
//! redirectToLeaders stay inside the leaders area.

import { lazy, Suspense } from 'react'
import { Navigate, useLocation } from 'react-router'

import { isLeadersPath, loginRedirect } from '@/lib/callback-url'
import { useSession } from '@/lib/session'

import { forcedIntoLeaders } from './shell/navigation'

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
  const { status, session, endedDisabled, signedOutByUser } = useSession()
  const location = useLocation()
  const path = `${location.pathname}${location.search}${location.hash}`

  if (status === 'loading') return <Loading />
  if (!session || status === 'unauthenticated') {
    return <Navigate to={loginRedirect(path, { endedDisabled, signedOutByUser })} replace />
  }
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
