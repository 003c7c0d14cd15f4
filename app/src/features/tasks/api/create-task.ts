//! `task.create`: step 1 of a new task (title and template); the list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_TITLE_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const createTaskSchema = z.object({
  title: requiredText('Enter a title.', MAX_TITLE_CHARS),
  templateId: z.string().min(1, 'Choose a template.'),
})

export type CreateTaskValues = z.infer<typeof createTaskSchema>

export function useCreateTask() {
  const queryClient = useQueryClient()
  return useRpcMutation('task.create', {
    onSuccess: () => invalidateRpc(queryClient, 'task.list'),
  })
}
