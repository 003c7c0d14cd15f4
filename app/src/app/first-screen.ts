//! The first screen's requests, started together as soon as the entry runs rather than
//! discovered one after another (issue 27 item 6). Left alone, a signed-in page loads its
//! route's chunk (the router starts that when it is made), then renders and asks for the
//! session, then, once signed in, loads the shell's chunk, and only then renders the page.
//! Here the session and, on a signed-in page, the shell's chunk start at the same time as
//! the route's chunk, and so does the tRPC client the page's first queries need; the
//! components that ask for them later find them under way or done.

import type { QueryClient } from '@tanstack/react-query'
import { matchRoutes, type RouteObject } from 'react-router'

import { fetchSession } from '@/lib/auth-client'
import { loadRpcClient } from '@/lib/rpc'
import { SESSION_KEY } from '@/lib/session'

/** The id of the route behind the session guard (router.tsx), whose pages sit in the shell. */
export const SIGNED_IN_ROUTE_ID = 'signed-in'

/** Whether `pathname` opens a page inside the signed-in shell. */
export function opensInShell(routes: RouteObject[], pathname: string): boolean {
  return matchRoutes(routes, pathname)?.some((match) => match.route.id === SIGNED_IN_ROUTE_ID) ?? false
}

/** Starts the session request and, for a signed-in page, the shell's code and the tRPC client. */
export function startFirstScreen(queryClient: QueryClient, routes: RouteObject[], pathname: string) {
  // The same query SessionProvider reads: its first render finds it in flight or answered.
  void queryClient.prefetchQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, retry: 1 })
  // guards.tsx's lazy Shell imports the same module: this only starts it sooner.
  if (opensInShell(routes, pathname)) {
    void import('./shell/shell')
    void loadRpcClient()
  }
}
