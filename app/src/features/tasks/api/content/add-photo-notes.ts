//! `taskContent.addPhotoNotes`: keeps the photo analyser's notes as an item; the task's list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useAddPhotoNotes() {
  const client = useQueryClient()
  return useRpcMutation('taskContent.addPhotoNotes', {
    onSuccess: () => {
      void invalidateRpc(client, 'leader.listTaskFiles')
      void invalidateRpc(client, 'taskContent.voiceNotes')
    },
  })
}
