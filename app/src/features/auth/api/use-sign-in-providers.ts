//! `GET /api/auth/providers`: which ways to sign in the server offers, so /login shows
//! 'Sign in with Microsoft' only when the server lists `azure-ad`. When the list cannot be
//! loaded (spec section 8), /login shows its error page: a sentence and Try again.

import { useQuery } from '@tanstack/react-query'

import { fetchProviders, type AuthProvider } from '@/lib/auth-client'

export interface SignInProviders {
  /** The offered providers by id; `undefined` while loading or after a failure. */
  providers: Record<string, AuthProvider> | undefined
  /** The list could not be loaded. */
  failed: boolean
  retrying: boolean
  retry(): void
}

export function useSignInProviders(): SignInProviders {
  const query = useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: fetchProviders,
    staleTime: Infinity,
    retry: 1,
  })
  return {
    providers: query.data,
    failed: query.isError,
    retrying: query.isFetching,
    retry: () => void query.refetch(),
  }
}
