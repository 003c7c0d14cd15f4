//! `admin.saveSchoolSettings`: the form's schema and the mutation.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const schoolSettingsSchema = z.object({
  name: z.string().min(1, "Enter the school's name."),
  postcode: z.string(),
  type: z.enum(['SCHOOL', 'BUSINESS']),
  notificationsFrequency: z.enum(['IMMEDIATELY', 'DAILY', 'WEEKLY']),
  notifyParentsGeneral: z.boolean(),
  notifyParentsAssignment: z.boolean(),
  /** Whether the AI assistant keeps each question and its answer (off deletes those kept). */
  assistantHistory: z.boolean(),
})

export type SchoolSettingsValues = z.infer<typeof schoolSettingsSchema>

export function useSaveSchoolSettings() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.saveSchoolSettings', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}
