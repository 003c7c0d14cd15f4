//! `commentBank.add` and `commentBank.update`: the comment form's schema and the two saves;
//! the bank refreshes after either.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_FEEDBACK_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { useRpcMutation } from '@/lib/rpc'

import { refreshCommentBank } from './list-comments'

export const commentSchema = z.object({
  text: requiredText('Write the comment.', MAX_FEEDBACK_CHARS),
  sentiment: z.enum(['NEUTRAL', 'POSITIVE', 'NEGATIVE']),
  tags: z.string(),
})

export type CommentValues = z.infer<typeof commentSchema>

/** The form's tags ("English; Year 7") as the list the server takes. */
export const tagList = (tags: string) =>
  tags
    .split(/[;,]/)
    .map((tag) => tag.trim())
    .filter(Boolean)

export function useAddComment() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.add', { onSuccess: () => refreshCommentBank(client) })
}

export function useUpdateComment() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.update', { onSuccess: () => refreshCommentBank(client) })
}
