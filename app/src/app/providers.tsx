//! App-wide providers: the TanStack Query client and the toasts.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'

import { Toaster } from '@/components/ui/toaster'

/** The app's one query client, made with the entry so that the first requests start before React renders. */
export const queryClient = new QueryClient({
  defaultOptions: {
    // Offline, a request fails at once with a sentence rather than waiting unseen; what a
    // user captures offline goes through the outbox (lib/outbox) instead.
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
})

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Toaster>{children}</Toaster>
    </QueryClientProvider>
  )
}
