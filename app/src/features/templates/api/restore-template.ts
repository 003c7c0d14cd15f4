//! `template.restore`: brings an archived template back.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useRestoreTemplate() {
  const queryClient = useQueryClient()
  return useRpcMutation('template.restore', { onSuccess: () => invalidateRpc(queryClient, 'template.') })
}
