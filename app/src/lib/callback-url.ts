//! Where to go after signing in: only same-origin targets, never another site.

/**
 * The path (with query and hash) of `raw` when it points at `origin`, else `undefined`.
 * Accepts relative paths ("/feedback?x=1") and absolute same-origin URLs; refuses other
 * origins, protocol-relative ("//evil.test") and non-http schemes ("javascript:").
 */
export function sameOriginPath(raw: string | null | undefined, origin: string): string | undefined {
  if (!raw) return undefined
  // Backslashes count as slashes in URL parsing ("/\evil.test" is protocol-relative).
  if (!raw.startsWith('/') && !/^https?:\/\//i.test(raw)) return undefined
  let url: URL
  try {
    url = new URL(raw, origin)
  } catch {
    return undefined
  }
  if (url.origin !== origin) return undefined
  const path = `${url.pathname}${url.search}${url.hash}`
  // Never bounce back to the sign-in page itself.
  if (url.pathname === '/login') return undefined
  return path
}

/** The page to open after signing in. */
export function afterSignInPath(
  callbackUrl: string | null | undefined,
  origin: string,
  redirectToLeaders: boolean,
): string {
  const target = sameOriginPath(callbackUrl, origin)
  if (redirectToLeaders) {
    return target && isLeadersPath(target.split(/[?#]/)[0]) ? target : '/leaders/tasks'
  }
  return target ?? '/'
}

/** Whether `pathname` is inside the leaders area. */
export function isLeadersPath(pathname: string): boolean {
  return pathname === '/leaders' || pathname.startsWith('/leaders/')
}

/**
 * Where a visitor of `path` without a session is sent: AccountDisabled when the session
 * ended because the user is disabled, plain /login after Log out, else SessionRequired with
 * the way back.
 */
export function loginRedirect(path: string, opts: { endedDisabled: boolean; signedOutByUser: boolean }): string {
  if (opts.endedDisabled) return '/login?error=AccountDisabled'
  if (opts.signedOutByUser) return '/login'
  return `/login?${new URLSearchParams({ callbackUrl: path, error: 'SessionRequired' })}`
}
