//! `admin.saveStaff` (add or edit a teacher or admin): the form's schema and the mutation.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { fitsChars, MAX_EMAIL_CHARS, MAX_PERSON_NAME_CHARS, tooLongMessage } from '@/generated/limits'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const staffSchema = z.object({
  forename: z.string().min(1, 'Enter a forename.').refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  surname: z.string().min(1, 'Enter a surname.').refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  email: z.string().min(1, 'Enter a valid e-mail address.').refine((v) => fitsChars(v, MAX_EMAIL_CHARS), tooLongMessage(MAX_EMAIL_CHARS)),
  role: z.string(),
  // Checkbox groups: react-hook-form's own value; the server checks the ids.
  classIds: z.custom<string[]>(),
  activated: z.boolean(),
  disabled: z.boolean(),
})

export type StaffValues = z.infer<typeof staffSchema>

export function useSaveStaff() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.saveStaff', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}
