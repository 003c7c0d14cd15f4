//! `admin.saveSchoolSettings`: the form's schema and the mutation.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_ORGANISATION_NAME_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const schoolSettingsSchema = z.object({
  name: requiredText("Enter the school's name.", MAX_ORGANISATION_NAME_CHARS),
  postcode: z.string(),
  type: z.enum(['SCHOOL', 'BUSINESS']),
  notificationsFrequency: z.enum(['IMMEDIATELY', 'DAILY', 'WEEKLY']),
  notifyParentsGeneral: z.boolean(),
  notifyParentsAssignment: z.boolean(),
  /** Whether the AI assistant keeps each question and its answer (off deletes those kept). */
  assistantHistory: z.boolean(),
  /** Whether e-mails carry the invisible image that counts them opened (off by default). */
  reachPixel: z.boolean(),
})

export type SchoolSettingsValues = z.infer<typeof schoolSettingsSchema>

export function useSaveSchoolSettings() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.saveSchoolSettings', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}
