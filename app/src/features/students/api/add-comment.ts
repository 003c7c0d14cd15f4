//! `student.addComment`: the form's schema and the comment itself, which goes through the
//! outbox (lib/outbox): saved on the device first, so a comment written offline is sent when
//! the connection returns. The comments refresh once the server has it; until then the page
//! lists it as not sent yet.

import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { z } from 'zod'

import { MAX_COMMENT_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { outbox, useOutboxItems, type OutboxItem } from '@/lib/outbox/use-outbox'
import { rpcKey } from '@/lib/rpc'

export const commentSchema = z.object({
  comment: requiredText('Write a comment.', MAX_COMMENT_CHARS),
})

export type CommentValues = z.infer<typeof commentSchema>

/** Resolves `true` when the server has the comment, `false` when it waits on the device. */
export function useAddComment(studentId: string, pupilName: string) {
  const queryClient = useQueryClient()
  return useCallback(
    async (comment: string) => {
      const outcome = await outbox.submit(
        `Comment on ${pupilName}`,
        { type: 'mutation', path: 'student.addComment', input: { studentId, comment } },
        ['student.comments'],
      )
      if (outcome.sent) void queryClient.invalidateQueries({ queryKey: rpcKey('student.comments', { id: studentId }) })
      return outcome.sent
    },
    [queryClient, studentId, pupilName],
  )
}

/** This pupil's comments still in the outbox (not yet confirmed by the server). */
export function useUnsentComments(studentId: string): { id: string; comment: string; item: OutboxItem }[] {
  return useOutboxItems().flatMap((item) =>
    item.state !== 'sent' &&
    item.job?.type === 'mutation' &&
    item.job.path === 'student.addComment' &&
    item.job.input.studentId === studentId
      ? [{ id: item.id, comment: String(item.job.input.comment), item }]
      : [],
  )
}
