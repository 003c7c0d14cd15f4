//! The Auth.js REST calls under /api/auth (session, csrf, providers, credentials sign-in,
//! sign-out, e-mail link). Plain fetch: these are form posts, not tRPC.

export type UserRole = 'TEACHER' | 'ADMIN' | 'SUPERADMIN' | 'ORG_ADMIN' | 'MAT_USER'

export interface SessionUser {
  id: string
  forename: string
  surname: string
  name: string
  email: string
  role: UserRole
  disabled: boolean
  redirectToLeaders: boolean
  leader: boolean
  hasCompletedTutorial: boolean
  stripeProductId: string | null
  pro: boolean
  /** The school the session acts in (the user's own, or the one switched to). */
  schoolId?: string | null
  schoolName?: string | null
  /** The type of that school: a BUSINESS reads "learners" for "pupils" (lib/pupil-word.ts). */
  orgType?: 'SCHOOL' | 'BUSINESS' | null
  /** True when the session switched away from the user's own school. */
  switchedSchool?: boolean
}

export interface Session {
  user: SessionUser
  expires: string
  /**
   * How often to refetch the session while a page stays open, in seconds; 0 (or absent):
   * only on a page change and when the tab comes back (VOICEMARK_SESSION_POLL_SECONDS).
   */
  pollSeconds?: number
}

const BASE = '/api/auth'

/** The current session, or `null` when signed out. */
export async function fetchSession(): Promise<Session | null> {
  const response = await fetch(`${BASE}/session`, { credentials: 'same-origin', cache: 'no-store' })
  if (!response.ok) throw new Error(`Session request failed (${response.status})`)
  const body = (await response.json()) as Partial<Session> | null
  return body && body.user ? (body as Session) : null
}

/** The CSRF token of the double-submit check (GET csrf also sets its cookie when needed). */
export async function csrfToken(): Promise<string> {
  const response = await fetch(`${BASE}/csrf`, { credentials: 'same-origin', cache: 'no-store' })
  if (!response.ok) throw new Error(`CSRF request failed (${response.status})`)
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return csrfToken
}

/** One entry of `GET /api/auth/providers`. */
export interface AuthProvider {
  id: string
  name: string
  type: 'oauth' | 'email' | 'credentials'
  signinUrl: string
  callbackUrl: string
}

/** The ways to sign in the server offers, by id (`azure-ad` only when Microsoft is set up). */
export async function fetchProviders(): Promise<Record<string, AuthProvider>> {
  const response = await fetch(`${BASE}/providers`, { credentials: 'same-origin', cache: 'no-store' })
  if (!response.ok) throw new Error(`Providers request failed (${response.status})`)
  return (await response.json()) as Record<string, AuthProvider>
}

async function postForm(path: string, fields: Record<string, string>): Promise<{ url?: string }> {
  const response = await fetch(`${BASE}/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Auth-Return-Redirect': '1' },
    body: new URLSearchParams({ ...fields, json: 'true' }),
  })
  const body = (await response.json().catch(() => ({}))) as { url?: string }
  if (!response.ok && !body.url) throw new Error(`Auth request failed (${response.status})`)
  return body
}

/** The `error` query value of an Auth.js answer url, if any. */
export function errorFromUrl(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    return new URL(url, 'http://x.invalid').searchParams.get('error') ?? undefined
  } catch {
    return undefined
  }
}

/** Signs in with e-mail and password; resolves to the error code, or `undefined` on success. */
export async function signInWithCredentials(
  email: string,
  password: string,
  callbackUrl: string,
): Promise<string | undefined> {
  try {
    const { url } = await postForm('callback/credentials', {
      email,
      password,
      csrfToken: await csrfToken(),
      callbackUrl,
    })
    return errorFromUrl(url)
  } catch {
    return 'Default'
  }
}

/** Signs out; resolves once the server has ended the session. */
export async function signOut(): Promise<void> {
  await postForm('signout', { csrfToken: await csrfToken(), callbackUrl: '/login' })
}

/** Asks for a sign-in link by e-mail. */
export async function requestEmailLink(email: string, callbackUrl: string): Promise<string | undefined> {
  const { url } = await postForm('signin/email', { email, csrfToken: await csrfToken(), callbackUrl })
  return errorFromUrl(url)
}
