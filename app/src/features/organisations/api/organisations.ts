//! `organisation.list`: the schools of the caller's trust with their figures.

import { useRpcQuery } from '@/lib/rpc'

export const useOrganisations = () => useRpcQuery('organisation.list', undefined, { retry: false })
