//! `taskContent.addVoiceNotes`: pulls the caller's voice notes into the task; the task's list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useAddVoiceNotes() {
  const client = useQueryClient()
  return useRpcMutation('taskContent.addVoiceNotes', {
    onSuccess: () => {
      void invalidateRpc(client, 'leader.listTaskFiles')
      void invalidateRpc(client, 'taskContent.voiceNotes')
    },
  })
}
