//! `report.save` and the report form's schema (the server checks the same limits).

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_INSTRUCTIONS_CHARS, MAX_TEXT_CHARS, MAX_TITLE_CHARS } from '@/generated/limits'
import { optionalText } from '@/lib/form-limits'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const MAX_TASKS = 50
export const MAX_VOICE_NOTES = 20
export const MAX_INSTRUCTIONS = MAX_INSTRUCTIONS_CHARS
export const MAX_TITLE = MAX_TITLE_CHARS

export const reportSchema = z.object({
  title: optionalText(MAX_TITLE),
  instructions: optionalText(MAX_INSTRUCTIONS),
  taskIds: z.array(z.string()).max(MAX_TASKS, `Choose at most ${MAX_TASKS} tasks.`),
  voiceNoteIds: z.array(z.string()).max(MAX_VOICE_NOTES, `Choose at most ${MAX_VOICE_NOTES} voice notes.`),
  body: optionalText(MAX_TEXT_CHARS),
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
