//! `student.get`: the pupil's profile (groups, classes, parent).

import { useRpcQuery } from '@/lib/rpc'

export const useStudent = (id: string) => useRpcQuery('student.get', { id }, { retry: false })
