//! `insights.student`: the pupil's hand-ins, marking turnaround and feedback sentiment per
//! week (the last 12 weeks), for the profile's charts.

import { useRpcQuery } from '@/lib/rpc'

export const useStudentInsights = (id: string) =>
  useRpcQuery('insights.student', { id, from: null, to: null }, { retry: false })
