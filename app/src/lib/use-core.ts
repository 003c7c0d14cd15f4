//! TanStack Query hooks over the wasm core (answers never change, so they are cached forever).

import { useQuery } from '@tanstack/react-query'

import { getCore, type CoreLimits } from './core'

/** The core's business limits when they are first needed; until then, spec section 9's values. */
export const FALLBACK_LIMITS: CoreLimits = {
  maxUploadBytes: 52_428_800,
  maxPhotosPerAnalysis: 10,
  dictationLimitSeconds: 900,
  feedbackHubPollSeconds: 60,
  toastDurationMs: 4_000,
  toastLimit: 5,
}

/** `enabled: false` waits (with the fallback values) until the caller really needs them. */
export function useCoreLimits({ enabled = true }: { enabled?: boolean } = {}): CoreLimits {
  const { data } = useQuery({
    queryKey: ['core', 'limits'],
    queryFn: () => getCore().limits(),
    staleTime: Infinity,
    gcTime: Infinity,
    enabled,
  })
  return data ?? FALLBACK_LIMITS
}
