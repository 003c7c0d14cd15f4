//! `task.removeCollaborator`: the owner stops sharing the task with a colleague.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useRemoveCollaborator() {
  const queryClient = useQueryClient()
  return useRpcMutation('task.removeCollaborator', {
    onSuccess: () => invalidateRpc(queryClient, 'task.'),
  })
}
