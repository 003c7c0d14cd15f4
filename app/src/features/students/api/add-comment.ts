//! `student.addComment`: the form's schema and the mutation; the comments refresh after it.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_COMMENT_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const commentSchema = z.object({
  comment: requiredText('Write a comment.', MAX_COMMENT_CHARS),
})

export type CommentValues = z.infer<typeof commentSchema>

export function useAddComment(studentId: string) {
  const queryClient = useQueryClient()
  return useRpcMutation('student.addComment', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rpcKey('student.comments', { id: studentId }) }),
  })
}
