//! `admin.saveClass`, `admin.saveYearGroup`, `admin.saveFormGroup` (add or rename): one form
//! with a name, so one schema and one hook that picks the procedure by kind.

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { fitsChars, MAX_GROUP_NAME_CHARS, tooLongMessage } from '@/generated/limits'
import { invalidateRpc, rpcMutation } from '@/lib/rpc'

export type GroupKind = 'class' | 'yearGroup' | 'formGroup'

export const groupSchema = z.object({
  name: z.string().min(1, 'Enter a name.').refine((v) => fitsChars(v, MAX_GROUP_NAME_CHARS), tooLongMessage(MAX_GROUP_NAME_CHARS)),
})

export type GroupValues = z.infer<typeof groupSchema>

const PROCEDURE = {
  class: 'admin.saveClass',
  yearGroup: 'admin.saveYearGroup',
  formGroup: 'admin.saveFormGroup',
} as const

export function useSaveGroup(kind: GroupKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { id: string | null; name: string }) => rpcMutation(PROCEDURE[kind], input),
    onSuccess: () => invalidateRpc(queryClient, 'admin.'),
  })
}
