//! `admin.savePupil` (add or edit): the form's schema and the mutation.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { fitsChars, MAX_EMAIL_CHARS, MAX_PERSON_NAME_CHARS, MAX_UPN_CHARS, tooLongMessage } from '@/generated/limits'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const pupilSchema = z.object({
  forename: z.string().min(1, "Enter the pupil's forename.").refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  surname: z.string().min(1, "Enter the pupil's surname.").refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  email: z.string().refine((v) => fitsChars(v, MAX_EMAIL_CHARS), tooLongMessage(MAX_EMAIL_CHARS)),
  parentEmail: z.string().refine((v) => fitsChars(v, MAX_EMAIL_CHARS), tooLongMessage(MAX_EMAIL_CHARS)),
  // The parent's e-mail language (ISO 639-1, from the core's list); the server checks it.
  parentLanguage: z.string(),
  upn: z.string().refine((v) => fitsChars(v, MAX_UPN_CHARS), tooLongMessage(MAX_UPN_CHARS)),
  yearGroupId: z.string(),
  formGroupId: z.string(),
  // Checkbox groups: react-hook-form's own value; the server checks the ids.
  classIds: z.custom<string[]>(),
})

export type PupilValues = z.infer<typeof pupilSchema>

export function useSavePupil() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.savePupil', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}
