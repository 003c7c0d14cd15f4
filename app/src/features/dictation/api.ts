//! The server calls of live dictation: whether it is set up, and a short-lived credential.

import { useQuery } from '@tanstack/react-query'

import { rpcKey, rpcMutation, rpcQuery } from '@/lib/rpc'

import type { SpeechCredential } from './dictation-session'

// Typed here by hand so this feature does not wait on the regenerated rpc-types.ts; the
// shapes are the server's (H2b) contract.
const mutate = rpcMutation as unknown as <T>(path: string, input: unknown) => Promise<T>
const query = rpcQuery as unknown as <T>(path: string, input?: unknown) => Promise<T>

export interface SystemFeatures {
  photoAnalysis: boolean
  dictation: boolean
}

export function useSystemFeatures(enabled = true) {
  return useQuery({
    queryKey: rpcKey('system.features' as never),
    queryFn: () => query<SystemFeatures>('system.features'),
    staleTime: 60_000,
    enabled,
  })
}

/** A fresh credential for the speech provider (`submission.getDeepgramKey`). */
export function mintSpeechCredential(): Promise<SpeechCredential> {
  return mutate<SpeechCredential & { expiresAt: Date }>('submission.getDeepgramKey', undefined)
}
