//! `taskContent.importMicrosoft`: brings the chosen OneDrive / SharePoint files and Teams
//! recordings into the task; each appears at once as a queued item, so the task's list
//! refreshes (and keeps polling while they are busy, like uploads).

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useImportMicrosoft() {
  const client = useQueryClient()
  return useRpcMutation('taskContent.importMicrosoft', {
    onSuccess: () => void invalidateRpc(client, 'leader.listTaskFiles'),
  })
}
