//! `student.addComment`: the form's schema and the mutation; the comments refresh after it.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const commentSchema = z.object({
  comment: z
    .string()
    .refine((value) => value.trim().length > 0, 'Write a comment.')
    .refine((value) => value.length <= 2000, 'A comment must be at most 2000 characters.'),
})

export type CommentValues = z.infer<typeof commentSchema>

export function useAddComment(studentId: string) {
  const queryClient = useQueryClient()
  return useRpcMutation('student.addComment', {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rpcKey('student.comments', { id: studentId }) }),
  })
}
