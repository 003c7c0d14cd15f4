//! `taskContent.addRecording`: marks an uploaded WAV as a recording with its transcript; the task's list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useAddRecording() {
  const client = useQueryClient()
  return useRpcMutation('taskContent.addRecording', {
    onSuccess: () => {
      void invalidateRpc(client, 'leader.listTaskFiles')
      void invalidateRpc(client, 'taskContent.voiceNotes')
    },
  })
}
