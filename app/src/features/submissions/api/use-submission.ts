//! The public submission's query and the hand-in mutation.

import { useQueryClient } from '@tanstack/react-query'

import type { PublicSubmissionView } from '@/generated/rpc-types'
import { rpcKey, rpcMutation, useRpcQuery } from '@/lib/rpc'

export function useSubmission(id: string, token: string) {
  return useRpcQuery('submission.public', { id, token }, { retry: false })
}

export function useRefreshSubmission(id: string, token: string) {
  const queryClient = useQueryClient()
  return {
    refresh: () => queryClient.invalidateQueries({ queryKey: rpcKey('submission.public', { id, token }) }),
    set: (view: PublicSubmissionView) => queryClient.setQueryData(rpcKey('submission.public', { id, token }), view),
  }
}

export function handIn(id: string, token: string, content: string) {
  return rpcMutation('submission.submit', { id, token, content })
}
