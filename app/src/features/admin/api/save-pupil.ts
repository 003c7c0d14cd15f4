//! `admin.savePupil` (add or edit): the form's schema and the mutation.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const pupilSchema = z.object({
  forename: z.string().min(1, "Enter the pupil's forename."),
  surname: z.string().min(1, "Enter the pupil's surname."),
  email: z.string(),
  parentEmail: z.string(),
  upn: z.string(),
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
