//! `GET /api/auth/providers`: which ways to sign in the server offers, so /login shows
//! 'Sign in with Microsoft' only when the server lists `azure-ad`.

import { useQuery } from '@tanstack/react-query'

import { fetchProviders, type AuthProvider } from '@/lib/auth-client'

/** The offered providers by id; `undefined` while loading or if the call fails. */
export function useSignInProviders(): Record<string, AuthProvider> | undefined {
  const { data } = useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: fetchProviders,
    staleTime: Infinity,
    retry: false,
  })
  return data
}
