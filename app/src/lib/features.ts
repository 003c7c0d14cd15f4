//! `system.features`: which optional capabilities this server is set up for (AI photo analysis,
//! dictation, the chat model behind AI writing, card payments). It changes only with the
//! server's configuration, so one answer serves every feature for minutes. Pages use it to say
//! plainly, before any work starts, that a capability is not switched on.

import { useRpcQuery } from '@/lib/rpc'

export type { BillingFeature, Features as SystemFeatures } from '@/generated/rpc-types'

export const useFeatures = (enabled = true) =>
  useRpcQuery('system.features', undefined, { staleTime: 5 * 60_000, retry: false, enabled })
