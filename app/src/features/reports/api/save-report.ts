//! `report.save` and the report form's schema (the server checks the same limits).

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const MAX_TASKS = 50
export const MAX_VOICE_NOTES = 20
export const MAX_INSTRUCTIONS = 4000
export const MAX_TITLE = 200

export const reportSchema = z.object({
  title: z.string().max(MAX_TITLE, `Use at most ${MAX_TITLE} characters.`),
  instructions: z.string().max(MAX_INSTRUCTIONS, `Use at most ${MAX_INSTRUCTIONS} characters.`),
  taskIds: z.array(z.string()).max(MAX_TASKS, `Choose at most ${MAX_TASKS} tasks.`),
  voiceNoteIds: z.array(z.string()).max(MAX_VOICE_NOTES, `Choose at most ${MAX_VOICE_NOTES} voice notes.`),
  body: z.string(),
})

export type ReportValues = z.infer<typeof reportSchema>

/** Generating needs at least one task. */
export const generateSchema = reportSchema.extend({
  taskIds: reportSchema.shape.taskIds.min(1, 'Choose at least one task.'),
})

/** Saving needs a title and a report. */
export const saveSchema = reportSchema.extend({
  title: reportSchema.shape.title.refine((t) => t.trim().length > 0, 'Give the report a title.'),
  body: z.string().refine((b) => b.trim().length > 0, 'The report is empty: generate or write it first.'),
})

export function useSaveReport() {
  const client = useQueryClient()
  return useRpcMutation('report.save', { onSuccess: () => invalidateRpc(client, 'report.list') })
}
