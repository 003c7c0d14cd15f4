//! `system.support`: the support address the server is configured with
//! (`VOICEMARK_SUPPORT_EMAIL`), for the AccountDisabled text. Public, so /login can read it.

import { useRpcQuery } from '@/lib/rpc'

/** The configured support address; `undefined` while loading or if the call fails. */
export function useSupportAddress(): string | undefined {
  const { data } = useRpcQuery('system.support', undefined, { staleTime: Infinity, retry: false })
  return data?.email
}
