//! The server calls of the photo analyser: `notification.analyseImage` (photos + prompt ->
//! the model's text) and `system.features` (whether AI photo analysis is configured).

import { useMutation } from '@tanstack/react-query'

import type { AnalyseImageInput } from '@/generated/rpc-types'
import { rpcMutation, useRpcQuery } from '@/lib/rpc'

export function useAnalyseImage() {
  return useMutation({
    mutationFn: (input: AnalyseImageInput) => rpcMutation('notification.analyseImage', input),
  })
}

/** What the server has set up; it changes only with the server's configuration. */
export function useServerFeatures() {
  return useRpcQuery('system.features', undefined, { staleTime: 5 * 60_000, retry: false })
}
