//! `microsoft.disconnect`: forgets the caller's Microsoft 365 tokens; the status refreshes.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useDisconnectMicrosoft() {
  const client = useQueryClient()
  return useRpcMutation('microsoft.disconnect', {
    onSuccess: () => void invalidateRpc(client, 'microsoft.'),
  })
}
