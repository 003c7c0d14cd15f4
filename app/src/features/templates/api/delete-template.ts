//! `template.delete`: deletes an unused template, or archives one that tasks use
//! (`outcome` says which).

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useDeleteTemplate() {
  const queryClient = useQueryClient()
  return useRpcMutation('template.delete', { onSuccess: () => invalidateRpc(queryClient, 'template.') })
}
