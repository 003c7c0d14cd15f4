//! `task.delete`: the owner deletes a task.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useDeleteTask() {
  const queryClient = useQueryClient()
  return useRpcMutation('task.delete', {
    onSuccess: () => invalidateRpc(queryClient, 'task.list'),
  })
}
