//! `template.duplicate`: a personal copy ("Copy of …") of a template the user can see.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useDuplicateTemplate() {
  const queryClient = useQueryClient()
  return useRpcMutation('template.duplicate', { onSuccess: () => invalidateRpc(queryClient, 'template.') })
}
