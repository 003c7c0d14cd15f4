//! `account.confirmEmail`, run once per token as the page opens.

import { useQuery } from '@tanstack/react-query'

import { rpcMutation } from '@/lib/rpc'

/** A query, not a mutation: it runs once per token even under StrictMode's double effects. */
export function useConfirmEmail(token: string) {
  return useQuery({
    queryKey: ['account', 'confirmEmail', token],
    queryFn: () => rpcMutation('account.confirmEmail', { token }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  })
}
