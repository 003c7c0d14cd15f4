//! `student.deleteComment`; the comments refresh after it.

import { useQueryClient } from '@tanstack/react-query'

import { rpcKey, useRpcMutation } from '@/lib/rpc'

export function useDeleteComment(studentId: string) {
  const queryClient = useQueryClient()
  return useRpcMutation('student.deleteComment', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rpcKey('student.comments', { id: studentId }) }),
  })
}
