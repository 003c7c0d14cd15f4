//! `task.addCollaborator`: the owner shares the task with a colleague (Pro).

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useAddCollaborator() {
  const queryClient = useQueryClient()
  return useRpcMutation('task.addCollaborator', {
    onSuccess: () => invalidateRpc(queryClient, 'task.'),
  })
}
