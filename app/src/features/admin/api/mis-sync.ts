//! The MIS sync (Wonde or Groupcall Xporter): `admin.misSync` (health, polled while a sync
//! runs), `admin.saveWonde` / `admin.saveGroupcall` (connect: the token or secret is sent,
//! never read back) and `admin.syncNow`.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { invalidateRpc, useRpcMutation, useRpcQuery } from '@/lib/rpc'
import { fitsChars, MAX_MIS_ID_CHARS, MAX_MIS_SECRET_CHARS, tooLongMessage } from '@/generated/limits'
import { optionalText } from '@/lib/form-limits'

/** While a sync runs (or was just asked for), the page asks again every second. */
export const useMisSync = (polling: boolean) =>
  useRpcQuery('admin.misSync', undefined, { retry: false, refetchInterval: polling ? 1000 : false })

export const wondeSchema = z.object({
  wondeId: z
    .string()
    .trim()
    .min(1, "Enter the school's Wonde id.")
    .refine((v) => fitsChars(v, MAX_MIS_ID_CHARS), tooLongMessage(MAX_MIS_ID_CHARS))
    .regex(/^[A-Za-z0-9]+$/, 'A Wonde school id has only letters and digits, e.g. A1930499544.'),
  token: optionalText(MAX_MIS_SECRET_CHARS),
})

export type WondeValues = z.infer<typeof wondeSchema>

export function useSaveWonde() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.saveWonde', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}

export const groupcallSchema = z.object({
  groupcallId: z
    .string()
    .trim()
    .min(1, "Enter the school's Groupcall id.")
    .refine((v) => fitsChars(v, MAX_MIS_ID_CHARS), tooLongMessage(MAX_MIS_ID_CHARS))
    .regex(/^[A-Za-z0-9._|-]+$/, "A Groupcall id has only letters, digits, '-', '_', '.' and '|', e.g. 3281102."),
  secret: optionalText(MAX_MIS_SECRET_CHARS),
})

export type GroupcallValues = z.infer<typeof groupcallSchema>

export function useSaveGroupcall() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.saveGroupcall', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}

export function useSyncNow() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.syncNow', { onSuccess: () => invalidateRpc(queryClient, 'admin.misSync') })
}
