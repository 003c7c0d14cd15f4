//! `system.features`: whether a chat model is configured for autofill and AI Formatting
//! (it changes only with the server's configuration).

import { useRpcQuery } from '@/lib/rpc'

export const useAiFeatures = () => useRpcQuery('system.features', undefined, { staleTime: 5 * 60_000, retry: false })
