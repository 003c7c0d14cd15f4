//! `task.save`: "Save as draft" — title, tags and the changed answers, each over the version
//! it was edited from; answers someone else changed first come back as conflicts.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { fitsChars, MAX_TITLE_CHARS, tooLongMessage } from '@/generated/limits'
import { invalidateRpc, useRpcMutation, type RpcOutput } from '@/lib/rpc'

export type SaveResult = RpcOutput<'task.save'>
export type AnswerConflict = SaveResult['conflicts'][number]

export const taskSchema = z.object({
  title: z
    .string()
    .refine((v) => v.trim().length > 0, 'Enter a title.')
    .refine((v) => fitsChars(v, MAX_TITLE_CHARS), tooLongMessage(MAX_TITLE_CHARS)),
  tags: z.string(),
  answers: z.array(z.object({ text: z.string() })),
})

export type TaskValues = z.infer<typeof taskSchema>

export function useSaveTask() {
  const queryClient = useQueryClient()
  // The open task is not refetched: the page keeps the user's text and merges the answer.
  return useRpcMutation('task.save', {
    onSuccess: () => invalidateRpc(queryClient, 'task.list'),
  })
}
