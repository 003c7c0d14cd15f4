//! The session as the app sees it (loading / authenticated / unauthenticated), from
//! GET /api/auth/session: refetched when the path changes, when the tab becomes visible and,
//! when the server sets an interval (the session's `pollSeconds`), every so many seconds.
//!
//! A returning user's page does not wait for that first answer: the session remembered on the
//! device is shown at once (`provisional`) while the request is in flight (app/first-screen.ts,
//! issue 27 item 6). Provisional, a page opens only where it would open anyway; anything that
//! would send the user elsewhere (sign-in, a role's refusal, the leaders area) waits for the
//! server's answer, which then replaces it. No data comes from it: every query still asks the
//! server with the real cookie.

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router'

import { fetchSession, signOut as postSignOut, type Session } from './auth-client'
import { clearDevice, STORAGE_PREFIX } from './outbox/device'

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated'

interface SessionContextValue {
  status: SessionStatus
  session: Session | null
  /**
   * True while `session` is the one remembered on this device and the server has not answered
   * yet: show what the user may see, but decide nothing (no redirect, no refusal) on it.
   */
  provisional: boolean
  /** True once a disabled user was seen: a session that then disappears reads AccountDisabled. */
  endedDisabled: boolean
  /** True after the user chose Log out (so guards send them to plain /login). */
  signedOutByUser: boolean
  refresh(): Promise<Session | null>
  signOut(): Promise<void>
}

const SessionContext = createContext<SessionContextValue | null>(null)

export const SESSION_KEY = ['auth', 'session'] as const

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const { pathname } = useLocation()
  const query = useQuery({
    queryKey: SESSION_KEY,
    queryFn: sessionOrRemembered,
    // Offline, ask anyway: the remembered session then opens the app from the device.
    networkMode: 'always',
    staleTime: 0,
    retry: 1,
    // The entry asked for it already (app/first-screen.ts): no second request on mount.
    // Later checks come from the path, the tab and the interval below.
    refetchOnMount: false,
    // The server's interval (0: none); only while signed in and the tab is in view.
    refetchInterval: (current) => sessionPollMs(current.state.data),
    refetchIntervalInBackground: false,
  })
  const { refetch } = query
  const [signedOutByUser, setSignedOutByUser] = useState(false)
  const [endedDisabled, setEndedDisabled] = useState(false)

  // The path changed: check the session again (first render is the initial fetch).
  const firstPath = useRef(true)
  useEffect(() => {
    // Back on the sign-in page: a later redirect should carry its way back again.
    if (pathname === '/login') setSignedOutByUser(false)
    if (firstPath.current) {
      firstPath.current = false
      return
    }
    void refetch()
  }, [pathname, refetch])

  // The tab became visible again.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refetch()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => document.removeEventListener('visibilitychange', onVisible)
  }, [refetch])

  const session = query.data ?? null
  // Seeded from the device with time 0 (first-screen.ts); any answer since has a time.
  const provisional = session !== null && query.dataUpdatedAt === 0
  const disabled = session?.user.disabled ?? false

  // A disabled user is signed out on the server too.
  useEffect(() => {
    if (!disabled) return
    setEndedDisabled(true)
    void postSignOut()
      .catch(() => undefined)
      .then(() => queryClient.setQueryData(SESSION_KEY, null))
  }, [disabled, queryClient])

  const refresh = useCallback(async () => (await refetch()).data ?? null, [refetch])
  const userId = session?.user.id ?? null
  const signOut = useCallback(async () => {
    setSignedOutByUser(true)
    try {
      await postSignOut()
    } finally {
      // A shared school device keeps nothing of the user: outbox, recordings, stored items, caches.
      await clearDevice(userId)
      queryClient.removeQueries({ queryKey: ['rpc'] })
      queryClient.setQueryData(SESSION_KEY, null)
    }
  }, [queryClient, userId])

  // A failed first fetch counts as signed out: the sign-in page is the way forward.
  const status: SessionStatus = query.isPending ? 'loading' : session ? 'authenticated' : 'unauthenticated'

  // Signing in again starts afresh.
  useEffect(() => {
    if (status === 'authenticated' && !disabled) {
      setSignedOutByUser(false)
      setEndedDisabled(false)
    }
  }, [status, disabled])

  const value = useMemo(
    () => ({ status, session, provisional, endedDisabled, signedOutByUser, refresh, signOut }),
    [status, session, provisional, endedDisabled, signedOutByUser, refresh, signOut],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession(): SessionContextValue {
  const context = useContext(SessionContext)
  if (!context) throw new Error('useSession needs <SessionProvider> above it')
  return context
}

const REMEMBERED = `${STORAGE_PREFIX}session`

/**
 * The session from the server, remembered on the device so that the app opens with no
 * network (from the service worker) for the user who was signed in; forgotten at sign-out.
 */
export async function sessionOrRemembered(): Promise<Session | null> {
  try {
    const session = await fetchSession()
    if (session) localStorage.setItem(REMEMBERED, JSON.stringify(session))
    else localStorage.removeItem(REMEMBERED)
    return session
  } catch (error) {
    // No answer at all (offline, or the server out of reach): the last session seen here.
    if (error instanceof TypeError || navigator.onLine === false) {
      const remembered = localStorage.getItem(REMEMBERED)
      if (remembered) return JSON.parse(remembered) as Session
    }
    throw error
  }
}

/** The session last seen on this device (forgotten at sign-out), if any. */
export function rememberedSession(): Session | null {
  try {
    const remembered = localStorage.getItem(REMEMBERED)
    return remembered ? (JSON.parse(remembered) as Session) : null
  } catch {
    return null
  }
}

/** The session refetch interval in milliseconds that `session` asks for, or false for none. */
export function sessionPollMs(session: Session | null | undefined): number | false {
  const seconds = session?.pollSeconds ?? 0
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : false
}

/** Whether the user counts as Pro (spec section 4: a superadmin always does). */
export function isPro(user: Session['user']): boolean {
  return user.role === 'SUPERADMIN' || user.pro
}
