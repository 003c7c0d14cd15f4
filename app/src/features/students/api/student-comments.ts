//! `student.comments`: the staff's comments on the pupil.

import { useRpcQuery } from '@/lib/rpc'

export const useComments = (id: string) => useRpcQuery('student.comments', { id }, { retry: false })
