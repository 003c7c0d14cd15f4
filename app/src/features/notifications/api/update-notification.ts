//! `notification.update` (only while scheduled): the editor's schema is create's.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useUpdateNotification() {
  const queryClient = useQueryClient()
  return useRpcMutation('notification.update', { onSuccess: () => invalidateRpc(queryClient, 'notification.') })
}
