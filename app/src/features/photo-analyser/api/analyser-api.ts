//! The server calls of the photo analyser: `notification.analyseImage` (photos + prompt ->
//! the model's text) and `system.features` (whether AI photo analysis is configured).

import { useMutation, useQuery } from '@tanstack/react-query'

import { rpcKey, rpcMutation, rpcQuery } from '@/lib/rpc'

export interface AnalyseImageInput {
  /** Base64 JPEGs (a `data:` prefix is optional). */
  images: string[]
  prompt: string
}

export interface ServerFeatures {
  photoAnalysis: boolean
  dictation: boolean
}

// The procedures are called by path through the untyped signature, so this feature builds
// against a generated rpc-types.ts from before they were added.
const mutate = rpcMutation as unknown as (path: string, input: unknown) => Promise<unknown>
const query = rpcQuery as unknown as (path: string, input?: unknown) => Promise<unknown>

export function useAnalyseImage() {
  return useMutation({
    mutationFn: async (input: AnalyseImageInput) =>
      (await mutate('notification.analyseImage', input)) as { text: string },
  })
}

/** What the server has set up; refetched rarely (it changes only with the server's config). */
export function useServerFeatures() {
  return useQuery({
    queryKey: rpcKey('system.features' as never),
    queryFn: async () => (await query('system.features')) as ServerFeatures,
    staleTime: 5 * 60_000,
    retry: false,
  })
}
