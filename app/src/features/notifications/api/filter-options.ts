//! `notification.filterOptions`: the classes, year groups, form groups and pupils to choose from.

import { useRpcQuery } from '@/lib/rpc'

export const useAudienceOptions = () => useRpcQuery('notification.filterOptions', undefined, { staleTime: 60_000 })
