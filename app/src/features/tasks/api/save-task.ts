//! `task.save`: "Save as draft" — title, tags and the changed answers, each over the version
//! it was edited from; answers someone else changed first come back as conflicts.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_ANSWER_CHARS, MAX_GROUP_NAME_CHARS, MAX_TITLE_CHARS } from '@/generated/limits'
import { optionalText, requiredText, tagsText } from '@/lib/form-limits'
import { invalidateRpc, useRpcMutation, type RpcOutput } from '@/lib/rpc'

export type SaveResult = RpcOutput<'task.save'>
export type AnswerConflict = SaveResult['conflicts'][number]

/** Most tags on one task (`rpc/task/mod.rs`). */
export const MAX_TASK_TAGS = 20

export const taskSchema = z.object({
  title: requiredText('Enter a title.', MAX_TITLE_CHARS),
  /** The server's limits (`rpc/task/mod.rs`): 20 tags, each as long as a group name. */
  tags: tagsText(MAX_TASK_TAGS, MAX_GROUP_NAME_CHARS),
  answers: z.array(z.object({ text: optionalText(MAX_ANSWER_CHARS) })),
})

export type TaskValues = z.infer<typeof taskSchema>

export function useSaveTask() {
  const queryClient = useQueryClient()
  // The open task is not refetched: the page keeps the user's text and merges the answer.
  return useRpcMutation('task.save', {
    onSuccess: () => invalidateRpc(queryClient, 'task.list'),
  })
}
