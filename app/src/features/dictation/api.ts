//! The server calls of live dictation: whether it is set up, and a short-lived credential.

import { useQuery } from '@tanstack/react-query'

import { rpcKey, rpcMutation, rpcQuery } from '@/lib/rpc'

import type { SpeechCredential } from './dictation-session'

export type { Features as SystemFeatures } from '@/generated/rpc-types'

export function useSystemFeatures(enabled = true) {
  return useQuery({
    queryKey: rpcKey('system.features'),
    queryFn: () => rpcQuery('system.features'),
    staleTime: 60_000,
    enabled,
  })
}

/** A fresh credential for the speech provider (`submission.getDeepgramKey`). */
export function mintSpeechCredential(): Promise<SpeechCredential> {
  return rpcMutation('submission.getDeepgramKey', undefined)
}
