//! `taskContent.remove`: takes an item out of the task; the task's list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useRemoveTaskItem() {
  const client = useQueryClient()
  return useRpcMutation('taskContent.remove', {
    onSuccess: () => {
      void invalidateRpc(client, 'leader.listTaskFiles')
      void invalidateRpc(client, 'taskContent.voiceNotes')
    },
  })
}
