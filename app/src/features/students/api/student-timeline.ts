//! `student.timeline`: the pupil's assignments, submissions and feedback, newest first.

import { useRpcQuery } from '@/lib/rpc'

export const useTimeline = (id: string) => useRpcQuery('student.timeline', { id }, { retry: false })
