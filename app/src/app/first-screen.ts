//! The first screen's session request, started as soon as the entry runs (issue 27 item 6).
//! Left alone, the router loads the page's chunk first (it starts that when it is made), and
//! only once that has loaded and the tree renders does `SessionProvider` ask for the session;
//! the shell's chunk waits for the answer. Here the session request goes out at the same time
//! as the page's chunk, so the shell's chunk starts as soon as the page can render.
//!
//! The shell's chunk itself is not started here: Lighthouse's simulation counts every request
//! that finished before the largest paint, and starting the shell's files (and with them the
//! page's data) this early made the repeat visit slower in its figures (docs/performance.md,
//! "Lighthouse").

import type { QueryClient } from '@tanstack/react-query'

import { rememberedSession, SESSION_KEY, sessionOrRemembered } from '@/lib/session'

/**
 * Starts the session request: the same query SessionProvider reads, found in flight or
 * answered. A returning user's remembered session is put in first, dated 0 (so it is stale
 * and marked provisional): the page renders at once and the answer replaces it.
 */
export function startFirstScreen(queryClient: QueryClient) {
  const remembered = rememberedSession()
  if (remembered) queryClient.setQueryData(SESSION_KEY, remembered, { updatedAt: 0 })
  // Offline, the remembered session opens the app from the device (docs/offline.md).
  void queryClient.prefetchQuery({ queryKey: SESSION_KEY, queryFn: sessionOrRemembered, retry: 1, networkMode: 'always' })
}
