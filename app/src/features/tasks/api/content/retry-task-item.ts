//! `taskContent.retry`: queues a failed item again; the task's list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useRetryTaskItem() {
  const client = useQueryClient()
  return useRpcMutation('taskContent.retry', {
    onSuccess: () => {
      void invalidateRpc(client, 'leader.listTaskFiles')
      void invalidateRpc(client, 'taskContent.voiceNotes')
    },
  })
}
