//! `submission.public`: the pupil's view of one submission link, and its cache (refreshed
//! after an upload, replaced by the hand-in's answer).

import { useQueryClient } from '@tanstack/react-query'

import type { PublicSubmissionView } from '@/generated/rpc-types'
import { rpcKey, useRpcQuery } from '@/lib/rpc'

export const useSubmission = (id: string, token: string) =>
  useRpcQuery('submission.public', { id, token }, { retry: false })

export function useRefreshSubmission(id: string, token: string) {
  const queryClient = useQueryClient()
  return {
    refresh: () => queryClient.invalidateQueries({ queryKey: rpcKey('submission.public', { id, token }) }),
    set: (view: PublicSubmissionView) => queryClient.setQueryData(rpcKey('submission.public', { id, token }), view),
  }
}
