//! `system.features`: whether live dictation is set up on this server.

import { useRpcQuery } from '@/lib/rpc'

export type { Features as SystemFeatures } from '@/generated/rpc-types'

export const useSystemFeatures = (enabled = true) =>
  useRpcQuery('system.features', undefined, { staleTime: 60_000, enabled })
