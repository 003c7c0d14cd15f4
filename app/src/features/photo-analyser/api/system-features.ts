//! `system.features`: whether AI photo analysis is configured (it changes only with the
//! server's configuration).

import { useRpcQuery } from '@/lib/rpc'

export const useServerFeatures = () => useRpcQuery('system.features', undefined, { staleTime: 5 * 60_000, retry: false })
