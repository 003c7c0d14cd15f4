//! `notification.submissions`: the work handed in for an assignment.

import { useRpcQuery } from '@/lib/rpc'

export const useSubmissions = (id: string) => useRpcQuery('notification.submissions', { id })
