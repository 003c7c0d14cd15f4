//! `commentBank.propose` (a teacher's comment for the school's bank) and
//! `commentBank.review` (an admin approves or rejects it); the bank refreshes after either.

import { useQueryClient } from '@tanstack/react-query'

import { useRpcMutation } from '@/lib/rpc'

import { refreshCommentBank } from './list-comments'

export function useProposeComment() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.propose', { onSuccess: () => refreshCommentBank(client) })
}

export function useReviewComment() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.review', { onSuccess: () => refreshCommentBank(client) })
}
