//! `feedback.list`: the submissions waiting for feedback, filtered by assignment and class.

import { useRpcQuery } from '@/lib/rpc'

export interface HubFilters {
  notificationId: string | null
  classId: string | null
}

export const useFeedbackHub = (filters: HubFilters) => useRpcQuery('feedback.list', filters)
