//! `assistant.deleteQuery`: removes one stored question and its answer; the history refreshes.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useDeleteAssistantQuery() {
  const queryClient = useQueryClient()
  return useRpcMutation('assistant.deleteQuery', { onSuccess: () => invalidateRpc(queryClient, 'assistant.history') })
}
