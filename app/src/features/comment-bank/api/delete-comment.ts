//! `commentBank.delete`; the bank refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { useRpcMutation } from '@/lib/rpc'

import { refreshCommentBank } from './list-comments'

export function useDeleteComment() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.delete', { onSuccess: () => refreshCommentBank(client) })
}
