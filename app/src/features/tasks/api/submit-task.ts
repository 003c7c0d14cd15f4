//! `task.submit`: submits a task whose required questions are all answered.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useSubmitTask() {
  const queryClient = useQueryClient()
  return useRpcMutation('task.submit', {
    onSuccess: () => invalidateRpc(queryClient, 'task.'),
  })
}
