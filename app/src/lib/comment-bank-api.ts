//! The comment bank's calls for the shared feedback components
//! (`components/comment-bank-field.tsx`): the typeahead's `commentBank.search` and
//! `commentBank.use`, 'Save to comment bank' (`commentBank.add`) and the three-times rule's
//! suggestions (`commentBank.suggestions`, `acceptSuggestion`, `dismissSuggestion`). Each
//! change refreshes the bank's cached listings (and the suggestions).

import { useQueryClient } from '@tanstack/react-query'

import type { BankCommentView } from '@/generated/rpc-types'

import { invalidateRpc, rpcKey, rpcMutation, rpcQuery, useRpcMutation, useRpcQuery } from './rpc'

/** The cache key of the pending suggestions: refresh it after a mark is saved. */
export const COMMENT_BANK_SUGGESTIONS_KEY = rpcKey('commentBank.suggestions')

/** The typeahead's matches for the typed fragment (at most 8, best first). */
export function searchComments(query: string): Promise<BankCommentView[]> {
  return rpcQuery('commentBank.search', { query })
}

/** Counts one use of an inserted comment; a failure is not the teacher's concern. */
export function recordCommentUse(id: string): void {
  void rpcMutation('commentBank.use', { id }).catch(() => undefined)
}

/** `commentBank.add` into the caller's personal bank. */
export function useSaveToCommentBank() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.add', { onSuccess: () => invalidateRpc(client, 'commentBank.list') })
}

/** The pending suggestions of the three-times rule. */
export const useCommentBankSuggestions = () =>
  useRpcQuery('commentBank.suggestions', undefined, { staleTime: 30_000 })

/** 'Add' on a suggestion. */
export function useAcceptSuggestion() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.acceptSuggestion', {
    onSettled: () => {
      void invalidateRpc(client, 'commentBank.list')
      void client.invalidateQueries({ queryKey: COMMENT_BANK_SUGGESTIONS_KEY })
    },
  })
}

/** 'Not now' on a suggestion. */
export function useDismissSuggestion() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.dismissSuggestion', {
    onSettled: () => client.invalidateQueries({ queryKey: COMMENT_BANK_SUGGESTIONS_KEY }),
  })
}
