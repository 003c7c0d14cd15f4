//! `report.delete`; the list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useDeleteReport() {
  const client = useQueryClient()
  return useRpcMutation('report.delete', { onSuccess: () => invalidateRpc(client, 'report.list') })
}
