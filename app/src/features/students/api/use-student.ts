//! The pupil profile's queries and the comment mutations.

import { useMutation, useQueryClient } from '@tanstack/react-query'

import { rpcKey, rpcMutation, useRpcQuery } from '@/lib/rpc'

export function useStudent(id: string) {
  return useRpcQuery('student.get', { id }, { retry: false })
}

export function useTimeline(id: string) {
  return useRpcQuery('student.timeline', { id }, { retry: false })
}

export function useComments(id: string) {
  return useRpcQuery('student.comments', { id }, { retry: false })
}

export function useAddComment(studentId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (comment: string) => rpcMutation('student.addComment', { studentId, comment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rpcKey('student.comments', { id: studentId }) }),
  })
}

export function useDeleteComment(studentId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => rpcMutation('student.deleteComment', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rpcKey('student.comments', { id: studentId }) }),
  })
}
